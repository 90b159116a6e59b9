/**
 * The lifecycle events of one document write, row by row as Strapi fires them (see
 * lifecycles.ts). One object per facade call, made only when a subscriber covers the type:
 * without one the operations see `undefined` and do nothing more.
 *
 * No handler runs inside the write transaction. Project code in a handler uses the database too
 * (`strapi.db.query`, `strapi.documents`), and a transaction holding SQLite's one connection, or
 * the document's row locks elsewhere, would wait for it forever; Strapi joins such code to the
 * transaction through AsyncLocalStorage, which on Node 20 slows every promise of the process
 * (several times on promise-heavy code, measured). So a write runs in three phases:
 *
 * 1. Before the transaction, every `before` event of the rows it will touch, in Strapi's order:
 *    the row the body writes (`beforeCreate` or `beforeUpdate`, on the body: what the handlers
 *    change, `event.params.data.slug = ...`, is validated and written like the rest of the body),
 *    the versions it deletes (`beforeDelete`, with the row read as it is), the version it copies
 *    (`beforeCreate` of the published version on the values it will have: scalar values the
 *    handlers change there are validated now and written to the copy).
 * 2. The transaction: the operations record which rows they wrote (`wrote`, `copied`).
 * 3. After the commit, every `after` event in the same order, each on its row read back (firing
 *    `beforeFindOne`/`afterFindOne`, as Strapi's re-read does). The result of the last row
 *    written, as its handlers left it, is what the write answers.
 *
 * So the `before` events of a write come before its `after` events (Strapi interleaves them per
 * row), and a handler that throws in an `after` event finds the write committed (Strapi rolls it
 * back). A `before` handler that throws aborts the write with nothing written, as in Strapi.
 */
import type { Db } from '../database/dialect.js';
import { ValidationError } from '../errors.js';
import type { FindOneQuery } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { validateInput } from './input.js';
import type { LifecycleAction, LifecycleHooks, LifecycleStates } from './hooks.js';
import { findRow } from './operations/find-one.js';
import { ReadBudget } from './read/budget.js';
import { ROW_KEYS, type Document } from './rows.js';
import { encodeScalars } from './write/scalars.js';

type Params = Record<string, unknown>;

interface Pending {
  action: LifecycleAction;
  params: Params;
  states: LifecycleStates;
}

interface Deletion extends Pending {
  entity: Document | null;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

export class RowEvents {
  /** The last row a create or update wrote, as its `after` handlers left it: what the write answers. */
  last: Document | null | undefined;
  private first?: Pending;
  private firstRow?: number;
  private readonly deletions: Deletion[] = [];
  private copy?: Pending & { values?: Params };
  private copyRow?: number;

  constructor(
    private readonly ctx: DocumentContext & { lifecycles: LifecycleHooks },
    readonly type: ContentType,
    /** What each row is read back as (fields, populate). */
    private readonly query: FindOneQuery,
    private readonly caller: CallerOptions,
    /** `select` and `populate` of the events' params, as the caller gave them. */
    private readonly selection: Params,
    /** What the rows read back may hold (the caller's read budget). */
    private readonly budget: ReadBudget,
  ) {}

  private run(
    action: LifecycleAction,
    properties: { params: Params; result?: unknown },
    states?: LifecycleStates,
  ): Promise<LifecycleStates> {
    return this.ctx.lifecycles.run(action, this.type, properties, states);
  }

  /**
   * Phase 1: the `before` event of the row the body writes (`beforeCreate`, or `beforeUpdate` of
   * the row `where` names) on the body and the row's system values; answers the body as the
   * handlers left it.
   */
  async beforeBody(
    action: 'beforeCreate' | 'beforeUpdate',
    data: Params,
    system: Params,
    where?: Params,
  ): Promise<Params> {
    const params: Params = { where: where ?? {}, data: { ...data, ...system }, ...this.selection };
    const states = await this.run(action, { params });
    this.first = { action: action === 'beforeCreate' ? 'afterCreate' : 'afterUpdate', params, states };
    const after = params.data;
    if (after === null || typeof after !== 'object' || Array.isArray(after))
      throw new ValidationError(`A ${action} handler left data that is not an object`);
    return Object.fromEntries(Object.entries(after).filter(([key]) => !ROW_KEYS.has(key)));
  }

  /** Phase 1: `beforeDelete` of version rows the write will delete, each row read as it is. */
  async beforeDeletes(rowIds: number[]): Promise<void> {
    for (const id of rowIds) {
      const params: Params = { where: { id } };
      const states = await this.run('beforeDelete', { params });
      this.deletions.push({ action: 'afterDelete', params, states, entity: await this.read(this.ctx.database.db, id) });
    }
  }

  /**
   * Phase 1: `beforeCreate` of the version the write will copy (publishing a draft, discarding
   * one), on the values it will have. Scalar values the handlers change are validated now and
   * written to the copy in the transaction.
   */
  async beforeCopy(data: Params): Promise<void> {
    const params: Params = { where: {}, data: { ...data }, ...this.selection };
    const states = await this.run('beforeCreate', { params });
    const after = params.data as Params;
    const changes: Params = {};
    if (after && typeof after === 'object') {
      for (const [key, value] of Object.entries(after)) {
        if (this.type.attributes[key]?.kind === 'scalar' && !same(data[key], value)) changes[key] = value;
      }
    }
    let values: Params | undefined;
    if (Object.keys(changes).length > 0) {
      const { input, errors } = validateInput(this.ctx.schema, this.type, changes, 'update', { draft: true });
      if (errors.length) throw ValidationError.fromFieldErrors(errors);
      values = await encodeScalars(this.ctx.database.dialect, this.type, input, 'update', this.ctx.passwords);
    }
    this.copy = { action: 'afterCreate', params, states, values };
  }

  /** Phase 2: the row the body wrote. */
  wrote(rowId: number): void {
    this.firstRow = rowId;
  }

  /** Phase 2: the version copied; the values `beforeCreate` handlers set are written to it. */
  async copied(db: Db, rowId: number): Promise<void> {
    this.copyRow = rowId;
    if (this.copy?.values)
      await db.updateTable(this.type.table).set(this.copy.values).where('id', '=', rowId).execute();
  }

  /** Phase 3, after the commit: the `after` events, each on its row read back. */
  async afterAll(): Promise<void> {
    if (this.first && this.firstRow !== undefined) await this.after(this.first, this.firstRow);
    for (const deletion of this.deletions)
      await this.run(deletion.action, { params: deletion.params, result: deletion.entity }, deletion.states);
    if (this.copy && this.copyRow !== undefined) await this.after(this.copy, this.copyRow);
  }

  private async after(pending: Pending, rowId: number): Promise<void> {
    const result = await this.read(this.ctx.database.db, rowId);
    await this.run(pending.action, { params: pending.params, result }, pending.states);
    this.last = result;
  }

  /** The row as Strapi's entity manager reads it back: `beforeFindOne`, the read, `afterFindOne`. */
  private async read(db: Db, rowId: number): Promise<Document | null> {
    const params: Params = { where: { id: rowId }, ...this.selection };
    const states = await this.run('beforeFindOne', { params });
    const result = await findRow(this.ctx, db, this.type, rowId, this.query, this.caller, this.budget);
    await this.run('afterFindOne', { params, result }, states);
    return result;
  }
}
