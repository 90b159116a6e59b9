/**
 * The history log the document service records through (core/documents/history-port.ts): one
 * INSERT per write, on the write's own transaction, so a version is committed with its write or
 * not at all.
 */
import type { Db } from '../../core/database/dialect.js';
import { runShape, shapeKey } from '../../core/database/shapes.js';
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
    // One statement of one shape on every write: compiled once (core/database/shapes.ts).
    await runShape(
      db,
      shapeKey('history version'),
      [
        change.contentType,
        change.documentId,
        change.locale,
        change.status,
        change.kind,
        encodeData({ v: change.values, r: change.relations }),
        this.now(),
        change.actor,
      ],
      ([contentType, documentId, locale, status, kind, data, createdAt, actor]) =>
        trx.insertInto(HISTORY_TABLE).values({
          content_type: contentType as string,
          related_document_id: documentId as string,
          locale: locale as string | null,
          status: status as string,
          kind: kind as string,
          data: data as string,
          created_at: createdAt as number,
          created_by_id: actor as number | null,
        }),
    );
  }
}
