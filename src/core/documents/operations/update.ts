import { lockDocuments } from '../../database/locks.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { validateInput } from '../input.js';
import { checkMediaReferences } from '../write/media.js';
import { updateById } from '../write/statements.js';
import { encodeScalars, enforceUniqueness, hashPasswords } from '../write/scalars.js';
import { creatorColumns, type WriteOptions } from './options.js';
import { publishVersion } from './publication.js';
import {
  copySharedNested,
  sharedAttributeNames,
  sharedSourceRow,
  sharedValuesOf,
  syncSharedAttributes,
  syncSharedNested,
} from './shared-attributes.js';
import { findDocumentRows, writersFor } from './versions-store.js';

/**
 * Updates a document's draft (or its only row, without draft and publish) and publishes it unless
 * a draft was asked. Writing a locale the document does not have yet creates that locale's version.
 */
export async function update(
  ctx: DocumentContext,
  type: ContentType,
  documentId: string,
  data: Record<string, unknown>,
  options: WriteOptions,
): Promise<void> {
  const { dialect } = ctx.database;
  // bcrypt is slow: hashed before the transaction, which holds the document's locks.
  const hashed = await hashPasswords(ctx.passwords, type, data);
  // One transaction that first locks the document's rows: concurrent writes to one document queue
  // there, and each reads (which versions exist, their links) what the previous one committed.
  await ctx.database.write(async (trx) => {
    await lockDocuments(trx, dialect, type.table, [documentId]);
    const rows = await findDocumentRows(
      trx,
      type,
      documentId,
      undefined,
      options.history ? { locale: options.locale } : undefined,
    );
    if (rows.length === 0) {
      // Keys the body may not carry are a 400 before an unknown document's 404, as in Strapi 5.54
      // (its controller checks them first): validateInput throws for them, whatever the mode.
      validateInput(ctx.schema, type, data, 'update', { draft: true });
      throw NotFoundError.missing(`No ${type.singularName} with documentId ${documentId}`);
    }
    const target = rows.find(
      (row) =>
        (!type.localized || row.locale === options.locale) && (!type.draftAndPublish || row.published_at === null),
    );
    const mode = target ? 'update' : 'create';
    // The values before the edit, when it is audited (the entry names what changed).
    const before = target ? await options.audit?.snapshot(trx, target.id) : undefined;
    // A new locale of an existing document takes the shared attributes its body leaves out (or sets
    // to null) from the other locales, as Strapi fills them before validating.
    const source = target ? undefined : await sharedSourceRow(trx, type, documentId);
    const inherited = source ? sharedAttributeNames(type) : undefined;
    const body = inherited
      ? Object.fromEntries(Object.entries(data).filter(([key, value]) => !(value === null && inherited.has(key))))
      : data;
    // With draft and publish the body edits the draft, work in progress; publishing then checks the
    // whole draft with every rule (publishVersion), as Strapi 5 does.
    const { input, errors, media } = validateInput(ctx.schema, type, body, mode, {
      draft: type.draftAndPublish,
      inherited,
    });
    errors.push(...(await checkMediaReferences(trx, media)));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const values = await encodeScalars(dialect, type, input, mode, ctx.passwords, hashed);
    const bodyColumns = new Set([...input.scalars.keys()].map((attribute) => attribute.column));
    // What the body itself wrote: the only values the other locales take. `values` also holds the
    // schema defaults of a new locale, which must not overwrite the document's shared values.
    const written = Object.fromEntries(Object.entries(values).filter(([column]) => bodyColumns.has(column)));
    // A new locale's shared values are the document's, not the schema's defaults.
    Object.assign(values, sharedValuesOf(type, source, bodyColumns));
    const writers = writersFor(ctx, trx, options.events, options.canLink, options.outbox);
    const now = dialect.encode('datetime', new Date());
    const generated = await enforceUniqueness(trx, dialect, type, values, documentId, options.locale, mode);
    let id: number;
    if (target) {
      id = target.id;
      await updateById(trx, type.table, { ...values, updated_at: now, ...creatorColumns(options.actor, false) }, id);
    } else {
      id = await dialect.insertReturningId(trx, type.table, {
        ...values,
        document_id: documentId,
        locale: options.locale,
        created_at: now,
        updated_at: now,
        published_at: type.draftAndPublish ? null : now,
        ...creatorColumns(options.actor, true),
      });
    }
    if (source) {
      const given = new Set(
        [...input.components.keys(), ...input.zones.keys(), ...input.media.keys()].map((attribute) => attribute.name),
      );
      await copySharedNested(writers, type, Number(source.id), id, given);
    }
    await writers.components.writeNested(type, { id, documentId, locale: options.locale }, input, mode, 'refuse');
    // The other locales' drafts take the shared values written; publishing syncs the published ones.
    await syncSharedAttributes(trx, type, documentId, options.locale, written, rows);
    await syncSharedNested(writers, type, documentId, options.locale, input);
    options.events?.wrote(id);
    await options.outbox?.row(trx, target ? 'update' : 'create', id);
    await options.audit?.wrote(trx, id, documentId, options.locale, data, before);
    const publishing = type.draftAndPublish && options.status === 'published';
    const hasPublished = rows.some(
      (row) => row.published_at !== null && (!type.localized || row.locale === options.locale),
    );
    await options.history?.wrote(
      trx,
      documentId,
      options.locale,
      options.history.status(publishing, hasPublished),
      input,
      data,
      target as Record<string, unknown> | undefined,
      source !== undefined,
    );
    if (type.draftAndPublish && options.status === 'published')
      await publishVersion(ctx, writers, type, id, documentId, options.locale, {
        generated,
        audit: options.audit,
        given: target ? data : undefined,
        known: rows,
      });
  });
}
