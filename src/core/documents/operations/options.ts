import type { Status } from '../../query/types.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentAudit } from '../audit.js';
import type { DocumentHistory } from '../history.js';
import type { WriteEvents } from '../outbox.js';
import type { RowEvents } from '../row-events.js';

/** The version a write targets: resolved status and locale (null for types without i18n). */
export interface WriteOptions {
  status: Status;
  locale: string | null;
  /** Lifecycle events of the rows written, when a subscriber covers the type. */
  events?: RowEvents;
  /** The webhook events of the write, when an outbox is configured (outbox.ts). */
  outbox?: WriteEvents;
  /** A create's documentId, chosen beforehand (its lifecycle events name it before the write). */
  documentId?: string;
  /** Which types the body's relations may name (CallerOptions.canLink); every type without it. */
  canLink?: (type: ContentType) => boolean;
  /** The administrator writing (CallerOptions.actor): recorded in the creator fields. */
  actor?: number;
  /** The audit entries of the write, when an administrator writes and a trail is configured (audit.ts). */
  audit?: DocumentAudit;
  /** The history version the write records, when a history log is configured (history.ts). */
  history?: DocumentHistory;
}

/** The creator fields a write sets: both on a new row, `updatedBy` on an edit; none without an actor. */
export function creatorColumns(actor: number | undefined, created: boolean): Record<string, number> {
  if (actor === undefined) return {};
  return created ? { created_by_id: actor, updated_by_id: actor } : { updated_by_id: actor };
}
