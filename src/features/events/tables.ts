/**
 * The tables of webhooks, their outbox and delivery log, cron leases and scheduled actions. The
 * webhooks table is Strapi's own (`strapi_webhooks`, its columns; Vellum adds `secret`), so a
 * database Strapi wrote keeps its webhooks. Times Vellum computes with (due, lease) are
 * milliseconds since 1970 in bigint columns: the same arithmetic on every dialect.
 */
import type { Encoded, RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import { indexName } from '../../core/schema/naming.js';

export const WEBHOOKS_TABLE = 'strapi_webhooks';
export const EVENTS_TABLE = 'vellum_webhook_events';
export const DELIVERIES_TABLE = 'vellum_webhook_deliveries';
export const CRON_TABLE = 'vellum_cron_leases';
export const SCHEDULES_TABLE = 'vellum_scheduled_actions';

const id = { name: 'id', type: 'id' } as const;

export const eventTables: TableSpec[] = [
  {
    name: WEBHOOKS_TABLE,
    columns: [
      id,
      { name: 'name', type: 'string' },
      { name: 'url', type: 'text' },
      { name: 'headers', type: 'json' },
      { name: 'events', type: 'json' },
      { name: 'enabled', type: 'boolean' },
      // Vellum: the key of the HMAC signature header (null: unsigned, as Strapi's).
      { name: 'secret', type: 'string' },
    ],
    indexes: [],
  },
  {
    // The outbox: one row per event, written in the transaction of the write that caused it.
    name: EVENTS_TABLE,
    columns: [
      id,
      { name: 'event', type: 'string', notNull: true },
      // The body sent, as JSON text (`event`, `createdAt`, then the payload).
      { name: 'body', type: 'text', notNull: true },
      { name: 'created_at', type: 'bigint', notNull: true },
    ],
    indexes: [],
  },
  {
    // One row per event and webhook: the delivery queue and its log.
    name: DELIVERIES_TABLE,
    columns: [
      id,
      { name: 'event_id', type: 'integer', notNull: true },
      { name: 'webhook_id', type: 'integer', notNull: true },
      // Deliveries of one key (a document, a file) to one webhook go out in id order.
      { name: 'ordering', type: 'string', notNull: true },
      // pending, sending, delivered, failed, cancelled
      { name: 'state', type: 'string', notNull: true },
      { name: 'attempts', type: 'integer', notNull: true },
      // pending: when to try; sending: when the claim lapses (the node died: another may send it).
      { name: 'next_at', type: 'bigint', notNull: true },
      { name: 'status_code', type: 'integer' },
      { name: 'last_error', type: 'text' },
      { name: 'duration', type: 'integer' },
      { name: 'created_at', type: 'bigint', notNull: true },
      { name: 'last_attempt_at', type: 'bigint' },
    ],
    indexes: [
      { name: indexName(DELIVERIES_TABLE, ['state', 'next_at']), columns: ['state', 'next_at'] },
      {
        name: indexName(DELIVERIES_TABLE, ['webhook_id', 'ordering', 'id']),
        columns: ['webhook_id', 'ordering', 'id'],
      },
      { name: indexName(DELIVERIES_TABLE, ['event_id']), columns: ['event_id'] },
    ],
  },
  {
    // One row per cron job: the next tick it may run. A node runs a tick after moving it past that tick.
    name: CRON_TABLE,
    columns: [
      id,
      { name: 'name', type: 'string', notNull: true },
      { name: 'next_at', type: 'bigint', notNull: true },
      { name: 'last_run_at', type: 'bigint' },
    ],
    indexes: [{ name: indexName(CRON_TABLE, ['name']), columns: ['name'], unique: true }],
  },
  {
    name: SCHEDULES_TABLE,
    columns: [
      id,
      // publish, unpublish
      { name: 'action', type: 'string', notNull: true },
      { name: 'uid', type: 'string', notNull: true },
      { name: 'document_id', type: 'string', notNull: true },
      { name: 'locale', type: 'string' },
      { name: 'scheduled_at', type: 'bigint', notNull: true },
      // pending, running, done, failed, cancelled
      { name: 'state', type: 'string', notNull: true },
      // pending: scheduled_at; running: when the claim lapses.
      { name: 'next_at', type: 'bigint', notNull: true },
      { name: 'attempts', type: 'integer', notNull: true },
      { name: 'last_error', type: 'text' },
      { name: 'created_at', type: 'bigint', notNull: true },
      { name: 'done_at', type: 'bigint' },
    ],
    indexes: [
      { name: indexName(SCHEDULES_TABLE, ['state', 'next_at']), columns: ['state', 'next_at'] },
      { name: indexName(SCHEDULES_TABLE, ['uid', 'document_id']), columns: ['uid', 'document_id'] },
    ],
  },
];

export interface WebhookRow {
  id: RowId;
  name: string | null;
  url: string | null;
  headers: Encoded;
  events: Encoded;
  enabled: Encoded;
  secret: string | null;
}

export interface EventRow {
  id: RowId;
  event: string;
  body: string;
  created_at: number | string;
}

export type DeliveryState = 'pending' | 'sending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveryRow {
  id: RowId;
  event_id: number;
  webhook_id: number;
  ordering: string;
  state: DeliveryState;
  attempts: number;
  next_at: number | string;
  status_code: number | null;
  last_error: string | null;
  duration: number | null;
  created_at: number | string;
  last_attempt_at: number | string | null;
}

export interface CronLeaseRow {
  id: RowId;
  name: string;
  next_at: number | string;
  last_run_at: number | string | null;
}

export type ScheduleState = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

export interface ScheduleRow {
  id: RowId;
  action: 'publish' | 'unpublish';
  uid: string;
  document_id: string;
  locale: string | null;
  scheduled_at: number | string;
  state: ScheduleState;
  next_at: number | string;
  attempts: number;
  last_error: string | null;
  created_at: number | string;
  done_at: number | string | null;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    strapi_webhooks: WebhookRow;
    vellum_webhook_events: EventRow;
    vellum_webhook_deliveries: DeliveryRow;
    vellum_cron_leases: CronLeaseRow;
    vellum_scheduled_actions: ScheduleRow;
  }
}

/** A bigint column read back (PostgreSQL answers text): a number, or null. */
const millis = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined ? null : Number(value);

/** A time column as the API shows it: ISO text, or null. */
export const isoTime = (value: number | string | null | undefined): string | null => {
  const ms = millis(value);
  return ms === null ? null : new Date(ms).toISOString();
};
