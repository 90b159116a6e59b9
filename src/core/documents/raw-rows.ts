/**
 * Version rows as they are, for moving a whole project in and out (`vellum import`, `vellum
 * export`): written with the documentIds, timestamps, publication states and password hashes they
 * come with, read with every stored value. Nothing here validates a body, fires an event or
 * generates a value: an archive is a copy of what a server held, and it comes back as it was. Only
 * the transfer layer uses it; the content API never reaches it.
 *
 * Values are in the shape Strapi's archives hold them (and Vellum's documents show them):
 * components and dynamic zones nested in their owner with their ids, relations and media apart
 * (as links between row ids).
 */
import type { Selectable } from 'kysely';
import type { Db } from '../database/dialect.js';
import { columnTypeOf, MEDIA_LINK_TABLE } from '../database/tables.js';
import { shaped, type ComponentLinkRow, type LinkRow, type MediaLinkRow } from '../database/system-tables.js';
import { parseDate, parseDateTime, parseTime } from '../schema/temporal.js';
import type { ContentType, LinkTable, Model, ScalarAttribute } from '../schema/model.js';
import type { DocumentContext } from './context.js';
import { ROW_KEYS } from './rows.js';
import { entriesWithoutRows } from './write/entries-left.js';
import { insertMany } from './write/insert.js';
import { uniqueConflicts } from './write/scalars.js';
import { ValidationError } from '../errors.js';
import { UNIQUE_MESSAGE } from '../database/write.js';
import { writersFor } from './operations/versions-store.js';

/** One version of a document as an archive holds it. */
export interface RawVersion {
  documentId: string;
  /** null for types without i18n. */
  locale: string | null;
  /** null: a draft (types with draft and publish). */
  publishedAt: unknown;
  createdAt: unknown;
  updatedAt: unknown;
  /** Attribute values, components and zones nested (each item with its `id`; zone items with `__component`). */
  values: Record<string, unknown>;
}

/** What a restore tells its caller as it goes: ids of the components it wrote, what it left out. */
export interface RestoreSink {
  component(uid: string, archiveId: unknown, id: number): void;
  /** A value the schema has no place for (`model.attribute`), or a component type it lacks. */
  skipped(what: string): void;
}

export interface RelationLinkInput {
  entityId: number;
  documentId: string;
  locale: string | null;
  targetOrd: number | null;
  entityOrd: number | null;
}

export interface MediaLinkInput {
  fileId: number;
  relatedId: number;
  relatedType: string;
  field: string;
  ord: number | null;
}

/** Keys of a restored value that are no column of its model: the row's own, its localizations, a zone entry's component. */
const SYSTEM_KEYS = new Set([...ROW_KEYS, 'localizations', '__component']);

/** A value as a column of its attribute stores it; undefined when it cannot be read. */
function columnValue(ctx: DocumentContext, attribute: ScalarAttribute, value: unknown): unknown {
  const { dialect } = ctx.database;
  const type = columnTypeOf(attribute.type);
  if (value === null || value === undefined) return null;
  let plain: unknown = value;
  switch (attribute.type) {
    case 'datetime':
    case 'timestamp': {
      const parsed = parseDateTime(value);
      plain = 'value' in parsed ? parsed.value : undefined;
      break;
    }
    case 'date': {
      const parsed = parseDate(value instanceof Date ? value.toISOString() : value);
      plain = 'value' in parsed ? parsed.value : undefined;
      break;
    }
    case 'time': {
      const parsed = parseTime(typeof value === 'string' && /^\d{2}:\d{2}$/.test(value) ? `${value}:00` : value);
      plain = 'value' in parsed ? parsed.value : undefined;
      break;
    }
    case 'biginteger':
      plain = String(value);
      break;
    case 'integer':
    case 'float':
    case 'decimal':
      plain = typeof value === 'number' ? value : Number(value);
      if (Number.isNaN(plain)) plain = undefined;
      break;
    case 'boolean':
      plain = value === true || value === 1 || value === '1' || value === 'true' || value === 't';
      break;
    case 'json':
    case 'blocks':
      break;
    default:
      plain = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return plain === undefined ? undefined : dialect.encode(type, plain);
}

const systemTime = (ctx: DocumentContext, value: unknown): unknown => {
  const parsed = parseDateTime(value);
  return ctx.database.dialect.encode('datetime', 'value' in parsed ? parsed.value : new Date());
};

/** Writes archived versions and their links, in the caller's transaction. */
export class RawWriter {
  constructor(
    private readonly ctx: DocumentContext,
    private readonly db: Db,
  ) {}

  /** The scalar columns of a model's values; attributes the model lacks are reported. */
  private scalars(model: Model, values: Record<string, unknown>, sink: RestoreSink): Record<string, unknown> {
    const columns: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) {
      if (SYSTEM_KEYS.has(key)) continue;
      const attribute = model.attributes[key];
      if (!attribute) {
        sink.skipped(`${model.uid}.${key}`);
        continue;
      }
      if (attribute.kind !== 'scalar') continue;
      const encoded = columnValue(this.ctx, attribute, value);
      if (encoded === undefined) sink.skipped(`${model.uid}.${key} (value ${JSON.stringify(value)?.slice(0, 40)})`);
      else columns[attribute.column] = encoded;
    }
    return columns;
  }

  /** Components and zones of a row's values, written below it (recursively). */
  private async components(
    model: Model,
    rowId: number,
    values: Record<string, unknown>,
    sink: RestoreSink,
  ): Promise<void> {
    const links: Omit<ComponentLinkRow, 'id'>[] = [];
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
      const value = values[attribute.name];
      if (value === undefined || value === null) continue;
      const items = Array.isArray(value) ? value : [value];
      let ord = 0;
      for (const item of items) {
        if (!item || typeof item !== 'object') continue;
        const record = item as Record<string, unknown>;
        const uid = attribute.kind === 'component' ? attribute.component : String(record.__component);
        const component = this.ctx.schema.components.get(uid);
        if (!component) {
          sink.skipped(`component ${uid} (in ${model.uid}.${attribute.name})`);
          continue;
        }
        const id = await this.ctx.database.dialect.insertReturningId(
          this.db,
          component.table,
          this.scalars(component, record, sink),
        );
        sink.component(uid, record.id, id);
        await this.components(component, id, record, sink);
        links.push({ entity_id: rowId, cmp_id: id, component_type: uid, field: attribute.name, ord: ++ord });
      }
    }
    await insertMany(this.db, model.componentLinkTable, links);
  }

  /**
   * Writes versions of one type: a version that exists (same documentId, locale and publication
   * state) is overwritten, with everything below it (components, owned relations, media) removed
   * for the caller to link again; others are inserted. Answers the row ids, in order.
   */
  async versions(type: ContentType, versions: RawVersion[], sink: RestoreSink): Promise<number[]> {
    if (versions.length === 0) return [];
    const documentIds = [...new Set(versions.map((v) => v.documentId))];
    const existing = new Map<string, number>();
    const key = (documentId: string, locale: string | null, published: boolean) =>
      `${documentId}\u0000${type.localized ? locale : ''}\u0000${type.draftAndPublish ? published : ''}`;
    for (let i = 0; i < documentIds.length; i += 500) {
      const rows = await this.db
        .selectFrom(type.table)
        .select(['id', 'document_id', 'locale', 'published_at'])
        .where('document_id', 'in', documentIds.slice(i, i + 500))
        .orderBy('id')
        .execute();
      for (const row of rows) {
        const k = key(row.document_id as string, row.locale as string | null, row.published_at !== null);
        if (!existing.has(k)) existing.set(k, Number(row.id));
      }
    }
    const writers = writersFor(this.ctx, this.db);
    const replaced = versions
      .map((v) => existing.get(key(v.documentId, v.locale, v.publishedAt !== null && v.publishedAt !== undefined)))
      .filter((id): id is number => id !== undefined);
    await writers.components.deleteBelow(type, replaced);
    const ids: number[] = [];
    for (const version of versions) {
      const published = version.publishedAt !== null && version.publishedAt !== undefined;
      const columns: Record<string, unknown> = {
        ...this.scalars(type, version.values, sink),
        document_id: version.documentId,
        locale: type.localized ? version.locale : null,
        published_at:
          type.draftAndPublish && !published ? null : systemTime(this.ctx, version.publishedAt ?? version.updatedAt),
        created_at: systemTime(this.ctx, version.createdAt),
        updated_at: systemTime(this.ctx, version.updatedAt),
      };
      if (published && type.scalars.some((a) => a.unique)) {
        // Checked before writing: the unique index would refuse it too, after the write hook's retries.
        const taken = await uniqueConflicts(
          this.db,
          type,
          columns,
          version.documentId,
          columns.locale as string | null,
        );
        if (taken.length) {
          throw ValidationError.fromFieldErrors(
            taken.map((attribute) => ({
              path: [attribute.name],
              message: UNIQUE_MESSAGE,
              name: 'ValidationError',
              value: version.values[attribute.name],
            })),
          );
        }
      }
      const k = key(version.documentId, version.locale, published);
      let id = existing.get(k);
      if (id === undefined) {
        id = await this.ctx.database.dialect.insertReturningId(this.db, type.table, columns);
        existing.set(k, id);
      } else {
        await this.db.updateTable(type.table).set(columns).where('id', '=', id).execute();
      }
      await this.components(type, id, version.values, sink);
      ids.push(id);
    }
    return ids;
  }

  /**
   * Deletes the versions of documents that the source does not have (a draft the source no longer
   * has, a locale deleted there): `keep` are the rows the import wrote. A locale left without a
   * version is a deleted entry (deletion-port.ts): it leaves its releases, as a deletion does.
   */
  async staleVersions(type: ContentType, documentIds: string[], keep: Set<number>): Promise<number> {
    const stale: { id: number; document_id: unknown; locale: unknown }[] = [];
    for (let i = 0; i < documentIds.length; i += 500) {
      const rows = await this.db
        .selectFrom(type.table)
        .select(['id', 'document_id', 'locale'])
        .where('document_id', 'in', documentIds.slice(i, i + 500))
        .execute();
      for (const row of rows) if (!keep.has(Number(row.id))) stale.push({ ...row, id: Number(row.id) });
    }
    if (stale.length === 0) return 0;
    const ids = stale.map((row) => row.id);
    const writers = writersFor(this.ctx, this.db);
    await writers.components.deleteBelow(type, ids);
    await this.db.deleteFrom(type.table).where('id', 'in', ids).execute();
    if (type.draftAndPublish && this.ctx.deletions) {
      const gone = await entriesWithoutRows(this.db, type, stale);
      if (gone.length > 0) await this.ctx.deletions.deleted(this.db, type, gone);
    }
    return stale.length;
  }

  /**
   * Adds relation links of an owning attribute. A link already there is kept; an order it lacks
   * (the API import learns a link's two orders from its two sides) is filled in.
   */
  async relationLinks(link: LinkTable, links: RelationLinkInput[]): Promise<void> {
    if (links.length === 0) return;
    const entityIds = [...new Set(links.map((l) => l.entityId))];
    const have = new Map<string, { id: number | null; target_ord: number | null; entity_ord: number | null }>();
    const k = (entityId: number, documentId: string, locale: string | null) =>
      `${entityId}\u0000${documentId}\u0000${locale ?? ''}`;
    for (let i = 0; i < entityIds.length; i += 500) {
      const rows = await shaped<LinkRow>(this.db)
        .selectFrom(link.table)
        .select(['id', 'entity_id', 'target_document_id', 'target_locale', 'target_ord', 'entity_ord'])
        .where('entity_id', 'in', entityIds.slice(i, i + 500))
        .execute();
      for (const row of rows) have.set(k(row.entity_id, row.target_document_id, row.target_locale), row);
    }
    const rows: Omit<LinkRow, 'id'>[] = [];
    for (const l of links) {
      const key = k(l.entityId, l.documentId, l.locale);
      const existing = have.get(key);
      if (!existing) {
        const row = {
          entity_id: l.entityId,
          target_document_id: l.documentId,
          target_locale: l.locale,
          target_ord: l.targetOrd,
          entity_ord: l.entityOrd,
        };
        have.set(key, { id: null, target_ord: l.targetOrd, entity_ord: l.entityOrd });
        rows.push(row);
        continue;
      }
      const fill: Record<string, number> = {};
      if (existing.target_ord === null && l.targetOrd !== null) fill.target_ord = existing.target_ord = l.targetOrd;
      if (existing.entity_ord === null && l.entityOrd !== null) fill.entity_ord = existing.entity_ord = l.entityOrd;
      if (Object.keys(fill).length === 0) continue;
      if (existing.id !== null) await this.db.updateTable(link.table).set(fill).where('id', '=', existing.id).execute();
      else {
        const pending = rows.find(
          (r) => r.entity_id === l.entityId && r.target_document_id === l.documentId && r.target_locale === l.locale,
        );
        if (pending) Object.assign(pending, fill);
      }
    }
    await insertMany(this.db, link.table, rows);
  }

  /** Adds media links (a file already linked at that place is left as it is). */
  async mediaLinks(links: MediaLinkInput[]): Promise<void> {
    if (links.length === 0) return;
    const have = new Set<string>();
    const k = (l: { fileId: number; relatedId: number; relatedType: string; field: string }) =>
      `${l.fileId}\u0000${l.relatedId}\u0000${l.relatedType}\u0000${l.field}`;
    const relatedIds = [...new Set(links.map((l) => l.relatedId))];
    for (let i = 0; i < relatedIds.length; i += 500) {
      const rows = await shaped<MediaLinkRow>(this.db)
        .selectFrom(MEDIA_LINK_TABLE)
        .select(['file_id', 'related_id', 'related_type', 'field'])
        .where('related_id', 'in', relatedIds.slice(i, i + 500))
        .execute();
      for (const row of rows)
        have.add(
          k({ fileId: row.file_id, relatedId: row.related_id, relatedType: row.related_type, field: row.field }),
        );
    }
    const rows: Omit<MediaLinkRow, 'id'>[] = [];
    for (const l of links) {
      if (have.has(k(l))) continue;
      have.add(k(l));
      rows.push({
        file_id: l.fileId,
        related_id: l.relatedId,
        related_type: l.relatedType,
        field: l.field,
        ord: l.ord,
      });
    }
    await insertMany(this.db, MEDIA_LINK_TABLE, rows);
  }
}

/** A row as the reader answers it: system values, then the stored values by attribute name. */
export interface DumpedRow {
  id: number;
  documentId: string;
  locale: string | null;
  publishedAt: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  values: Record<string, unknown>;
}

/** A component row read below its owner, with the owner it belongs to (for the links read after). */
export interface DumpedComponent {
  uid: string;
  id: number;
}

/** Reads versions with every stored value (password hashes and private attributes included). */
export class RawReader {
  constructor(private readonly ctx: DocumentContext) {}

  private get db(): Db {
    return this.ctx.database.db;
  }

  private decode(attribute: ScalarAttribute, value: unknown): unknown {
    const { dialect } = this.ctx.database;
    const decoded = dialect.decode(columnTypeOf(attribute.type), value);
    if (attribute.type === 'timestamp' && decoded !== null) return new Date(String(decoded)).toISOString();
    return decoded;
  }

  private values(model: Model, row: Record<string, unknown>): Record<string, unknown> {
    const values: Record<string, unknown> = {};
    for (const attribute of model.scalars) values[attribute.name] = this.decode(attribute, row[attribute.column]);
    return values;
  }

  /** A page of a type's versions, by id after `afterId`. */
  async versions(type: ContentType, afterId: number, limit: number): Promise<DumpedRow[]> {
    const { dialect } = this.ctx.database;
    const rows = await this.db
      .selectFrom(type.table)
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: Number(row.id),
      documentId: row.document_id as string,
      locale: type.localized ? ((row.locale as string | null) ?? null) : null,
      publishedAt: dialect.decode('datetime', row.published_at) as string | null,
      createdAt: dialect.decode('datetime', row.created_at) as string | null,
      updatedAt: dialect.decode('datetime', row.updated_at) as string | null,
      values: this.values(type, row),
    }));
  }

  /**
   * The components and zones of rows, nested in archive shape, by owner row id; `found` receives
   * every component row read (their relations and media are links of their own).
   */
  async components(
    model: Model,
    rowIds: number[],
    found: (component: DumpedComponent) => void,
  ): Promise<Map<number, Record<string, unknown>>> {
    const result = new Map<number, Record<string, unknown>>();
    const fields = Object.values(model.attributes).filter((a) => a.kind === 'component' || a.kind === 'dynamiczone');
    if (rowIds.length === 0 || fields.length === 0) return result;
    const links: Selectable<ComponentLinkRow>[] = [];
    for (let i = 0; i < rowIds.length; i += 500) {
      links.push(
        ...(await shaped<ComponentLinkRow>(this.db)
          .selectFrom(model.componentLinkTable)
          .selectAll()
          .where('entity_id', 'in', rowIds.slice(i, i + 500))
          .orderBy('entity_id')
          .orderBy('field')
          .orderBy('ord')
          .orderBy('id')
          .execute()),
      );
    }
    const byType = new Map<string, number[]>();
    for (const link of links)
      byType.set(link.component_type, [...(byType.get(link.component_type) ?? []), link.cmp_id]);
    const items = new Map<string, Record<string, unknown>>();
    for (const [uid, ids] of byType) {
      const component = this.ctx.schema.components.get(uid);
      if (!component) continue;
      const below = new Map<number, Record<string, unknown>>();
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const rows = await this.db.selectFrom(component.table).selectAll().where('id', 'in', chunk).execute();
        for (const [id, nested] of await this.components(component, chunk, found)) below.set(id, nested);
        for (const row of rows) {
          const id = Number(row.id);
          found({ uid, id });
          items.set(`${uid}\u0000${id}`, { id, ...this.values(component, row), ...below.get(id) });
        }
      }
    }
    for (const owner of rowIds) result.set(owner, {});
    for (const link of links) {
      const attribute = model.attributes[link.field];
      const item = items.get(`${link.component_type}\u0000${link.cmp_id}`);
      if (!attribute || !item) continue;
      const values = result.get(link.entity_id)!;
      if (attribute.kind === 'dynamiczone')
        ((values[link.field] ??= []) as unknown[]).push({ ...item, __component: link.component_type });
      else if (attribute.kind === 'component' && attribute.repeatable)
        ((values[link.field] ??= []) as unknown[]).push(item);
      else values[link.field] = item;
    }
    for (const values of result.values()) {
      for (const attribute of fields) {
        if (values[attribute.name] !== undefined) continue;
        values[attribute.name] =
          attribute.kind === 'dynamiczone' || (attribute.kind === 'component' && attribute.repeatable) ? [] : null;
      }
    }
    return result;
  }

  /** The links rows own through one relation attribute's link table. */
  async relationLinks(link: LinkTable, entityIds: number[]): Promise<Selectable<LinkRow>[]> {
    const rows: Selectable<LinkRow>[] = [];
    for (let i = 0; i < entityIds.length; i += 500) {
      rows.push(
        ...(await shaped<LinkRow>(this.db)
          .selectFrom(link.table)
          .selectAll()
          .where('entity_id', 'in', entityIds.slice(i, i + 500))
          .orderBy('entity_id')
          .orderBy('target_ord')
          .orderBy('id')
          .execute()),
      );
    }
    return rows;
  }

  /** The media links of rows of one model. */
  async mediaLinks(model: Model, rowIds: number[]): Promise<Selectable<MediaLinkRow>[]> {
    const rows: Selectable<MediaLinkRow>[] = [];
    for (let i = 0; i < rowIds.length; i += 500) {
      rows.push(
        ...(await shaped<MediaLinkRow>(this.db)
          .selectFrom(MEDIA_LINK_TABLE)
          .selectAll()
          .where('related_type', '=', model.uid)
          .where('related_id', 'in', rowIds.slice(i, i + 500))
          .orderBy('related_id')
          .orderBy('field')
          .orderBy('ord')
          .orderBy('id')
          .execute()),
      );
    }
    return rows;
  }

  /** The rows (id, documentId, locale, published or not) of documents, to resolve link targets. */
  async versionKeys(
    type: ContentType,
    documentIds: string[],
  ): Promise<{ id: number; documentId: string; locale: string | null; published: boolean }[]> {
    const result: { id: number; documentId: string; locale: string | null; published: boolean }[] = [];
    const unique = [...new Set(documentIds)];
    for (let i = 0; i < unique.length; i += 500) {
      const rows = await this.db
        .selectFrom(type.table)
        .select(['id', 'document_id', 'locale', 'published_at'])
        .where('document_id', 'in', unique.slice(i, i + 500))
        .execute();
      for (const row of rows)
        result.push({
          id: Number(row.id),
          documentId: row.document_id as string,
          locale: type.localized ? (row.locale as string | null) : null,
          published: row.published_at !== null,
        });
    }
    return result;
  }
}

/** Raw access to a node's rows: the transfer layer's way in. */
export class RawRows {
  readonly reader: RawReader;

  constructor(private readonly ctx: DocumentContext) {
    this.reader = new RawReader(ctx);
  }

  /** Runs `fn` as one write transaction (Database.write: retried on conflict, errors translated). */
  write<T>(fn: (writer: RawWriter) => Promise<T>): Promise<T> {
    return this.ctx.database.write((trx) => fn(new RawWriter(this.ctx, trx)));
  }
}
