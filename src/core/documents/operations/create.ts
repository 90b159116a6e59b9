import { ValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import { createDocumentId } from '../document-id.js';
import { validateInput, type ModelInput } from '../input.js';
import { checkMediaReferences } from '../write/media.js';
import { encodeScalars, enforceUniqueness } from '../write/scalars.js';
import { creatorColumns, type WriteOptions } from './options.js';
import { publishVersion } from './publication.js';
import { writersFor } from './versions-store.js';

/** The attributes a body gave values (the others have nothing below the row it creates). */
const named = (input: ModelInput): ReadonlySet<string> =>
  new Set(
    [...input.components.keys(), ...input.zones.keys(), ...input.relations.keys(), ...input.media.keys()].map(
      (attribute) => attribute.name,
    ),
  );

/**
 * Creates a document: validate, then in one transaction insert the row (the draft, for types with
 * draft and publish), its components, relations and media, and publish it unless a draft was asked.
 */
export async function create(
  ctx: DocumentContext,
  type: ContentType,
  data: Record<string, unknown>,
  options: WriteOptions,
): Promise<string> {
  // A draft is work in progress: it skips the rules only a finished document must satisfy. A body
  // that publishes is the whole document: every rule applies, and every problem is listed at once
  // (Strapi lists the type errors first, the rest once they are fixed).
  const draft = type.draftAndPublish && options.status === 'draft';
  const { input, errors, media } = validateInput(ctx.schema, type, data, 'create', { draft });
  errors.push(...(await checkMediaReferences(ctx.database.db, media)));
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  const { dialect } = ctx.database;
  const encoded = await encodeScalars(dialect, type, input, 'create', ctx.passwords);
  return ctx.database.write(async (trx) => {
    // A fresh copy per try: generated uids are chosen again when the write runs again.
    const values = { ...encoded };
    const writers = writersFor(ctx, trx, options.events, options.canLink, options.outbox);
    const documentId = options.documentId ?? createDocumentId();
    const now = dialect.encode('datetime', new Date());
    const generated = await enforceUniqueness(trx, dialect, type, values, documentId, options.locale, 'create');
    const row = {
      ...values,
      document_id: documentId,
      locale: options.locale,
      created_at: now,
      updated_at: now,
      published_at: type.draftAndPublish ? null : now,
      ...creatorColumns(options.actor, true),
    };
    const id = await dialect.insertReturningId(trx, type.table, row);
    await writers.components.writeNested(type, { id, documentId, locale: options.locale }, input, 'create');
    options.events?.wrote(id);
    await options.outbox?.row(trx, 'create', id);
    await options.audit?.wrote(trx, id, documentId, options.locale, data);
    const status = options.history?.status(options.status === 'published', false);
    if (status) await options.history?.wrote(trx, documentId, options.locale, status, input, data);
    // The body was checked with every rule: publishing checks only uniqueness among published documents.
    if (type.draftAndPublish && options.status === 'published')
      await publishVersion(ctx, writers, type, id, documentId, options.locale, {
        validate: false,
        generated,
        audit: options.audit,
        // A documentId generated here names nothing else yet; a given one may have other locales.
        created: options.documentId === undefined ? { row: { ...row, id }, attributes: named(input) } : undefined,
      });
    return documentId;
  });
}
