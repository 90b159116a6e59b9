/**
 * The history log the document service records through (core/documents/history-port.ts): one
 * INSERT per write, on the write's own transaction, so a version is committed with its write or
 * not at all.
 */
import type { Db } from '../../core/database/dialect.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import type { HistoryChange, HistoryLog } from '../../core/documents/service.js';
import { HISTORY_TABLE } from './tables.js';

/** JSON text of a change's data; big integers as text (as the content API writes them). */
const encodeData = (data: unknown): string =>
  JSON.stringify(data, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

export class HistoryStore implements HistoryLog {
  constructor(private readonly now: () => number = Date.now) {}

  async record(db: Db, change: HistoryChange): Promise<void> {
    const trx: SystemDb = db;
    await trx
      .insertInto(HISTORY_TABLE)
      .values({
        content_type: change.contentType,
        related_document_id: change.documentId,
        locale: change.locale,
        status: change.status,
        kind: change.kind,
        data: encodeData({ v: change.values, r: change.relations }),
        created_at: this.now(),
        created_by_id: change.actor,
      })
      .execute();
  }
}
