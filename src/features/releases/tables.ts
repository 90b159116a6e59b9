/**
 * The tables of releases and their actions. Strapi keeps them as two content-types
 * (`strapi_releases`, `strapi_release_actions` and a link table); Vellum's are plain system tables
 * with the release's id on each action, so that a release's actions are one indexed read. Times are
 * milliseconds since 1970 in bigint columns: the same arithmetic and order on every dialect.
 */
import type { RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import { indexName } from '../../core/schema/naming.js';

export const RELEASES_TABLE = 'vellum_releases';
export const RELEASE_ACTIONS_TABLE = 'vellum_release_actions';

/** Strapi's `status` values: empty (no action), ready, blocked (an invalid entry), failed, done. */
export type ReleaseStatus = 'ready' | 'blocked' | 'failed' | 'done' | 'empty';
export type ReleaseActionType = 'publish' | 'unpublish';

const id = { name: 'id', type: 'id' } as const;

export const releaseTables: TableSpec[] = [
  {
    name: RELEASES_TABLE,
    columns: [
      id,
      { name: 'document_id', type: 'string', notNull: true },
      { name: 'name', type: 'string', notNull: true },
      { name: 'status', type: 'string', notNull: true },
      // When to publish (null: by hand) and the time zone the administrator chose it in (display only).
      { name: 'scheduled_at', type: 'bigint' },
      { name: 'timezone', type: 'string' },
      // Set by the transaction that published it: a release is published once.
      { name: 'released_at', type: 'bigint' },
      // Why the last publication failed (Vellum: Strapi keeps only the status).
      { name: 'failure', type: 'text' },
      { name: 'created_at', type: 'bigint', notNull: true },
      { name: 'updated_at', type: 'bigint', notNull: true },
      { name: 'created_by_id', type: 'integer' },
      // 'schedule': a one-entry release made by scheduled publishing (`?at=`, /admin/scheduled-actions).
      { name: 'origin', type: 'string' },
      // A scheduled publication cancelled before its time (kept for /admin/scheduled-actions' history).
      { name: 'cancelled_at', type: 'bigint' },
    ],
    indexes: [
      // The pending and done tabs, and the scheduled releases due (released_at null, scheduled_at <= now).
      { name: indexName(RELEASES_TABLE, ['released_at', 'scheduled_at']), columns: ['released_at', 'scheduled_at'] },
    ],
  },
  {
    name: RELEASE_ACTIONS_TABLE,
    columns: [
      id,
      { name: 'document_id', type: 'string', notNull: true },
      { name: 'release_id', type: 'integer', notNull: true },
      // publish, unpublish
      { name: 'type', type: 'string', notNull: true },
      { name: 'content_type', type: 'string', notNull: true },
      { name: 'entry_document_id', type: 'string' },
      { name: 'locale', type: 'string' },
      // 1: the draft passes the publish rules (or an unpublish); 0: it does not, `problem` says why.
      { name: 'is_entry_valid', type: 'integer', notNull: true },
      { name: 'problem', type: 'text' },
      // The digest of the schema that validity was checked against (schema-fingerprint.ts; null:
      // never checked, as a one-entry release's or one stored before the column existed).
      { name: 'checked_schema', type: 'string' },
      { name: 'created_at', type: 'bigint', notNull: true },
      { name: 'updated_at', type: 'bigint', notNull: true },
    ],
    indexes: [
      { name: indexName(RELEASE_ACTIONS_TABLE, ['release_id', 'id']), columns: ['release_id', 'id'] },
      // What start-up compares with the schema (schema-followed.ts): the types the actions name,
      // the schemas they were checked against and their locales, read from this index alone.
      {
        name: indexName(RELEASE_ACTIONS_TABLE, ['content_type', 'checked_schema', 'locale']),
        columns: ['content_type', 'checked_schema', 'locale'],
      },
      // The releases an entry is in (the edit view's panel, an entry's actions).
      {
        name: indexName(RELEASE_ACTIONS_TABLE, ['content_type', 'entry_document_id']),
        columns: ['content_type', 'entry_document_id'],
      },
    ],
  },
];

export interface ReleaseRow {
  id: RowId;
  document_id: string;
  name: string;
  status: ReleaseStatus;
  scheduled_at: number | string | null;
  timezone: string | null;
  released_at: number | string | null;
  failure: string | null;
  created_at: number | string;
  updated_at: number | string;
  created_by_id: number | null;
  origin: string | null;
  cancelled_at: number | string | null;
}

export interface ReleaseActionRow {
  id: RowId;
  document_id: string;
  release_id: number;
  type: ReleaseActionType;
  content_type: string;
  entry_document_id: string | null;
  locale: string | null;
  is_entry_valid: number;
  problem: string | null;
  checked_schema: string | null;
  created_at: number | string;
  updated_at: number | string;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    vellum_releases: ReleaseRow;
    vellum_release_actions: ReleaseActionRow;
  }
}

/** A bigint time column as the API shows it: ISO text, or null. */
export const isoTime = (value: number | string | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(Number(value)).toISOString();
