import { sql } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { MEDIA_LINK_TABLE } from '../../database/tables.js';
import { ValidationError } from '../../errors.js';
import type { MediaAttribute, Model } from '../../schema/model.js';
import { insertMany } from './insert.js';

export const FILES_TABLE = 'files';

/** Links between rows (of any content-type or component) and files, in order. */
export class MediaLinks {
  constructor(private readonly db: Db) {}

  async set(model: Model, rowId: number, attribute: MediaAttribute, fileIds: number[] | null): Promise<void> {
    const ids = fileIds ?? [];
    if (ids.length) {
      const found = await this.db.selectFrom(FILES_TABLE).select('id').where('id', 'in', ids).execute();
      const known = new Set(found.map((row) => Number(row.id)));
      const missing = ids.filter((id) => !known.has(id));
      if (missing.length) {
        throw ValidationError.fromFieldErrors([
          { path: [attribute.name], message: `${attribute.name}: no file with id ${missing.join(', ')}`, name: 'ValidationError', value: missing },
        ]);
      }
    }
    await this.db
      .deleteFrom(MEDIA_LINK_TABLE)
      .where('related_id', '=', rowId)
      .where('related_type', '=', model.uid)
      .where('field', '=', attribute.name)
      .execute();
    await insertMany(
      this.db,
      MEDIA_LINK_TABLE,
      ids.map((fileId, index) => ({ file_id: fileId, related_id: rowId, related_type: model.uid, field: attribute.name, ord: index + 1 })),
    );
  }

  /** Copies a row's media links (only those of `fields` when given) onto another row. */
  async copy(model: Model, fromId: number, toId: number, fields?: string[]): Promise<void> {
    if (fields && fields.length === 0) return;
    let select = this.db
      .selectFrom(MEDIA_LINK_TABLE)
      .select(['file_id', sql<number>`${toId}`.as('related_id'), 'related_type', 'field', 'ord'])
      .where('related_id', '=', fromId)
      .where('related_type', '=', model.uid);
    if (fields) select = select.where('field', 'in', fields);
    await this.db.insertInto(MEDIA_LINK_TABLE).columns(['file_id', 'related_id', 'related_type', 'field', 'ord']).expression(select).execute();
  }

  async deleteFor(model: Model, rowIds: number[]): Promise<void> {
    if (rowIds.length === 0) return;
    await this.db.deleteFrom(MEDIA_LINK_TABLE).where('related_type', '=', model.uid).where('related_id', 'in', rowIds).execute();
  }
}
