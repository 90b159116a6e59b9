/**
 * Which links a relation write takes away from other documents, as Strapi 5's entity manager
 * decides (`deletePreviousOneToAnyRelations`): only a bidirectional relation whose owner side is
 * one-to-one or one-to-many gives a target to one owner document. A relation without an inverse
 * side (oneWay, manyWay, oneToOne or oneToMany without inversedBy) and every relation of a
 * component or a dynamic-zone entry never touch other owners: two pages may list one restaurant.
 *
 * Links are kept per version: a link from an owner's draft row is the draft's relation, from its
 * published row the published one, as Strapi links drafts to drafts and published versions to
 * published ones. So when both types have draft and publish, a write on one status takes a target
 * only from other documents' versions of that status; the published versions follow when the
 * document is published (`settleCopiedVersion`). A target without draft and publish is one row
 * that every version links to, so it is taken from every version at once.
 */
import type { Db } from '../../database/dialect.js';
import { shaped, type LinkRow } from '../../database/system-tables.js';
import type { Status } from '../../query/types.js';
import type { ContentType, LinkTable, Model, RelationAttribute, Schema } from '../../schema/model.js';

/** A target document in one locale (locale null for types without i18n). */
export interface TargetKey {
  documentId: string;
  locale: string | null;
}

/** The status a row holds: null for types without draft and publish (their rows serve both). */
export async function statusOfRow(db: Db, type: ContentType, rowId: number): Promise<Status | null> {
  if (!type.draftAndPublish) return null;
  const row = await db.selectFrom(type.table).select('published_at').where('id', '=', rowId).executeTakeFirst();
  return row && row.published_at !== null ? 'published' : 'draft';
}

/** Ids of a type's rows of one status (every row when `status` is null or the type has no draft and publish). */
export function rowsOfStatus(db: Db, type: ContentType, status: Status | null) {
  const query = db.selectFrom(type.table).select('id');
  if (!type.draftAndPublish || status === null) return query;
  return query.where('published_at', status === 'draft' ? 'is' : 'is not', null);
}

/** Strapi's `isBidirectional && isOneToAny`, on the side that owns the link table. */
export function takesTargetFromOtherOwners(model: Model, attribute: RelationAttribute): model is ContentType {
  return (
    model.modelType === 'contentType' &&
    attribute.owner &&
    attribute.link.inverseAttribute !== undefined &&
    (attribute.relation === 'oneToOne' || attribute.relation === 'oneToMany')
  );
}

/**
 * Removes the links of other documents' versions (of `status`, see above) to `targets`: the row
 * of document `documentId` now holds them.
 */
export async function detachFromOtherOwners(
  db: Db,
  schema: Schema,
  type: ContentType,
  documentId: string,
  status: Status | null,
  attribute: RelationAttribute,
  targets: TargetKey[],
): Promise<void> {
  const target = schema.contentTypes.get(attribute.target)!;
  const owners = rowsOfStatus(db, type, target.draftAndPublish ? status : null).where('document_id', '!=', documentId);
  for (const key of targets) {
    let query = db.deleteFrom(attribute.link.table).where('target_document_id', '=', key.documentId);
    query =
      key.locale === null ? query.where('target_locale', 'is', null) : query.where('target_locale', '=', key.locale);
    await query.where('entity_id', 'in', owners).execute();
  }
}

/**
 * A version was just copied onto the other status (publishing a draft, discarding a draft for the
 * published version): its relations at that status become what Strapi's copy makes them.
 * - Links it owns were copied with it; a bidirectional one-to-one or one-to-many target is taken
 *   from other documents' versions of that status.
 * - Links other documents own to it through a bidirectional relation (the side that declares
 *   `mappedBy`) are rebuilt from the copied version's: publishing a target that lists an owner
 *   links the owner's published version to it, and unlinks the published owners it no longer lists.
 */
export async function settleCopiedVersion(
  db: Db,
  schema: Schema,
  type: ContentType,
  row: { id: number; documentId: string; locale: string | null },
  status: Status,
): Promise<void> {
  for (const link of schema.linkTables) {
    if (link.ownerUid !== type.uid) continue;
    const attribute = type.attributes[link.ownerAttribute] as RelationAttribute;
    if (!takesTargetFromOtherOwners(type, attribute)) continue;
    const rows = await shaped<LinkRow>(db)
      .selectFrom(link.table)
      .select(['target_document_id', 'target_locale'])
      .where('entity_id', '=', row.id)
      .execute();
    const targets = rows.map((r) => ({ documentId: r.target_document_id, locale: r.target_locale }));
    await detachFromOtherOwners(db, schema, type, row.documentId, status, attribute, targets);
  }
  const self: TargetKey = { documentId: row.documentId, locale: type.localized ? row.locale : null };
  for (const link of schema.linkTables) {
    if (link.targetUid !== type.uid || link.inverseAttribute === undefined) continue;
    const ownerType = schema.contentTypes.get(link.ownerUid);
    // An owner without draft and publish has one row for both statuses: nothing to move.
    if (!ownerType?.draftAndPublish) continue;
    await rebuildInverseLinks(db, link, ownerType, self, status);
  }
}

/**
 * The links of `status` owner versions to `self`, made the same as those of the other status:
 * links already there keep their place in their owner's list, new ones go to its end, as Strapi's.
 */
async function rebuildInverseLinks(
  db: Db,
  link: LinkTable,
  ownerType: ContentType,
  self: TargetKey,
  status: Status,
): Promise<void> {
  const ownerAttribute = ownerType.attributes[link.ownerAttribute] as RelationAttribute;
  const other: Status = status === 'published' ? 'draft' : 'published';
  const listedAt = (at: Status) => {
    const query = db
      .selectFrom(`${link.table} as l`)
      .innerJoin(`${ownerType.table} as o`, 'o.id', 'l.entity_id')
      .select(['l.id as link_id', 'o.document_id as document_id', 'o.locale as locale', 'l.entity_ord as entity_ord'])
      .where('o.published_at', at === 'draft' ? 'is' : 'is not', null)
      .where('l.target_document_id', '=', self.documentId);
    return (
      self.locale === null
        ? query.where('l.target_locale', 'is', null)
        : query.where('l.target_locale', '=', self.locale)
    ).execute();
  };
  const ownerKey = (row: { document_id: unknown; locale: unknown }) => `${row.document_id}\u0000${row.locale ?? ''}`;
  const [wanted, current] = [await listedAt(other), await listedAt(status)];
  const wantedBy = new Map(wanted.map((row) => [ownerKey(row), row]));
  const currentBy = new Map(current.map((row) => [ownerKey(row), row]));

  const gone = current.filter((row) => !wantedBy.has(ownerKey(row))).map((row) => Number(row.link_id));
  if (gone.length) await db.deleteFrom(link.table).where('id', 'in', gone).execute();
  for (const row of current) {
    const entityOrd = wantedBy.get(ownerKey(row))?.entity_ord;
    if (entityOrd !== undefined && entityOrd !== row.entity_ord)
      await db.updateTable(link.table).set({ entity_ord: entityOrd }).where('id', '=', Number(row.link_id)).execute();
  }
  const missing = wanted.filter((row) => !currentBy.has(ownerKey(row)));
  if (missing.length === 0) return;
  const counterparts = await rowsOfStatus(db, ownerType, status)
    .select(['document_id', 'locale'])
    .where('document_id', 'in', [...new Set(missing.map((r) => r.document_id as string))])
    .execute();
  for (const entry of missing) {
    const counterpart = counterparts.find((c) => ownerKey(c) === ownerKey(entry));
    if (!counterpart) continue;
    const ownerId = Number(counterpart.id);
    let targetOrd = 1;
    if (ownerAttribute.toMany) {
      const max = await db
        .selectFrom(link.table)
        .select((eb) => eb.fn.max('target_ord').as('max_ord'))
        .where('entity_id', '=', ownerId)
        .executeTakeFirst();
      targetOrd = Number(max?.max_ord ?? 0) + 1;
    } else {
      // The owner's side holds one target: this one replaces the owner version's previous one.
      await db.deleteFrom(link.table).where('entity_id', '=', ownerId).execute();
    }
    await db
      .insertInto(link.table)
      .values({
        entity_id: ownerId,
        target_document_id: self.documentId,
        target_locale: self.locale,
        target_ord: targetOrd,
        entity_ord: entry.entity_ord,
      })
      .execute();
  }
}
