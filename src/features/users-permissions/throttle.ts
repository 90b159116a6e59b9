/**
 * Attempts per key (a login's account and client address, a registration's client address),
 * counted in the database so that every node shares the count. Counting is koa2-ratelimit's, as
 * Strapi's `ratelimit` counts: a window opens at a key's first attempt and lasts `windowSeconds`;
 * past `max` attempts in it, further ones answer 429 until it closes.
 *
 * An attempt is counted before it is let through (`hit`), in one write transaction that holds the
 * key's row, so concurrent attempts, on any node, are counted one after the other: of twelve
 * simultaneous wrong passwords against a limit of five, five are checked and seven refused.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../../core/database/connection.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { RateLimitError } from '../../core/errors.js';
import type { RateLimit } from './config.js';
import { RATE_LIMITS_TABLE } from './model.js';

/** The stored key: its scope in clear, the rest digested (identifiers can be long, and are personal). */
const storedKey = (scope: string, parts: readonly string[]): string =>
  `${scope}:${createHash('sha256').update(JSON.stringify(parts)).digest('base64url')}`;

export class Throttle {
  constructor(
    private readonly database: Database,
    private readonly limit: RateLimit,
    /** What the keys count (`login`, `register`): keys of different throttles never meet. */
    private readonly scope: string,
  ) {}

  /**
   * Counts one attempt for `parts` (e.g. account and client address); 429 when it is past the
   * limit, and then the attempt must not go on.
   */
  async hit(parts: readonly string[]): Promise<void> {
    if (!this.limit.enabled) return;
    const key = storedKey(this.scope, parts);
    const { dialect } = this.database;
    const now = new Date();
    const open = (windowEnd: unknown) =>
      new Date(dialect.decode('datetime', windowEnd) as string).getTime() > now.getTime();
    // A key past its limit is refused on a plain read: a flood of refused attempts takes no write lock.
    const current = await this.database.system
      .selectFrom(RATE_LIMITS_TABLE)
      .select(['hits', 'window_end'])
      .where('key', '=', key)
      .executeTakeFirst();
    if (current && Number(current.hits) >= this.limit.max && open(current.window_end)) throw new RateLimitError();
    let opened = false;
    const attempts = await this.database.write(async (trx: SystemDb) => {
      let select = trx.selectFrom(RATE_LIMITS_TABLE).select(['hits', 'window_end']).where('key', '=', key);
      if (dialect.rowLocks) select = select.forUpdate();
      const row = await select.executeTakeFirst();
      if (!row || !open(row.window_end)) {
        const values = {
          hits: 1,
          window_end: dialect.encode('datetime', new Date(now.getTime() + this.limit.windowSeconds * 1000)),
        };
        // Two first attempts at once: one insert wins, the unique index refuses the other, and the
        // write runs again, finding the row.
        if (row) await trx.updateTable(RATE_LIMITS_TABLE).set(values).where('key', '=', key).execute();
        else
          await trx
            .insertInto(RATE_LIMITS_TABLE)
            .values({ key, ...values })
            .execute();
        opened = true;
        return 1;
      }
      const hits = Number(row.hits) + 1;
      // Past the limit the count stays where it is: refused attempts write nothing.
      if (hits <= this.limit.max)
        await trx.updateTable(RATE_LIMITS_TABLE).set({ hits }).where('key', '=', key).execute();
      return hits;
    });
    if (opened) await this.forgetClosedWindows(now);
    if (attempts > this.limit.max) throw new RateLimitError();
  }

  /** Forgets the attempts of `parts` (a login that succeeded). */
  async reset(parts: readonly string[]): Promise<void> {
    if (!this.limit.enabled) return;
    const key = storedKey(this.scope, parts);
    await this.database.write((trx: SystemDb) => trx.deleteFrom(RATE_LIMITS_TABLE).where('key', '=', key).execute());
  }

  /** Rows whose window closed a while ago (any scope): nothing reads them any more. */
  private async forgetClosedWindows(now: Date): Promise<void> {
    const before = this.database.dialect.encode('datetime', new Date(now.getTime() - 60_000));
    await this.database.write((trx: SystemDb) =>
      trx.deleteFrom(RATE_LIMITS_TABLE).where('window_end', '<', before).execute(),
    );
  }
}

/**
 * Routes whose count Strapi 5.54's users-permissions `rateLimit` middleware keys by the body's
 * `email` as well; the others (`auth/local`, `auth/reset-password`, `auth/change-password`,
 * `connect/...`) by route and address only, so that varying `email` gives no fresh count.
 */
const KEYED_BY_EMAIL = new Set(['auth/local/register', 'auth/forgot-password', 'auth/send-email-confirmation']);

/** The key Strapi counts a request by: its route (REST and GraphQL share it), the body's email where Strapi uses it, the client address. */
export function routeKey(route: string, body: unknown, clientIp: string): string[] {
  let identifier = 'noIdentifier';
  if (KEYED_BY_EMAIL.has(route)) {
    const email = body && typeof body === 'object' ? (body as Record<string, unknown>).email : undefined;
    identifier = typeof email === 'string' && email !== '' ? email.toLowerCase() : 'unknownIdentifier';
  }
  return [route, identifier, clientIp];
}
