/**
 * Concurrency: the links an owner document's versions hold are written only by a transaction that
 * holds that document's row locks (core/database/locks.ts). Each operation locks its own document
 * first; these lock the *other* owner documents whose links a relation write changes, before it
 * reads those links: the inverse side of a relation, targets taken from other owners, relations
 * settled when a version is copied, links removed when their target is deleted. Without them, a
 * link written from the inverse side while its owner was republished pointed at the deleted row.
 */
import { lockDocuments } from '../../database/locks.js';
import type { Db, Dialect } from '../../database/dialect.js';
import { shaped, type LinkRow } from '../../database/system-tables.js';
import type { ContentType, LinkTable, RelationAttribute, Schema } from '../../schema/model.js';
import { takesTargetFromOtherOwners, type TargetKey } from './relation-exclusivity.js';

/** Documents whose versions link to any of the target documents through `link`. */
async function ownersLinkedTo(
  db: Db,
  link: LinkTable,
  ownerType: ContentType,
  targetDocumentIds: string[],
): Promise<string[]> {
  if (targetDocumentIds.length === 0) return [];
  const rows = await db
    .selectFrom(`${link.table} as l`)
    .innerJoin(`${ownerType.table} as o`, 'o.id', 'l.entity_id')
    .select('o.document_id as document_id')
    .distinct()
    .where('l.target_document_id', 'in', [...new Set(targetDocumentIds)])
    .execute();
  return rows.map((row) => row.document_id as string);
}

/** Locks documents of several types, table by table in name order (the same order on every node). */
async function lockByTable(db: Db, dialect: Dialect, documents: Map<string, Set<string>>): Promise<void> {
  for (const table of [...documents.keys()].sort()) await lockDocuments(db, dialect, table, documents.get(table)!);
}

/**
 * The inverse side changes the links of the owners it names and, replacing its list, of the
 * current ones; publishing the document afterwards settles the links of every current owner
 * (lockSettledOwners). All of them are locked here at once: locked in two steps, two such writers
 * could each hold an owner the other waits for.
 */
export async function lockInverseOwners(
  db: Db,
  dialect: Dialect,
  link: LinkTable,
  ownerType: ContentType,
  self: TargetKey,
  named: string[],
): Promise<void> {
  if (!dialect.rowLocks) return;
  const documentIds = new Set(named);
  for (const documentId of await ownersLinkedTo(db, link, ownerType, [self.documentId])) documentIds.add(documentId);
  await lockDocuments(db, dialect, ownerType.table, documentIds);
}

/** Taking targets from other owner documents changes those documents' links. */
export async function lockOtherOwners(
  db: Db,
  dialect: Dialect,
  ownerType: ContentType,
  documentId: string,
  link: LinkTable,
  targets: TargetKey[],
): Promise<void> {
  if (!dialect.rowLocks) return;
  const others = (
    await ownersLinkedTo(
      db,
      link,
      ownerType,
      targets.map((t) => t.documentId),
    )
  ).filter((owner) => owner !== documentId);
  await lockDocuments(db, dialect, ownerType.table, others);
}

/**
 * A version was copied (publish, discard draft) and its relations are about to be settled
 * (settleCopiedVersion): other owners of its one-to-any targets, and owners linking to it.
 */
export async function lockSettledOwners(
  db: Db,
  dialect: Dialect,
  schema: Schema,
  type: ContentType,
  row: { id: number; documentId: string },
): Promise<void> {
  if (!dialect.rowLocks) return;
  const documents = new Map<string, Set<string>>();
  const add = (table: string, ids: string[]) => {
    const set = documents.get(table) ?? new Set<string>();
    for (const id of ids) if (id !== row.documentId || table !== type.table) set.add(id);
    documents.set(table, set);
  };
  for (const link of schema.linkTables) {
    if (
      link.ownerUid === type.uid &&
      takesTargetFromOtherOwners(type, type.attributes[link.ownerAttribute] as RelationAttribute)
    ) {
      const targets = await shaped<LinkRow>(db)
        .selectFrom(link.table)
        .select('target_document_id')
        .where('entity_id', '=', row.id)
        .execute();
      add(
        type.table,
        await ownersLinkedTo(
          db,
          link,
          type,
          targets.map((t) => t.target_document_id),
        ),
      );
    }
    const ownerType = schema.contentTypes.get(link.ownerUid);
    if (link.targetUid === type.uid && link.inverseAttribute !== undefined && ownerType?.draftAndPublish) {
      add(ownerType.table, await ownersLinkedTo(db, link, ownerType, [row.documentId]));
    }
  }
  await lockByTable(db, dialect, documents);
}

/** A deleted document leaves every relation that pointed to it: the owners of those links. */
export async function lockTargetingOwners(
  db: Db,
  dialect: Dialect,
  schema: Schema,
  type: ContentType,
  documentId: string,
): Promise<void> {
  if (!dialect.rowLocks) return;
  const documents = new Map<string, Set<string>>();
  for (const link of schema.linkTables) {
    const ownerType = schema.contentTypes.get(link.ownerUid);
    if (link.targetUid !== type.uid || !ownerType) continue;
    const owners = (await ownersLinkedTo(db, link, ownerType, [documentId])).filter(
      (owner) => owner !== documentId || ownerType !== type,
    );
    documents.set(ownerType.table, new Set([...(documents.get(ownerType.table) ?? []), ...owners]));
  }
  await lockByTable(db, dialect, documents);
}
