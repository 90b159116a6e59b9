import { sql } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';
import { MEDIA_LINK_TABLE } from '../../database/tables.js';
import { ValidationError, type FieldError } from '../../errors.js';
import type { MediaReference } from '../input.js';
import type { MediaAttribute, Model } from '../../schema/model.js';
import { insertMany } from './insert.js';

export const FILES_TABLE = 'files';

/**
 * Strapi's media categories: `images`, `videos`, `audios` by MIME family, `files` for the rest.
 * No list (or an empty one) allows everything.
 */
export function isAllowedType(attribute: MediaAttribute, mime: string): boolean {
  const allowed = attribute.allowedTypes;
  if (!allowed || allowed.length === 0) return true;
  const family = mime.split('/')[0];
  const category =
    family === 'image' ? 'images' : family === 'video' ? 'videos' : family === 'audio' ? 'audios' : 'files';
  return allowed.includes(category);
}

function allowedTypesFieldError(
  attribute: MediaAttribute,
  path: (string | number)[],
  fileId: number,
  mime: string,
): FieldError {
  return {
    path,
    message: `${attribute.name} accepts ${attribute.allowedTypes!.join(', ')}; file ${fileId} is ${mime}`,
    name: 'ValidationError',
    value: fileId,
  };
}

function allowedTypesError(
  attribute: MediaAttribute,
  path: (string | number)[],
  fileId: number,
  mime: string,
): ValidationError {
  return ValidationError.fromFieldErrors([allowedTypesFieldError(attribute, path, fileId, mime)]);
}

/** Files a body names that do not exist or that their attribute's `allowedTypes` refuse, with their paths. */
export async function checkMediaReferences(db: Db, references: MediaReference[]): Promise<FieldError[]> {
  const ids = [...new Set(references.flatMap((reference) => reference.ids))];
  if (ids.length === 0) return [];
  const found = await db.selectFrom(FILES_TABLE).select(['id', 'mime']).where('id', 'in', ids).execute();
  const mimes = new Map(found.map((row) => [Number(row.id), String(row.mime)]));
  const errors: FieldError[] = [];
  for (const { attribute, ids: named, path } of references) {
    const missing = named.filter((id) => !mimes.has(id));
    if (missing.length) {
      errors.push({
        path,
        message: `${attribute.name}: no file with id ${missing.join(', ')}`,
        name: 'ValidationError',
        value: missing,
      });
    }
    for (const id of named.filter((id) => mimes.has(id) && !isAllowedType(attribute, mimes.get(id)!))) {
      errors.push(allowedTypesFieldError(attribute, path, id, mimes.get(id)!));
    }
  }
  return errors;
}

/** Links between rows (of any content-type or component) and files, in order. */
export class MediaLinks {
  constructor(private readonly db: Db) {}

  async set(model: Model, rowId: number, attribute: MediaAttribute, fileIds: number[] | null): Promise<void> {
    const ids = fileIds ?? [];
    if (ids.length) {
      const found = await this.db.selectFrom(FILES_TABLE).select(['id', 'mime']).where('id', 'in', ids).execute();
      const mimes = new Map(found.map((row) => [Number(row.id), String(row.mime)]));
      const missing = ids.filter((id) => !mimes.has(id));
      if (missing.length) {
        throw ValidationError.fromFieldErrors([
          {
            path: [attribute.name],
            message: `${attribute.name}: no file with id ${missing.join(', ')}`,
            name: 'ValidationError',
            value: missing,
          },
        ]);
      }
      for (const id of ids) {
        if (!isAllowedType(attribute, mimes.get(id)!))
          throw allowedTypesError(attribute, [attribute.name], id, mimes.get(id)!);
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
      ids.map((fileId, index) => ({
        file_id: fileId,
        related_id: rowId,
        related_type: model.uid,
        field: attribute.name,
        ord: index + 1,
      })),
    );
  }

  /** Copies a row's media links (only those of `fields` when given) onto another row. */
  async copy(model: Model, fromId: number, toId: number, fields?: string[]): Promise<void> {
    if ((fields && fields.length === 0) || !hasMediaAttributes(model)) return;
    // Compiled once per number of fields (core/database/shapes.ts).
    await runShape(
      this.db,
      shapeKey('copy media links', fields?.length),
      [toId, fromId, model.uid, ...(fields ?? [])],
      ([to, from, uid, ...named]) => {
        let select = this.db
          .selectFrom(MEDIA_LINK_TABLE)
          .select(['file_id', sql<number>`${to}`.as('related_id'), 'related_type', 'field', 'ord'])
          .where('related_id', '=', from)
          .where('related_type', '=', uid);
        if (fields) select = select.where('field', 'in', named);
        return this.db
          .insertInto(MEDIA_LINK_TABLE)
          .columns(['file_id', 'related_id', 'related_type', 'field', 'ord'])
          .expression(select);
      },
    );
  }

  /** Appends a file to an attribute of rows (a single media attribute is replaced). */
  async attach(model: Model, rowIds: number[], attribute: MediaAttribute, fileId: number): Promise<void> {
    for (const rowId of rowIds) {
      const links = this.db
        .deleteFrom(MEDIA_LINK_TABLE)
        .where('related_id', '=', rowId)
        .where('related_type', '=', model.uid)
        .where('field', '=', attribute.name);
      let ord = 1;
      if (!attribute.multiple) await links.execute();
      else {
        await links.where('file_id', '=', fileId).execute();
        const last = await this.db
          .selectFrom(MEDIA_LINK_TABLE)
          .select((eb) => eb.fn.max('ord').as('ord'))
          .where('related_id', '=', rowId)
          .where('related_type', '=', model.uid)
          .where('field', '=', attribute.name)
          .executeTakeFirst();
        ord = Number(last?.ord ?? 0) + 1;
      }
      await insertMany(this.db, MEDIA_LINK_TABLE, [
        { file_id: fileId, related_id: rowId, related_type: model.uid, field: attribute.name, ord },
      ]);
    }
  }

  /** Removes a file from every row and attribute that links to it. */
  async detachFile(fileId: number): Promise<void> {
    await this.db.deleteFrom(MEDIA_LINK_TABLE).where('file_id', '=', fileId).execute();
  }

  /** Removes rows' media links (only those of `fields` when given). */
  async deleteFor(model: Model, rowIds: number[], fields?: string[]): Promise<void> {
    if (rowIds.length === 0 || (fields && fields.length === 0) || !hasMediaAttributes(model)) return;
    await runShape(
      this.db,
      shapeKey('delete media links', rowIds.length, fields?.length),
      [model.uid, ...rowIds, ...(fields ?? [])],
      ([uid, ...rest]) => {
        let query = this.db
          .deleteFrom(MEDIA_LINK_TABLE)
          .where('related_type', '=', uid)
          .where('related_id', 'in', rest.slice(0, rowIds.length));
        if (fields) query = query.where('field', 'in', rest.slice(rowIds.length));
        return query;
      },
    );
  }
}

/**
 * Whether a model's rows can have media links (`related_type` is the model's uid): a model without
 * media attributes has none, and publishing a document with four quote components spares eight
 * statements.
 */
export const hasMediaAttributes = (model: Model): boolean =>
  Object.values(model.attributes).some((attribute) => attribute.kind === 'media');
