/**
 * The lifecycle events of one document write, row by row as Strapi fires them (see
 * lifecycles.ts): the write operations call these where they insert, update, copy or delete a
 * version row. One object per facade call, made only when a subscriber covers the type: without
 * one the operations see `undefined` and do nothing more.
 *
 * The first row of a create or update fires its `before` event on the body, before it is
 * validated and outside the transaction: what the handlers change (`event.params.data.slug = ...`)
 * is then validated and written like the rest of the body. Rows a write copies (publishing,
 * discarding a draft) fire `beforeCreate` inside the transaction on the source row's values;
 * scalar values the handlers change there are validated and written to the copy. Every `after`
 * event reads the row back (firing `beforeFindOne`/`afterFindOne`, as Strapi's re-read does), and
 * the result of the last row written, as its handlers left it, is what the write answers.
 */
import type { Db } from '../database/dialect.js';
import { ValidationError } from '../errors.js';
import type { FindOneQuery } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { validateInput } from './input.js';
import type { LifecycleAction, Lifecycles, LifecycleStates } from './lifecycles.js';
import { findRow } from './operations/find-one.js';
import type { Document } from './rows.js';
import { encodeScalars } from './write/scalars.js';

/** Keys of an event's `data` that are the row's own (not attributes a handler may set). */
const SYSTEM_KEYS = new Set(['id', 'documentId', 'locale', 'publishedAt', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

type Params = Record<string, unknown>;

interface Pending {
  action: LifecycleAction;
  params: Params;
  states: LifecycleStates;
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

export class RowEvents {
  /** The last row a create or update wrote, as its `after` handlers left it: what the write answers. */
  last: Document | null | undefined;
  private pending?: Pending;

  constructor(
    private readonly ctx: DocumentContext & { lifecycles: Lifecycles },
    readonly type: ContentType,
    /** What each row is read back as (fields, populate). */
    private readonly query: FindOneQuery,
    private readonly caller: CallerOptions | undefined,
    /** `select` and `populate` of the events' params, as the caller gave them. */
    private readonly selection: Params,
  ) {}

  private run(action: LifecycleAction, properties: { params: Params; result?: unknown }, states?: LifecycleStates, db?: Db): Promise<LifecycleStates> {
    return this.ctx.lifecycles.run(action, this.type, properties, states, db);
  }

  /**
   * The `before` event of the first row (`beforeCreate`, or `beforeUpdate` of the row `where`
   * names) on the body and the row's system values; answers the body as the handlers left it.
   */
  async beforeBody(action: 'beforeCreate' | 'beforeUpdate', data: Params, system: Params, where?: Params): Promise<Params> {
    const params: Params = { where: where ?? {}, data: { ...data, ...system }, ...this.selection };
    const states = await this.run(action, { params });
    this.pending = { action: action === 'beforeCreate' ? 'afterCreate' : 'afterUpdate', params, states };
    const after = params.data;
    if (after === null || typeof after !== 'object' || Array.isArray(after)) throw new ValidationError(`A ${action} handler left data that is not an object`);
    return Object.fromEntries(Object.entries(after).filter(([key]) => !SYSTEM_KEYS.has(key)));
  }

  /** The `after` event of the first row, once written (inside the transaction). */
  async afterBody(db: Db, rowId: number): Promise<void> {
    // Kept: a write transaction that runs again (a conflict) fires it again, on its own row.
    const pending = this.pending;
    if (!pending) return;
    await this.after(pending.action, db, rowId, pending.params, pending.states);
  }

  private async after(action: LifecycleAction, db: Db, rowId: number, params: Params, states: LifecycleStates): Promise<void> {
    const result = await this.read(db, rowId);
    await this.run(action, { params, result }, states, db);
    this.last = result;
  }

  /** The row as a write reads it back: `beforeFindOne`, the read, `afterFindOne`. */
  private async read(db: Db, rowId: number): Promise<Document | null> {
    const params: Params = { where: { id: rowId }, ...this.selection };
    const states = await this.run('beforeFindOne', { params }, undefined, db);
    const result = await findRow(this.ctx, db, this.type, rowId, this.query, this.caller);
    await this.run('afterFindOne', { params, result }, states, db);
    return result;
  }

  /** Deletes version rows with `beforeDelete` and `afterDelete` (on the row as it was) around it. */
  async deleteRows(db: Db, rowIds: number[], remove: () => Promise<void>): Promise<void> {
    const deleted: { params: Params; states: LifecycleStates; entity: Document | null }[] = [];
    for (const id of rowIds) {
      const params: Params = { where: { id } };
      const states = await this.run('beforeDelete', { params }, undefined, db);
      deleted.push({ params, states, entity: await this.read(db, id) });
    }
    await remove();
    for (const { params, states, entity } of deleted) await this.run('afterDelete', { params, result: entity }, states, db);
  }

  /**
   * A row copied from another (publishing a draft, discarding one): `beforeCreate` on the source
   * row's values with the copy's `publishedAt`, the copy, the scalar values the handlers changed,
   * then `afterCreate`.
   */
  async copyRow(db: Db, fromId: number, publishedAt: Date | null, copy: () => Promise<number>): Promise<number> {
    const source = (await findRow(this.ctx, db, this.type, fromId, { populate: {}, status: 'draft', locale: this.query.locale })) ?? {};
    const { id: _id, ...values } = source;
    const data: Params = { ...values, publishedAt };
    const params: Params = { where: {}, data, ...this.selection };
    const states = await this.run('beforeCreate', { params }, undefined, db);
    const id = await copy();
    await this.applyChanges(db, id, values, params.data as Params);
    await this.after('afterCreate', db, id, params, states);
    return id;
  }

  /** Scalar attributes whose values a handler changed (or added), validated and written to the row. */
  private async applyChanges(db: Db, rowId: number, before: Params, after: Params): Promise<void> {
    if (after === null || typeof after !== 'object') return;
    const changes: Params = {};
    for (const [key, value] of Object.entries(after)) {
      const attribute = this.type.attributes[key];
      if (attribute?.kind === 'scalar' && !same(before[key], value)) changes[key] = value;
    }
    if (Object.keys(changes).length === 0) return;
    const { input, errors } = validateInput(this.ctx.schema, this.type, changes, 'update', { draft: true });
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const values = await encodeScalars(this.ctx.database.dialect, this.type, input, 'update');
    await db.updateTable(this.type.table).set(values).where('id', '=', rowId).execute();
  }
}
