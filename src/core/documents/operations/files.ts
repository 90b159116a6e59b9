/**
 * The media library's rows (`plugin::upload.file` in `files`) beyond plain create/update/find:
 * addressing a file by its numeric id, linking an uploaded file to a document or component
 * (`ref`/`refId`/`field`), and deleting a file with every link to it.
 */
import { lockRows } from '../../database/locks.js';
import { shaped, type ComponentLinkRow } from '../../database/system-tables.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Component, ContentType, MediaAttribute, Model } from '../../schema/model.js';
import type { DocumentAudit } from '../audit.js';
import type { DocumentContext } from '../context.js';
import type { WriteEvents } from '../outbox.js';
import { FILES_TABLE, MediaLinks, isAllowedType } from '../write/media.js';

export interface StoredFileRow {
  id: number;
  documentId: string;
  hash: string;
  ext: string | null;
  mime: string;
  formats: unknown;
  provider: string;
  url: string;
  provider_metadata: unknown;
}

/** The row of a file by numeric id (what storage needs to delete it), or null. */
export async function findFileRow(ctx: DocumentContext, id: number): Promise<StoredFileRow | null> {
  const row = await ctx.database.db
    .selectFrom(FILES_TABLE)
    .select(['id', 'document_id', 'hash', 'ext', 'mime', 'formats', 'provider', 'url', 'provider_metadata'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return null;
  const dialect = ctx.database.dialect;
  return {
    id: Number(row.id),
    documentId: String(row.document_id),
    hash: String(row.hash),
    ext: row.ext === null ? null : String(row.ext),
    mime: String(row.mime),
    formats: dialect.decode('json', row.formats),
    provider: String(row.provider),
    url: String(row.url),
    provider_metadata: dialect.decode('json', row.provider_metadata),
  };
}

/** Where an upload is to be linked: `ref` (content-type or component uid), `refId`, `field`. */
export interface LinkRequest {
  ref: string;
  refId: string;
  field: string;
}

export interface LinkTarget {
  model: Model;
  attribute: MediaAttribute;
  rowIds: number[];
  /** The content-type of the document linked into: `model`, or the one a component row belongs to. */
  owner: ContentType;
}

/**
 * Whether the uploader may link into documents of a content-type: it rejects (a 403) when not. It
 * is asked before the document is looked for, so that a refusal tells nothing of which exist.
 */
export type LinkPermission = (type: ContentType) => Promise<void>;

const invalid = (key: string, message: string, value: unknown) =>
  ValidationError.fromFieldErrors([{ path: [key], message, name: 'ValidationError', value }]);

/**
 * Checks a link request before anything is stored. A content-type's `refId` is a documentId (every
 * version is linked) or a numeric row id; a component's is its row id, and `mayLink` is asked for
 * the content-type of the document it belongs to.
 */
export async function resolveLinkTarget(
  ctx: DocumentContext,
  request: LinkRequest,
  mayLink: LinkPermission,
): Promise<LinkTarget> {
  const model: Model | undefined = ctx.schema.contentTypes.get(request.ref) ?? ctx.schema.components.get(request.ref);
  if (!model || (model.modelType === 'contentType' && model.builtIn))
    throw invalid('ref', `Unknown ref ${JSON.stringify(request.ref)}`, request.ref);
  const attribute = model.attributes[request.field];
  if (!attribute || attribute.kind !== 'media') {
    throw invalid('field', `${request.ref} has no media attribute ${JSON.stringify(request.field)}`, request.field);
  }
  if (model.modelType === 'contentType') await mayLink(model);
  const db = ctx.database.db;
  const numeric = /^\d+$/.test(request.refId);
  let query = db.selectFrom(model.table).select('id');
  if (model.modelType === 'contentType' && !numeric) query = query.where('document_id', '=', request.refId);
  else if (numeric) query = query.where('id', '=', Number(request.refId));
  else throw invalid('refId', `refId of a component is its numeric id`, request.refId);
  const rows = await query.execute();
  const notFound = () => new NotFoundError(`No ${request.ref} with id ${request.refId}`);
  if (rows.length === 0) throw notFound();
  const rowIds = rows.map((row) => Number(row.id));
  if (model.modelType === 'contentType') return { model, attribute, rowIds, owner: model };
  const owner = await componentOwner(ctx, model, rowIds[0]!);
  if (!owner) throw notFound();
  await mayLink(owner);
  return { model, attribute, rowIds, owner };
}

/** The content-type of the document a component row belongs to (through nested components), or null. */
async function componentOwner(ctx: DocumentContext, component: Component, rowId: number): Promise<ContentType | null> {
  const { schema } = ctx;
  const holds = (model: Model) =>
    Object.values(model.attributes).some(
      (a) =>
        (a.kind === 'component' && a.component === component.uid) ||
        (a.kind === 'dynamiczone' && a.components.includes(component.uid)),
    );
  for (const model of [...schema.contentTypes.values(), ...schema.components.values()]) {
    if (!holds(model)) continue;
    const link = await shaped<ComponentLinkRow>(ctx.database.db)
      .selectFrom(model.componentLinkTable)
      .select('entity_id')
      .where('cmp_id', '=', rowId)
      .where('component_type', '=', component.uid)
      .executeTakeFirst();
    if (!link) continue;
    return model.modelType === 'contentType' ? model : componentOwner(ctx, model, Number(link.entity_id));
  }
  return null;
}

/** Refuses, before anything is stored, a file its target attribute's `allowedTypes` do not accept. */
export function assertLinkable(target: LinkTarget, fileName: string, mime: string): void {
  const { attribute } = target;
  if (isAllowedType(attribute, mime)) return;
  throw ValidationError.fromFieldErrors([
    {
      path: ['field'],
      message: `${attribute.name} accepts ${attribute.allowedTypes!.join(', ')}; ${fileName} is ${mime}`,
      name: 'ValidationError',
      value: fileName,
    },
  ]);
}

export async function linkFiles(ctx: DocumentContext, target: LinkTarget, fileIds: number[]): Promise<void> {
  await ctx.database.write(async (trx) => {
    // The rows' document may be published meanwhile (its media links copied): wait for it.
    await lockRows(trx, ctx.database.dialect, target.model.table, target.rowIds);
    const links = new MediaLinks(trx);
    for (const fileId of fileIds) await links.attach(target.model, target.rowIds, target.attribute, fileId);
  });
}

/** Deletes a file's row and unlinks it from every document and component, in one transaction. */
export async function deleteFileRow(
  ctx: DocumentContext,
  id: number,
  outbox?: WriteEvents,
  audit?: DocumentAudit,
): Promise<void> {
  await ctx.database.write(async (trx) => {
    await outbox?.removing(trx, 'delete', [id]);
    if (audit) {
      const row = await trx.selectFrom(FILES_TABLE).select('document_id').where('id', '=', id).executeTakeFirst();
      if (row) await audit.deleted(trx, String(row.document_id), [{ locale: null }]);
    }
    await new MediaLinks(trx).detachFile(id);
    await trx.deleteFrom(FILES_TABLE).where('id', '=', id).execute();
  });
}
