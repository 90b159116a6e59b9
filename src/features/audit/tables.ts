/**
 * The audit log's table: one row per recorded change, written in the change's transaction. Who is
 * kept as they were (the administrator's id, email and name when the change was made), so a later
 * rename or deletion of the account leaves the history as it was. The time is milliseconds since
 * 1970 in a bigint column (the same arithmetic and order on every dialect).
 *
 * The indexes are what the list's filters and order use: the time alone (no filter, a date range),
 * and the time behind each filter that narrows by equality (action, administrator, content-type),
 * each ending with the id, so a page is found by walking one index in order, however many rows.
 */
import type { Encoded, RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import { indexName } from '../../core/schema/naming.js';

export const AUDIT_TABLE = 'vellum_audit_logs';

const indexOn = (columns: string[]) => ({ name: indexName(AUDIT_TABLE, columns), columns });

export const auditTables: TableSpec[] = [
  {
    name: AUDIT_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'created_at', type: 'bigint', notNull: true },
      { name: 'action', type: 'string', notNull: true },
      // The administrator (admin_users id), null for Vellum itself; their email and name as they were.
      { name: 'actor_id', type: 'integer' },
      { name: 'actor_email', type: 'string' },
      { name: 'actor_name', type: 'string' },
      { name: 'content_type', type: 'string' },
      { name: 'document_id', type: 'string' },
      { name: 'locale', type: 'string' },
      { name: 'subject', type: 'string' },
      // JSON texts: the changed fields' names, and a few facts without secrets.
      { name: 'changed', type: 'text' },
      { name: 'details', type: 'text' },
    ],
    indexes: [
      indexOn(['created_at', 'id']),
      indexOn(['action', 'created_at', 'id']),
      indexOn(['actor_id', 'created_at', 'id']),
      indexOn(['content_type', 'created_at', 'id']),
    ],
  },
];

export interface AuditRow {
  id: RowId;
  created_at: number | string;
  action: string;
  actor_id: number | null;
  actor_email: string | null;
  actor_name: string | null;
  content_type: string | null;
  document_id: string | null;
  locale: string | null;
  subject: string | null;
  changed: Encoded;
  details: Encoded;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    vellum_audit_logs: AuditRow;
  }
}
