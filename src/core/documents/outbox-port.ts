/**
 * The outbox as the document service sees it: the events a write records and the store it records
 * them in, which the events feature (webhooks) implements. Apart from outbox.ts, which builds the
 * payloads, so that the document context can name it without importing the reads behind them.
 */
import type { Db } from '../database/dialect.js';

export const WEBHOOK_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
  'media.create',
  'media.update',
  'media.delete',
  // A release's publication (features/releases/), in the transaction that publishes its entries.
  'releases.publish',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** An event to deliver: its name, the payload's keys besides `event` and `createdAt`, and its ordering key. */
export interface RecordedEvent {
  event: WebhookEvent;
  /** Events of one key are delivered in the order they were recorded (a document's, a file's). */
  key: string;
  /** `{ model, uid, entry }` or `{ media }`. */
  info: Record<string, unknown>;
  createdAt: Date;
}

/** Which events some enabled webhook listens to, as the write's transaction reads them. */
export interface Subscribers {
  has(event: WebhookEvent): boolean;
}

/** Where writes record their events: implemented by features/events/ (webhooks), called inside write transactions. */
export interface Outbox {
  /** The enabled webhooks' events, read on the write's transaction. */
  subscribers(db: Db): Promise<Subscribers>;
  /** Records one event for every webhook in `subscribers` that listens to it, on the write's transaction. */
  record(db: Db, subscribers: Subscribers, event: RecordedEvent): Promise<void>;
  /** Called once a write that recorded events has committed (delivery may start at once). */
  committed(): void;
}
