/**
 * The audit log as the admin API answers it (`GET /admin/audit-logs`, `/admin/audit-logs/:id`,
 * `/admin/audit-logs/users`): Strapi's shapes (`{ id, action, date, user, payload }`, the user
 * `{ id, email, displayName }` as they were), Vellum's fields in `payload`. The admin panel reads these types.
 */

/** The administrator of an entry, as they were when they made the change. */
export interface AuditLogUser {
  id: number;
  email: string | null;
  displayName: string | null;
}

/** What a change was about; keys without a value are left out. */
export interface AuditLogPayload {
  /** The content-type of a document's change. */
  uid?: string;
  documentId?: string;
  locale?: string;
  /** An API token's, role's or webhook's id, a setting's name. */
  subject?: string;
  /** The names of the attributes or fields whose values changed. */
  changedFields?: string[];
  /** A few facts without secrets (a token's name, the actions granted). */
  details?: Record<string, unknown>;
}

export interface AuditLogEntry {
  id: number;
  action: string;
  /** ISO 8601. */
  date: string;
  /** null: Vellum itself (a command, an import). */
  user: AuditLogUser | null;
  payload: AuditLogPayload;
}

export interface AuditLogPagination {
  pageSize: number;
  /** Offset pages (Strapi's): the page, the pages and the entries, counted up to `countCap`. */
  page?: number;
  pageCount?: number;
  total?: number;
  /** Present when `total` stopped at the cap: at least that many entries match. */
  totalCapped?: true;
  /** The `cursor` of the next page, or null on the last. */
  next: string | null;
}

export interface AuditLogPage {
  results: AuditLogEntry[];
  pagination: AuditLogPagination;
}
