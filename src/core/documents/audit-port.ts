/**
 * The audit trail as the document service and the features see it: what an administrator's change
 * records, and where (features/audit/ implements it). A change records its entry on its own
 * transaction, so an entry is committed with the change it describes or not at all. Apart from
 * audit.ts, which reads the rows a document write changes, so that the document context and the
 * features' services can name it without importing those reads.
 */
import type { Db } from '../database/dialect.js';

/** One change, as the trail records it: who, what, and which fields (names only, never values). */
export interface AuditEntry {
  /** Strapi's action names where it has one (`entry.update`, `role.create`, `admin.auth.success`, ...). */
  action: string;
  /** The administrator (their `admin_users` id); null for Vellum itself (a command, an import). */
  actor: number | null;
  /** The content-type of a document's change (its uid). */
  contentType?: string;
  documentId?: string;
  locale?: string | null;
  /** What else the change is about: an API token's, role's or webhook's id, a setting's name. */
  subject?: string;
  /** The names of the attributes or fields whose values changed (never the values). */
  changed?: string[];
  /** A few facts without secrets (a token's name and type, the actions granted). */
  details?: Record<string, unknown>;
}

/** Where changes are recorded: called inside the change's own write transaction. */
export interface AuditTrail {
  record(db: Db, entry: AuditEntry): Promise<void>;
}

/** Who makes a change and where it is recorded: what a service's method takes to record it in its transaction. */
export interface Audited {
  trail: AuditTrail;
  /** The administrator; null for Vellum's own commands (`vellum token create`, an import). */
  actor: number | null;
}

/** Records `entry` as `audited`'s actor's, on `db` (the change's transaction); nothing without `audited`. */
export async function recordAudit(
  db: Db,
  audited: Audited | undefined,
  entry: Omit<AuditEntry, 'actor'>,
): Promise<void> {
  if (audited) await audited.trail.record(db, { ...entry, actor: audited.actor });
}
