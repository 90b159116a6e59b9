/**
 * Query-builder types for the tables whose shape is fixed. Content-type tables are generated from
 * the schema at run time and queried through the untyped `Db`; these are not: Vellum's own meta
 * table, the media links, the system tables of the layers above (features/users-permissions/model.ts adds its tables to
 * `SystemTables` below), and the tables whose name depends on the schema but whose columns do not
 * (relation link tables, component link tables; the users and roles tables for the columns Vellum
 * reads). Their rows are typed, so the code reading them needs no casts.
 *
 * Every handle here is the same connection or transaction as the `Db` it is made from: the types
 * change, the statements do not.
 */
import { sql, type Generated, type Kysely, type RawBuilder } from 'kysely';
import type { Db } from './dialect.js';

/** A row id: generated on insert; a number on every dialect when read. */
export type RowId = Generated<number>;

/**
 * A column whose driver value differs per dialect (a datetime: text, Date; a boolean: 0/1, true):
 * written as `Dialect.encode` makes it, read through `Dialect.decode`.
 */
export type Encoded = unknown;

/** `vellum_meta`: settings and schema snapshots, by name. */
export interface MetaRow {
  id: RowId;
  name: string;
  value: string | null;
}

/** `files_related_mph`: a media attribute's file, on any model's row. */
export interface MediaLinkRow {
  id: RowId;
  file_id: number;
  related_id: number;
  /** The owning model's uid. */
  related_type: string;
  field: string;
  ord: number | null;
}

/** `<table>_<attribute>_lnk`: an owner row linked to a target document (and locale), ordered on both sides. */
export interface LinkRow {
  id: RowId;
  entity_id: number;
  target_document_id: string;
  target_locale: string | null;
  target_ord: number | null;
  entity_ord: number | null;
}

/** `<table>_cmps`: an owner row's component (its row in the component's table), by field and order. */
export interface ComponentLinkRow {
  id: RowId;
  entity_id: number;
  cmp_id: number;
  component_type: string;
  field: string;
  ord: number | null;
}

/**
 * The fixed-name tables, by name. A layer above that adds system tables (through the `systemTables`
 * given to schema synchronisation) declares their rows here by declaration merging, beside their
 * `TableSpec`: `declare module '../database/system-tables.js' { interface SystemTables { ... } }`.
 */
export interface SystemTables {
  /** META_TABLE (a query on the constant checks the name). */
  vellum_meta: MetaRow;
  /** MEDIA_LINK_TABLE */
  files_related_mph: MediaLinkRow;
}

export type SystemDb = Kysely<SystemTables>;

const BACKGROUND_MARK = '/* vellum:background */';

/**
 * Appended to the statements of a node's own background work (webhook delivery, cron leases,
 * scheduled actions: `query.modifyEnd(BACKGROUND)`): they are not counted in `statementCount` nor
 * shown to observers, which measure what requests cost.
 */
export const BACKGROUND: RawBuilder<unknown> = sql.raw(BACKGROUND_MARK);

export const isBackground = (text: string): boolean => text.endsWith(BACKGROUND_MARK);

/**
 * Typed queries on a table of a fixed shape whose name is decided at run time: every table name
 * reads as `Row`, so query that one table with it (`shaped<LinkRow>(db).selectFrom(link.table)`);
 * a join to tables of other shapes takes `table` below.
 */
export const shaped = <Row extends object>(db: Db): Kysely<Record<string, Row>> => db;

/**
 * A table of a fixed shape named at run time, as a `from` or `join` item typed as `Row`:
 * `db.selectFrom(table<UserRow>(type.table).as('u'))` reads `from "up_users" as "u"`.
 */
export const table = <Row extends object>(name: string): RawBuilder<Row> => sql<Row>`${sql.table(name)}`;
