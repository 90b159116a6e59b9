/**
 * The one way writes reach the database: a transaction whose failures are translated for the
 * client. A deadlock or serialisation failure runs the whole transaction again (a few times, after
 * a short random pause, so that the colliding writers do not collide again); a unique index that
 * refuses a value becomes a ValidationError naming the attribute; a database that stays locked or
 * busy is a 503. Nothing here knows HTTP: the errors are Vellum's typed errors.
 */
import { ServiceUnavailableError, ValidationError } from '../errors.js';
import type { DatabaseFailure, Db, Dialect } from './dialect.js';

/** Where a unique index's values come from, to name them in an error. */
export interface UniqueTarget {
  table: string;
  columns: string[];
  /** The attribute (or field) the client wrote, as `details.errors[].path` names it. */
  path: string[];
}

/** Unique indexes by name, and by table and columns (SQLite names the columns, not the index). */
export class UniqueIndexes {
  private readonly byName = new Map<string, UniqueTarget>();
  private readonly byColumns = new Map<string, UniqueTarget>();

  private static key(table: string, columns: string[]): string {
    return `${table}\u0000${columns.join('\u0000')}`;
  }

  register(name: string, target: UniqueTarget): void {
    this.byName.set(name, target);
    this.byColumns.set(UniqueIndexes.key(target.table, target.columns), target);
  }

  find(failure: Extract<DatabaseFailure, { kind: 'unique' }>): UniqueTarget | undefined {
    if (failure.index && this.byName.has(failure.index)) return this.byName.get(failure.index);
    if (failure.table && failure.columns) return this.byColumns.get(UniqueIndexes.key(failure.table, failure.columns));
    return undefined;
  }
}

export const UNIQUE_MESSAGE = 'This attribute must be unique';

/** Tries of one write before a conflict is answered 503; each try after the first waits a little. */
const MAX_WRITE_ATTEMPTS = 8;
/**
 * Tries of one write that a unique index keeps refusing. Each refusal means another writer committed
 * that value, so a writer among N concurrent ones on one generated uid is refused at most N - 1
 * times: 8 tries failed 1 request in 10 when ten creates of one title raced on a loaded machine.
 */
const MAX_UNIQUE_ATTEMPTS = 32;

const pause = (attempt: number): Promise<void> => {
  // Full jitter on an exponential ceiling: 1-10 ms, then up to 20, 40, ... 250 ms.
  const ceiling = Math.min(250, 5 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * ceiling));
};

function uniqueError(indexes: UniqueIndexes, failure: Extract<DatabaseFailure, { kind: 'unique' }>): ValidationError {
  const target = indexes.find(failure);
  const path = target?.path ?? failure.columns ?? [];
  return ValidationError.fromFieldErrors([{ path, message: UNIQUE_MESSAGE, name: 'ValidationError' }]);
}

/**
 * Runs `fn` as one write transaction, again when the database aborts it for a conflict. A unique
 * violation also runs it again before it is reported: the writer that won has committed by then, so
 * the body's own checks see its value and answer as they would have without the race (with the
 * value in the error), and a uid generated from a title picks the next free suffix.
 */
export async function runWrite<T>(
  db: Db,
  dialect: Dialect,
  indexes: UniqueIndexes,
  fn: (trx: Db) => Promise<T>,
  onRetry?: (failure: DatabaseFailure) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await dialect.writeTransaction(db, fn);
    } catch (error) {
      const failure = dialect.classifyError(error);
      if (!failure) throw error;
      if (failure.kind === 'busy') throw new ServiceUnavailableError();
      if (failure.kind === 'unique' && attempt >= MAX_UNIQUE_ATTEMPTS) throw uniqueError(indexes, failure);
      if (failure.kind === 'conflict' && attempt >= MAX_WRITE_ATTEMPTS) {
        throw new ServiceUnavailableError('Concurrent writes kept conflicting; nothing was written, try again');
      }
      onRetry?.(failure);
      await pause(attempt);
    }
  }
}
