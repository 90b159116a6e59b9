import { sql } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';
import { MEDIA_LINK_TABLE } from '../../database/tables.js';
import type { LinkTable, Model } from '../../schema/model.js';
import { hasMediaAttributes, type MediaLinks } from './media.js';
import type { RelationLinks } from './relations.js';
import { deleteWhereIn } from './statements.js';

/**
 * A relation or media link of one of the rows compared, in the columns both kinds share: `kind` is
 * the link table's place in the owned tables (-1 for media), `target` the target document or the
 * media field, `other` the inverse order or the file.
 */
interface OwnedLink {
  kind: number;
  id: number;
  owner: number;
  target: string;
  locale: string | null;
  ord: number | null;
  other: number | null;
}

const MEDIA = -1;

/** The links of one field of one row, as a read shows them: by order, then by id. */
const listed = (links: OwnedLink[] = []): string =>
  JSON.stringify(
    [...links]
      .sort((a, b) => (a.ord === b.ord ? a.id - b.id : a.ord === null ? -1 : b.ord === null ? 1 : a.ord - b.ord))
      .map((link) => [link.target, link.locale, link.ord, link.other]),
  );

/**
 * Makes the relation and media links each `to` row of a model owns a copy of those its `from` row
 * owns (publishing over the published version), rewriting only the fields whose links differ: the
 * links of both rows are read in one statement, and a field whose links are already those a copy
 * would leave (same targets, locales and both orders, in the same order) keeps them. Publishing an
 * article whose relations did not change: 10 statements (a delete and a copy per relation field,
 * for its media, and for its seo component's media) -> 2 reads. A link to a localized target,
 * re-resolved in the document's locale on copy (RelationLinks.copyOwned), is always rewritten.
 */
export async function replaceOwnedLinks(
  db: Db,
  relations: RelationLinks,
  media: MediaLinks,
  model: Model,
  pairs: [from: number, to: number][],
  locale: string | null,
): Promise<void> {
  const tables = relations.ownedLinks(model);
  const resolved = tables.filter((link) => relations.resolvesLocale(link, locale));
  const compared = tables.filter((link) => !resolved.includes(link));
  const withMedia = hasMediaAttributes(model);
  const rows = await readOwnedLinks(
    db,
    model,
    compared,
    withMedia,
    pairs.flatMap((pair) => pair),
  );
  const groups = new Map<string, OwnedLink[]>();
  for (const row of rows) {
    const field = row.kind === MEDIA ? row.target : '';
    const key = `${row.owner}\u0000${row.kind}\u0000${field}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const differ = (from: number, to: number, kind: number, field = '') =>
    listed(groups.get(`${from}\u0000${kind}\u0000${field}`)) !== listed(groups.get(`${to}\u0000${kind}\u0000${field}`));

  for (const link of tables) {
    const kind = compared.indexOf(link);
    const changed = kind < 0 ? pairs : pairs.filter(([from, to]) => differ(from, to, kind));
    if (changed.length === 0) continue;
    await deleteWhereIn(
      db,
      link.table,
      'entity_id',
      changed.map(([, to]) => to),
    );
    const only = new Set([link.ownerAttribute]);
    for (const [from, to] of changed) await relations.copyOwned(model, from, to, locale, only);
  }
  if (!withMedia) return;
  const fieldsOf = (owner: number) =>
    rows.filter((row) => row.kind === MEDIA && row.owner === owner).map((row) => row.target);
  for (const [from, to] of pairs) {
    const fields = [...new Set([...fieldsOf(from), ...fieldsOf(to)])].filter((field) => differ(from, to, MEDIA, field));
    if (fields.length === 0) continue;
    await media.deleteFor(model, [to], fields);
    await media.copy(model, from, to, fields);
  }
}

/**
 * The links of rows in the owned link tables given and, with `withMedia`, their media links: one
 * statement, compiled once per model, tables and number of rows (core/database/shapes.ts).
 */
async function readOwnedLinks(
  db: Db,
  model: Model,
  tables: LinkTable[],
  withMedia: boolean,
  rowIds: number[],
): Promise<OwnedLink[]> {
  if (tables.length === 0 && !withMedia) return [];
  const { rows } = await runShape(
    db,
    shapeKey('owned links', model.uid, withMedia, rowIds.length, ...tables.map((link) => link.table)),
    withMedia ? [...rowIds, model.uid] : rowIds,
    (slots) => ownedLinksQuery(db, tables, withMedia, slots.slice(0, rowIds.length), slots[rowIds.length]),
  );
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return rows.map((row) => ({
    kind: Number(row.kind),
    id: Number(row.id),
    owner: Number(row.owner),
    target: String(row.target),
    locale: (row.locale as string | null) ?? null,
    ord: number(row.ord),
    other: number(row.other),
  }));
}

function ownedLinksQuery(db: Db, tables: LinkTable[], withMedia: boolean, rowIds: unknown[], uid: unknown) {
  const selects = tables.map((link, kind) =>
    db
      .selectFrom(link.table)
      .select([
        sql.lit(kind).as('kind'),
        'id',
        'entity_id as owner',
        'target_document_id as target',
        'target_locale as locale',
        'target_ord as ord',
        'entity_ord as other',
      ])
      .where('entity_id', 'in', rowIds),
  );
  if (withMedia)
    selects.push(
      db
        .selectFrom(MEDIA_LINK_TABLE)
        .select([
          sql.lit(MEDIA).as('kind'),
          'id',
          'related_id as owner',
          'field as target',
          sql.lit(null).as('locale'),
          'ord',
          'file_id as other',
        ])
        .where('related_type', '=', uid)
        .where('related_id', 'in', rowIds),
    );
  const [first, ...rest] = selects;
  return rest.reduce((union, select) => union.unionAll(select), first!);
}
