/**
 * The history versions' table: one row per write of a document version (history-port.ts), inserted
 * in the write's transaction. `data` holds what the write changed (`{ v, r }`: values by attribute,
 * relation changes by attribute), never the whole document: a version is read back by folding its
 * document's rows in order (fold.ts). The time is milliseconds since 1970 in a bigint column (the
 * same arithmetic and order on every dialect).
 *
 * Indexes: a document's versions in order (the list, the fold, the per-document retention) and
 * the time (the retention by age).
 */
import type { Encoded, RowId } from '../../core/database/system-tables.js';
import type { TableSpec } from '../../core/database/tables.js';
import { indexName } from '../../core/schema/naming.js';

export const HISTORY_TABLE = 'vellum_history_versions';

const indexOn = (columns: string[]) => ({ name: indexName(HISTORY_TABLE, columns), columns });

export const historyTables: TableSpec[] = [
  {
    name: HISTORY_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'content_type', type: 'string', notNull: true },
      { name: 'related_document_id', type: 'string', notNull: true },
      { name: 'locale', type: 'string' },
      // Strapi's: draft, published, modified.
      { name: 'status', type: 'string', notNull: true },
      // What the write did (history-port.ts HistoryKind): create and full start a fold, the others continue it.
      { name: 'kind', type: 'string', notNull: true },
      { name: 'data', type: 'text', notNull: true },
      { name: 'created_at', type: 'bigint', notNull: true },
      { name: 'created_by_id', type: 'integer' },
    ],
    indexes: [indexOn(['related_document_id', 'content_type', 'locale', 'id']), indexOn(['created_at', 'id'])],
  },
];

export interface HistoryRow {
  id: RowId;
  content_type: string;
  related_document_id: string;
  locale: string | null;
  status: string;
  kind: string;
  data: Encoded;
  created_at: number | string;
  created_by_id: number | null;
}

declare module '../../core/database/system-tables.js' {
  interface SystemTables {
    vellum_history_versions: HistoryRow;
  }
}
