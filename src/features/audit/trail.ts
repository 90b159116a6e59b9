/**
 * The trail the document service and the admin routes record through (core/documents/audit-port.ts):
 * one row per change, inserted on the change's own transaction. Who is read there too, from the
 * administrators' table (`identify`, which the application gives: users-permissions owns that
 * table), so the row keeps their email and name as they were when the change was made.
 */
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import type { Audited, AuditEntry, AuditTrail } from '../../core/documents/service.js';
import { AUDIT_TABLE } from './tables.js';

/** An administrator as an entry names them: their email and display name (Strapi's: username, first and last name, or email). */
export interface ActorIdentity {
  email: string | null;
  name: string | null;
}

/** Reads an administrator's identity on `db` (the change's transaction); undefined for an unknown id. */
export type IdentifyActor = (db: Db, id: number) => Promise<ActorIdentity | undefined>;

/** A text column holds at most this many characters (a `string` column: varchar(255) on MySQL). */
const TEXT_LIMIT = 255;
const clip = (value: string | null | undefined): string | null =>
  value === undefined || value === null ? null : value.slice(0, TEXT_LIMIT);

export class AuditLog implements AuditTrail {
  constructor(
    private readonly database: Database,
    private readonly identify: IdentifyActor,
  ) {}

  async record(db: Db, entry: AuditEntry): Promise<void> {
    const who = entry.actor === null ? undefined : await this.identify(db, entry.actor);
    const trx: SystemDb = db;
    await trx
      .insertInto(AUDIT_TABLE)
      .values({
        created_at: Date.now(),
        action: clip(entry.action)!,
        actor_id: entry.actor,
        actor_email: clip(who?.email),
        actor_name: clip(who?.name),
        content_type: clip(entry.contentType),
        document_id: clip(entry.documentId),
        locale: clip(entry.locale),
        subject: clip(entry.subject),
        changed: entry.changed ? JSON.stringify(entry.changed) : null,
        details: entry.details && Object.keys(entry.details).length ? JSON.stringify(entry.details) : null,
      })
      .execute();
  }

  /** `actor`'s changes, recorded here: what a service's method takes to record in its transaction. */
  as(actor: number): Audited {
    return { trail: this, actor };
  }

  /** Records an entry in a transaction of its own: an action that writes nothing else (a login, a logout). */
  async recordAlone(entry: AuditEntry): Promise<void> {
    await this.database.write((trx) => this.record(trx, entry));
  }
}
