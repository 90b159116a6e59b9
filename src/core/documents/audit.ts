/**
 * The audit entries of document writes by an administrator (`CallerOptions.actor`), recorded in the
 * write's own transaction through the trail features/audit/ implements (audit-port.ts): a write
 * that fails records nothing, and a recorded entry always names a committed change.
 *
 * The actions are Strapi's: `entry.create|update|delete|publish|unpublish` (and
 * `entry.draft-discard`, the webhook event's name: Strapi does not audit it), `media.*` for files,
 * `role.*` for the users-permissions roles. An update records the names of the attributes whose
 * values changed, read on the transaction before and after the write (scalars as stored, private
 * ones too; relations by the documents they name; media by file; components and dynamic zones by
 * their values); a password attribute counts as changed when the body gives one (its stored hash
 * differs every time). An update that changes no value records nothing. A create records the
 * attributes it set (a value other than null, empty or the schema's default). No value is ever recorded.
 */
import type { Db } from '../database/dialect.js';
import type { FindOneQuery, PopulateNode, PopulateTree } from '../query/types.js';
import { FILE_UID, type ContentType, type Model, type Schema } from '../schema/model.js';
import type { Audited, AuditTrail } from './audit-port.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { findRow } from './operations/find-one.js';
import { ReadBudget } from './read/budget.js';

export { recordAudit, type Audited, type AuditEntry, type AuditTrail } from './audit-port.js';

/** The users-permissions roles (features/users-permissions/ owns the type; core/documents/ cannot import it). */
const ROLE_UID = 'plugin::users-permissions.role';

/** The domain of a type's actions, when it is not `entry`. */
const DOMAINS: Record<string, string> = { [FILE_UID]: 'media', [ROLE_UID]: 'role' };

/**
 * The caller of a document write by `audited`'s administrator (recorded as theirs); undefined
 * without one (a command's document writes record no entry: they have no administrator to name).
 */
export const auditCaller = (audited: Audited | undefined): CallerOptions | undefined =>
  audited && audited.actor !== null ? { actor: audited.actor } : undefined;

export type DocumentChange = 'create' | 'update' | 'delete' | 'publish' | 'unpublish' | 'draft-discard';

/** Each attribute's value as compared, by name (JSON text: equal texts, equal values). */
export type Snapshot = Map<string, string>;

/** What a snapshot populates: every relation and file by its documentId, components and zones whole. */
function comparedTree(schema: Schema, model: Model): PopulateTree {
  const tree: PopulateTree = {};
  const ids: PopulateNode = { fields: [] };
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.private) continue;
    switch (attribute.kind) {
      case 'relation':
        if (schema.contentTypes.has(attribute.target)) tree[attribute.name] = ids;
        break;
      case 'media':
        if (schema.contentTypes.has(FILE_UID)) tree[attribute.name] = ids;
        break;
      case 'component': {
        const component = schema.components.get(attribute.component);
        if (component) tree[attribute.name] = { populate: comparedTree(schema, component) };
        break;
      }
      case 'dynamiczone': {
        const on: Record<string, PopulateNode> = {};
        for (const uid of attribute.components) {
          const component = schema.components.get(uid);
          if (component) on[uid] = { populate: comparedTree(schema, component) };
        }
        tree[attribute.name] = { on };
        break;
      }
      default:
        break;
    }
  }
  return tree;
}

/**
 * A value as compared: a linked document or file as its documentId (and locale), a component
 * without its row id (rewritten on every save), dates as ISO text, big integers as text.
 */
function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.documentId === 'string') return [object.documentId, object.locale ?? null];
    return Object.fromEntries(
      Object.keys(object)
        .filter((key) => key !== 'id')
        .sort()
        .map((key) => [key, comparable(object[key])]),
    );
  }
  return value;
}

const comparedQueries = new WeakMap<ContentType, FindOneQuery>();

/** The audit entries of one document write (one call of the facade), when an administrator writes. */
export class DocumentAudit {
  private readonly audited: Audited & { actor: number };

  private constructor(
    private readonly ctx: DocumentContext,
    private readonly type: ContentType,
    trail: AuditTrail,
    actor: number,
  ) {
    this.audited = { trail, actor };
  }

  /** The audit of a write by `caller`, when a trail is configured and an administrator writes. */
  static of(ctx: DocumentContext, type: ContentType, caller?: CallerOptions): DocumentAudit | undefined {
    if (!ctx.audit || caller?.actor === undefined) return undefined;
    return new DocumentAudit(ctx, type, ctx.audit, caller.actor);
  }

  /** The attributes of a version row as compared (read on the write's transaction). */
  async snapshot(db: Db, rowId: number): Promise<Snapshot> {
    const { ctx, type } = this;
    const raw = (await db.selectFrom(type.table).selectAll().where('id', '=', rowId).executeTakeFirst()) as
      Record<string, unknown> | undefined;
    let query = comparedQueries.get(type);
    if (!query) {
      query = { fields: [], populate: comparedTree(ctx.schema, type), status: 'draft', locale: ctx.i18n.defaultLocale };
      comparedQueries.set(type, query);
    }
    const populated = await findRow(ctx, db, type, rowId, query, {}, ReadBudget.unlimited(), true);
    const snapshot: Snapshot = new Map();
    for (const attribute of Object.values(type.attributes)) {
      if (attribute.kind === 'scalar') {
        if (attribute.type !== 'password')
          snapshot.set(attribute.name, JSON.stringify(comparable(raw?.[attribute.column])));
      } else if (!attribute.private)
        snapshot.set(attribute.name, JSON.stringify(comparable(populated?.[attribute.name])));
    }
    return snapshot;
  }

  /** The attributes whose values differ, in the schema's order. */
  private differences(before: Snapshot, after: Snapshot): string[] {
    return Object.keys(this.type.attributes).filter((name) => before.get(name) !== after.get(name));
  }

  /**
   * The attributes a new version holds a value in, in the schema's order: a scalar the body gives
   * other than null and the schema's default; a relation, file, component or zone that is not empty
   * once written (read back: `snapshot`). A form that sends every attribute names only those it filled.
   */
  private filled(data: Record<string, unknown>, snapshot: Snapshot): string[] {
    return Object.values(this.type.attributes)
      .filter((attribute) => {
        if (attribute.kind !== 'scalar') {
          const value = snapshot.get(attribute.name);
          return value !== undefined && value !== 'null' && value !== '[]';
        }
        const given = data[attribute.name];
        if (given === undefined || given === null) return false;
        return attribute.default === undefined || JSON.stringify(given) !== JSON.stringify(attribute.default);
      })
      .map((attribute) => attribute.name);
  }

  /** Password attributes a body gives (their stored hashes cannot be compared). */
  private passwords(data: Record<string, unknown>): Set<string> {
    return new Set(
      Object.values(this.type.attributes)
        .filter((attribute) => attribute.kind === 'scalar' && attribute.type === 'password')
        .map((attribute) => attribute.name)
        .filter((name) => data[name] !== undefined && data[name] !== null),
    );
  }

  /**
   * A version row written from a body: `before` (its snapshot) for an edit, which records the
   * attributes it changed (nothing when none did); none for a new version, which records the
   * attributes it holds a value in.
   */
  async wrote(
    db: Db,
    rowId: number,
    documentId: string,
    locale: string | null,
    data: Record<string, unknown>,
    before?: Snapshot,
  ): Promise<void> {
    if (!before)
      return this.record(db, 'create', documentId, locale, this.filled(data, await this.snapshot(db, rowId)));
    const passwords = this.passwords(data);
    const changed = new Set(this.differences(before, await this.snapshot(db, rowId)));
    for (const name of passwords) changed.add(name);
    const names = Object.keys(this.type.attributes).filter((name) => changed.has(name));
    if (names.length) await this.record(db, 'update', documentId, locale, names);
  }

  /** A draft restored from the published version: the attributes that changed (`before`: the draft's snapshot, if it had one). */
  async discarded(db: Db, rowId: number, documentId: string, locale: string | null, before?: Snapshot): Promise<void> {
    const after = await this.snapshot(db, rowId);
    await this.record(db, 'draft-discard', documentId, locale, before ? this.differences(before, after) : []);
  }

  /** A publication change (`publish`, `unpublish`) of one locale. */
  async published(db: Db, change: 'publish' | 'unpublish', documentId: string, locale: string | null): Promise<void> {
    await this.record(db, change, documentId, locale);
  }

  /** A document deleted: one entry per locale whose versions went (one for a type without i18n). */
  async deleted(db: Db, documentId: string, rows: { locale: string | null }[]): Promise<void> {
    const locales = this.type.localized ? [...new Set(rows.map((row) => row.locale))].sort() : [null];
    for (const locale of locales) await this.record(db, 'delete', documentId, locale);
  }

  private async record(
    db: Db,
    change: DocumentChange,
    documentId: string,
    locale: string | null,
    changed?: string[],
  ): Promise<void> {
    const { type, audited } = this;
    await audited.trail.record(db, {
      action: `${DOMAINS[type.uid] ?? 'entry'}.${change}`,
      actor: audited.actor,
      contentType: type.uid,
      documentId,
      locale: type.localized ? locale : null,
      ...(changed ? { changed } : {}),
    });
  }
}
