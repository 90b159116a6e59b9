import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';
import { shaped, type LinkRow } from '../../database/system-tables.js';
import { ValidationError } from '../../errors.js';
import type { ContentType, LinkTable, Model, RelationAttribute, Schema } from '../../schema/model.js';
import type { DocumentContext } from '../context.js';
import type { Status } from '../../query/types.js';
import type { RelationInput, RelationRef } from '../input.js';
import { insertMany } from './insert.js';
import { deleteWhereIn } from './statements.js';
import { anchorOf, resolveEntryIds } from './relation-ids.js';
import {
  ConnectOrderError,
  orderAfterConnect,
  orderAfterSet,
  type ConnectStep,
  type OrderPosition,
} from './relation-order.js';
import {
  detachFromOtherOwners,
  rowsOfStatus,
  statusOfRow,
  takesTargetFromOtherOwners,
  type TargetKey,
} from './relation-exclusivity.js';
import { lockInverseOwners, lockOtherOwners } from './relation-locks.js';

/** The row whose relations are written: a content-type version or a component row. */
export interface OwnerRow {
  id: number;
  documentId: string | null;
  locale: string | null;
  /** Inserted by this write: it has no links yet (nothing to read or delete before linking). */
  fresh?: boolean;
}

/** A link of the written row, as `applyOwnerSide` compares it with the list the write leaves. */
interface CurrentLink {
  target_document_id: string;
  target_locale: string | null;
  entity_ord: number | null;
}

/** `order by target_ord, id`: a null order first (SQLite, MariaDB) or, `nullsLast`, last (PostgreSQL). */
const compareOrders = (
  a: readonly [number | null, number],
  b: readonly [number | null, number],
  nullsLast: boolean,
): number =>
  a[0] === b[0]
    ? a[1] - b[1]
    : a[0] === null
      ? nullsLast
        ? 1
        : -1
      : b[0] === null
        ? nullsLast
          ? -1
          : 1
        : a[0] - b[0];

const keyOf = (target: TargetKey): string => `${target.documentId}\u0000${target.locale ?? ''}`;

function fail(attribute: RelationAttribute, path: (string | number)[], message: string, value: unknown): never {
  throw ValidationError.fromFieldErrors([{ path: [attribute.name, ...path], message, name: 'ValidationError', value }]);
}

/**
 * The list a write leaves (write/relation-order.ts), on either side of a relation: `keyOf` names a
 * ref's entry in `current`, `anchorKey` the entry a position's anchor names for that ref. A connect
 * list Strapi refuses is a 400 on the offending item.
 */
function orderAfter(
  attribute: RelationAttribute,
  input: RelationInput,
  current: string[],
  keyOfRef: (ref: RelationRef) => string,
  anchorKey: (ref: RelationRef, anchor: string) => string,
): string[] {
  if (input.set) return orderAfterSet(input.set.map(keyOfRef));
  const steps: ConnectStep[] = (input.connect ?? []).map((ref, index) => {
    const anchor = anchorOf(ref.position);
    const position: OrderPosition | undefined =
      anchor === undefined
        ? (ref.position as OrderPosition | undefined)
        : 'before' in ref.position!
          ? { before: anchorKey(ref, String(anchor)) }
          : { after: anchorKey(ref, String(anchor)) };
    return { key: keyOfRef(ref), position, index };
  });
  try {
    return orderAfterConnect(current, (input.disconnect ?? []).map(keyOfRef), steps, input.strict ?? true);
  } catch (error) {
    if (!(error instanceof ConnectOrderError)) throw error;
    const ref = input.connect![error.index]!;
    const named = ref.documentId || ref.id;
    // Strapi's words, with the ids the body used.
    const message =
      error.unconnectedAnchor !== undefined
        ? `There was a problem connecting relation with id ${named} at position ${JSON.stringify(ref.position)}. The relation with id ${anchorOf(ref.position)} needs to be connected first.`
        : error.message.replace(` ${error.key} `, ` ${named} `);
    return fail(attribute, ['connect', error.index], message, named);
  }
}

/**
 * The statement of `resolveTargets`: which of the documents `ids` names exist in the target's
 * table, with the last place in each one's inverse list in `link`; with `ownerId`, that row's
 * links in the table first (`kind` 2; targets are `kind` 0).
 */
function targetsStatement(
  target: ContentType,
  link: LinkTable,
  ids: readonly unknown[],
  ownerId: unknown,
): RawBuilder<unknown> {
  const list = sql.join(ids.map((id) => sql`${id}`));
  // Each target's last inverse place by a correlated max, which every database answers from
  // the end of the link table's target index: a `group by` over the link rows walked every link
  // of each target (a tag in the bench's 2,000 articles: ~150; 0.6 ms per write of three tags).
  const sameLocale = target.localized
    ? sql`${sql.ref('l.target_locale')} = ${sql.ref('t.locale')}`
    : sql`${sql.ref('l.target_locale')} is null`;
  const last = sql`(select max(${sql.ref('l.entity_ord')}) from ${sql.table(link.table)} as l where ${sql.ref('l.target_document_id')} = ${sql.ref('t.document_id')} and ${sameLocale})`;
  const targets = (aliased: boolean) =>
    sql`select ${sql.ref('t.document_id')}, ${sql.ref('t.locale')}, ${last}${aliased ? sql` as max_ord, 0 as kind, null as target_ord, null as link_id` : sql`, 0, null, null`} from ${sql.table(target.table)} as t where ${sql.ref('t.document_id')} in (${list}) group by ${sql.ref('t.document_id')}, ${sql.ref('t.locale')}`;
  // A compound select orders only as a whole: the owner's links carry their order columns. They
  // come first, as PostgreSQL types each column from the first branches that are not null.
  return ownerId === undefined
    ? sql` ${targets(true)}`
    : sql` select ${sql.ref('target_document_id')} as document_id, ${sql.ref('target_locale')} as locale, ${sql.ref('entity_ord')} as max_ord, 2 as kind, ${sql.ref('target_ord')} as target_ord, ${sql.ref('id')} as link_id from ${sql.table(link.table)} where ${sql.ref('entity_id')} = ${ownerId} union all ${targets(false)}`;
}

/**
 * Writes relation links. A link row joins an owner row id to a target document (documentId and
 * locale) with two order columns: `target_ord` (the target's place in the owner's list) and
 * `entity_ord` (the owner's place in the target's inverse list).
 */
export class RelationLinks {
  constructor(
    private readonly db: Db,
    private readonly ctx: DocumentContext,
    /**
     * Whether the writer may name documents of a type (CallerOptions.canLink): of a type it may
     * not, every document is answered as unknown (set and connect: a 400; disconnect: nothing).
     */
    private readonly canLink?: (type: ContentType) => boolean,
  ) {}

  private visible(type: ContentType): boolean {
    return !this.canLink || this.canLink(type);
  }

  private get schema(): Schema {
    return this.ctx.schema;
  }

  /**
   * The locale of the target a ref names. Between localized types Strapi links the writing
   * document's own locale, whatever the ref says (`row.locale`: the document's, or for a component
   * row its document's), except for an entry named by id (that row's locale); otherwise the ref's
   * locale, else the default one.
   */
  private targetLocale(
    target: ContentType,
    attribute: RelationAttribute,
    ref: RelationRef,
    path: (string | number)[],
    row: OwnerRow,
  ): string | null {
    if (!target.localized) return null;
    if (ref.byId && ref.locale !== undefined) return ref.locale;
    if (row.locale !== null) return row.locale;
    const locale = ref.locale ?? this.ctx.i18n.defaultLocale;
    if (!this.ctx.i18n.locales.includes(locale))
      fail(attribute, [...path, 'locale'], `Unknown locale ${locale}`, locale);
    return locale;
  }

  /**
   * Checks that every referenced document exists (in the locale asked) and returns its keys. With
   * `link`, the same statement reads the next place at the end of each referenced target's inverse
   * list in that link table (see nextEntityOrders): one statement per relation, not two; with
   * `ownerId` too, that row's links in the table (`current`, in order): a relation an update
   * writes costs one statement fewer (three per whole article).
   */
  private async resolveTargets(
    target: ContentType,
    attribute: RelationAttribute,
    row: OwnerRow,
    refs: { ref: RelationRef; path: (string | number)[] }[],
    link?: LinkTable,
    ownerId?: number,
  ): Promise<{ keys: Map<RelationRef, TargetKey>; next?: Map<string, number>; current?: CurrentLink[] }> {
    const keys = new Map<RelationRef, TargetKey>();
    if (refs.length === 0) return { keys };
    const ids = [...new Set(refs.map(({ ref }) => ref.documentId))];
    let rows: { document_id: unknown; locale: unknown }[] = [];
    let next: Map<string, number> | undefined;
    let current: CurrentLink[] | undefined;
    if (this.visible(target) && link) {
      // Compiled once per shape (core/database/shapes.ts).
      const owned = ownerId !== undefined;
      const both = await runShape<{
        document_id: string;
        locale: string | null;
        max_ord: unknown;
        kind: unknown;
        target_ord: unknown;
        link_id: unknown;
      }>(
        this.db,
        shapeKey('targets and links', target.table, target.localized, link.table, owned, ids.length),
        owned ? [ownerId, ...ids] : ids,
        (slots) => targetsStatement(target, link, owned ? slots.slice(1) : slots, owned ? slots[0] : undefined),
      );
      const found = both.rows.filter((r) => Number(r.kind) === 0);
      rows = found;
      next = new Map(
        found.map((r) => [
          keyOf({ documentId: r.document_id, locale: target.localized ? r.locale : null }),
          Number(r.max_ord ?? 0) + 1,
        ]),
      );
      if (ownerId !== undefined)
        current = both.rows
          .filter((r) => Number(r.kind) === 2)
          .map((r) => ({
            target_document_id: r.document_id,
            target_locale: r.locale,
            entity_ord: r.max_ord === null ? null : Number(r.max_ord),
            order: [r.target_ord === null ? null : Number(r.target_ord), Number(r.link_id)] as const,
          }))
          // As `order by target_ord, id` reads them.
          .sort((a, b) => compareOrders(a.order, b.order, this.ctx.database.dialect.client === 'postgres'));
    } else if (this.visible(target))
      rows = await this.db
        .selectFrom(target.table)
        .select(['document_id', 'locale'])
        .distinct()
        .where('document_id', 'in', ids)
        .execute();
    const existing = new Set(
      rows.map((row) =>
        keyOf({ documentId: row.document_id as string, locale: target.localized ? (row.locale as string) : null }),
      ),
    );
    for (const { ref, path } of refs) {
      const key = { documentId: ref.documentId, locale: this.targetLocale(target, attribute, ref, path, row) };
      // An entry id in disconnect names one row: of another locale than the one linked, it names no link.
      if (ref.byId && path[0] === 'disconnect' && !existing.has(keyOf(key))) continue;
      if (!existing.has(keyOf(key))) {
        fail(
          attribute,
          path,
          `${attribute.name}: no ${target.singularName} with documentId ${ref.documentId}${key.locale ? ` in locale ${key.locale}` : ''}`,
          ref.documentId,
        );
      }
      keys.set(ref, key);
    }
    return { keys, next, current };
  }

  async apply(model: Model, row: OwnerRow, attribute: RelationAttribute, given: RelationInput): Promise<void> {
    const target = this.schema.contentTypes.get(attribute.target)!;
    const input = await resolveEntryIds(this.db, target, attribute, given, this.visible(target));
    if (attribute.owner) await this.applyOwnerSide(model, row, attribute, input);
    else await this.applyInverseSide(model as ContentType, row, attribute, input);
  }

  private async applyOwnerSide(
    model: Model,
    row: OwnerRow,
    attribute: RelationAttribute,
    input: RelationInput,
  ): Promise<void> {
    const link = attribute.link;
    const target = this.schema.contentTypes.get(attribute.target)!;
    const listed = [
      ...(input.set ?? []).map((ref, i) => ({ ref, path: ['set', i] as (string | number)[] })),
      ...(input.connect ?? []).map((ref, i) => ({ ref, path: ['connect', i] as (string | number)[] })),
      // An unknown document in disconnect is a 400, as in Strapi; one the writer may not read
      // disconnects nothing.
      ...(this.visible(target) ? (input.disconnect ?? []) : []).map((ref, i) => ({
        ref,
        path: ['disconnect', i] as (string | number)[],
      })),
      // Anchors must name existing documents (of the item's locale).
      ...(input.connect ?? []).flatMap((ref, i) => {
        const anchor = anchorOf(ref.position);
        return anchor === undefined
          ? []
          : [
              {
                ref: { documentId: String(anchor), locale: ref.locale },
                path: ['connect', i, 'position'] as (string | number)[],
              },
            ];
      }),
    ];
    // The next inverse places are read with the targets, but when linking takes targets from
    // other owners (their links go first, which can lower the places).
    const {
      keys: resolved,
      next,
      current: read,
    } = await this.resolveTargets(
      target,
      attribute,
      row,
      listed,
      takesTargetFromOtherOwners(model, attribute) ? undefined : link,
      row.fresh ? undefined : row.id,
    );
    const current = row.fresh
      ? []
      : (read ??
        (await shaped<LinkRow>(this.db)
          .selectFrom(link.table)
          .select(['target_document_id', 'target_locale', 'entity_ord'])
          .where('entity_id', '=', row.id)
          .orderBy('target_ord')
          .orderBy('id')
          .execute()));
    const linked: TargetKey[] = current.map((r) => ({ documentId: r.target_document_id, locale: r.target_locale }));
    const entityOrd = new Map(current.map((r, i) => [keyOf(linked[i]!), r.entity_ord]));
    const byKey = new Map([...resolved.values(), ...linked].map((key) => [keyOf(key), key]));
    const order = orderAfter(
      attribute,
      // Disconnected refs of a type the writer may not read were not resolved: they name nothing.
      { ...input, disconnect: input.disconnect?.filter((ref) => resolved.has(ref)) },
      linked.map(keyOf),
      (ref) => keyOf(resolved.get(ref)!),
      (ref, anchor) => keyOf({ documentId: anchor, locale: resolved.get(ref)!.locale }),
    );
    let list: TargetKey[] = order.map((key) => byKey.get(key)!);
    if (!attribute.toMany) list = list.slice(-1);
    const unchanged = list.length === linked.length && list.every((key, i) => keyOf(key) === keyOf(linked[i]!));
    if (unchanged) return;

    const added = list.filter((key) => !entityOrd.has(keyOf(key)));
    if (added.length && takesTargetFromOtherOwners(model, attribute)) {
      await lockOtherOwners(this.db, this.ctx.database.dialect, model, row.documentId!, link, added); // concurrency, see relation-locks.ts
      await detachFromOtherOwners(
        this.db,
        this.schema,
        model,
        row.documentId!,
        await statusOfRow(this.db, model, row.id),
        attribute,
        added,
      );
    }
    const nextEntityOrd = next ?? (await this.nextEntityOrders(link, added));
    if (current.length) await deleteWhereIn(this.db, link.table, 'entity_id', [row.id]);
    await insertMany(
      this.db,
      link.table,
      list.map((key, index) => ({
        entity_id: row.id,
        target_document_id: key.documentId,
        target_locale: key.locale,
        target_ord: index + 1,
        entity_ord: entityOrd.get(keyOf(key)) ?? nextEntityOrd.get(keyOf(key)) ?? 1,
      })),
    );
  }

  /**
   * For targets newly linked: the next place at the end of each target's inverse list, one
   * correlated `max` per target in one row (`m0`, `m1`, ...), each a seek at the end of the link
   * table's target index (a `group by` walked every link of each target; see resolveTargets).
   */
  private async nextEntityOrders(link: LinkTable, targets: TargetKey[]): Promise<Map<string, number>> {
    const next = new Map<string, number>();
    if (targets.length === 0) return next;
    const located = targets.map((target) => target.locale !== null);
    const { rows } = await runShape<Record<string, unknown>>(
      this.db,
      shapeKey('next entity orders', link.table, ...located),
      targets.flatMap((target) => (target.locale === null ? [target.documentId] : [target.documentId, target.locale])),
      (slots) => {
        let at = 0;
        const maxima = located.map((hasLocale, i) => {
          const documentId = slots[at++];
          const locale = hasLocale
            ? sql`${sql.ref('target_locale')} = ${slots[at++]}`
            : sql`${sql.ref('target_locale')} is null`;
          return sql`(select max(${sql.ref('entity_ord')}) from ${sql.table(link.table)} where ${sql.ref('target_document_id')} = ${documentId} and ${locale}) as ${sql.ref(`m${i}`)}`;
        });
        return sql`select ${sql.join(maxima)}`;
      },
    );
    targets.forEach((target, i) => next.set(keyOf(target), Number(rows[0]?.[`m${i}`] ?? 0) + 1));
    return next;
  }

  /**
   * Writing from the side that declares `mappedBy` (author.articles): the links live in the owner's
   * table (articles_author_lnk), one per version row of each owner document.
   */
  private async applyInverseSide(
    model: ContentType,
    row: OwnerRow,
    attribute: RelationAttribute,
    input: RelationInput,
  ): Promise<void> {
    const link = attribute.link;
    const ownerType = this.schema.contentTypes.get(link.ownerUid)!;
    const ownerAttribute = ownerType.attributes[link.ownerAttribute] as RelationAttribute;
    const self: TargetKey = { documentId: row.documentId!, locale: model.localized ? row.locale : null };
    // The owner versions a link joins, as Strapi's getRelationTargetStatus: those of the written
    // version's status when both types have draft and publish; for a target without it, the ref's
    // status, or every version.
    const selfStatus = await statusOfRow(this.db, model, row.id);
    const ownerStatus = (ref?: RelationRef): Status | null =>
      ownerType.draftAndPublish ? (selfStatus ?? ref?.status ?? null) : null;
    const ofOwnerStatus = <T extends { where: Function }>(query: T): T =>
      (query.where as Function)('entity_id', 'in', rowsOfStatus(this.db, ownerType, ownerStatus()));

    const ownerRowsOf = async (refs: { ref: RelationRef; path: (string | number)[] }[]) => {
      const result = new Map<RelationRef, number[]>();
      if (refs.length === 0) return result;
      const rows = this.visible(ownerType)
        ? await this.db
            .selectFrom(ownerType.table)
            .select(['id', 'document_id', 'locale', 'published_at'])
            .where('document_id', 'in', [...new Set(refs.map(({ ref }) => ref.documentId))])
            // By id, as Strapi links a document's versions: the link rows' order (webhook entries list every version).
            .orderBy('id')
            .execute()
        : [];
      for (const { ref, path } of refs) {
        // Between localized types, the writing document's own locale (as targetLocale).
        const locale = ownerType.localized ? (self.locale ?? ref.locale ?? this.ctx.i18n.defaultLocale) : null;
        const matching = rows.filter(
          (r) =>
            r.document_id === ref.documentId &&
            (!ownerType.localized || r.locale === locale) &&
            (ownerStatus(ref) === null || (ownerStatus(ref) === 'draft') === (r.published_at === null)),
        );
        // An unknown owner is a 400 in disconnect too, as in Strapi; of a type the writer may not read,
        // disconnect removes nothing.
        if (
          matching.length === 0 &&
          !(ref.byId && path[0] === 'disconnect') &&
          (path[0] !== 'disconnect' || this.visible(ownerType))
        ) {
          fail(
            attribute,
            path,
            `${attribute.name}: no ${ownerType.singularName} with documentId ${ref.documentId}`,
            ref.documentId,
          );
        }
        result.set(
          ref,
          matching.map((r) => Number(r.id)),
        );
      }
      return result;
    };

    const whereSelf = <T extends { where: Function }>(query: T): T => {
      const q = (query.where as Function)('target_document_id', '=', self.documentId);
      return self.locale === null ? q.where('target_locale', 'is', null) : q.where('target_locale', '=', self.locale);
    };

    const refs = [
      ...(input.set ?? []).map((ref, i) => ({ ref, path: ['set', i] as (string | number)[] })),
      ...(input.connect ?? []).map((ref, i) => ({ ref, path: ['connect', i] as (string | number)[] })),
      ...(input.disconnect ?? []).map((ref, i) => ({ ref, path: ['disconnect', i] as (string | number)[] })),
    ];
    // Anchors must name existing owners (of the item's locale and status).
    const anchors = (input.connect ?? []).flatMap((ref, i) => {
      const anchor = anchorOf(ref.position);
      return anchor === undefined
        ? []
        : [
            {
              ref: { ...ref, documentId: String(anchor), position: undefined },
              path: ['connect', i, 'position'] as (string | number)[],
            },
          ];
    });
    // Concurrency (relation-locks.ts): lock the owners whose links change, before reading them.
    await lockInverseOwners(
      this.db,
      this.ctx.database.dialect,
      link,
      ownerType,
      self,
      refs.map(({ ref }) => ref.documentId),
    );
    const rowsByRef = await ownerRowsOf([...refs, ...anchors]);

    // The inverse list (this document's owners, in `entity_ord` order), by owner document and locale.
    const ownerKey = (documentId: string, ref?: RelationRef): string =>
      ownerType.localized
        ? keyOf({ documentId, locale: self.locale ?? ref?.locale ?? this.ctx.i18n.defaultLocale })
        : documentId;
    const linked = await ofOwnerStatus(
      whereSelf(
        this.db
          .selectFrom(`${link.table} as l`)
          .innerJoin(`${ownerType.table} as o`, 'o.id', 'l.entity_id')
          .select([
            'l.entity_id as entity_id',
            'l.entity_ord as entity_ord',
            'o.document_id as document_id',
            'o.locale as locale',
          ])
          .orderBy('l.entity_ord')
          .orderBy('l.id'),
      ),
    ).execute();
    const rowsOfKey = new Map<string, { id: number; ord: number }[]>();
    for (const r of linked) {
      const key = ownerType.localized
        ? keyOf({ documentId: r.document_id as string, locale: r.locale as string })
        : (r.document_id as string);
      if (!rowsOfKey.has(key)) rowsOfKey.set(key, []);
      rowsOfKey.get(key)!.push({ id: Number(r.entity_id), ord: Number(r.entity_ord) });
    }
    const current = [...rowsOfKey.keys()];
    const idsOfKey = new Map<string, number[]>();
    for (const ref of [...(input.set ?? []), ...(input.connect ?? [])])
      idsOfKey.set(ownerKey(ref.documentId, ref), rowsByRef.get(ref) ?? []);
    let order = orderAfter(
      attribute,
      input,
      current,
      (ref) => ownerKey(ref.documentId, ref),
      (ref, anchor) => ownerKey(anchor, ref),
    );
    // The inverse of a one-to-one holds one owner.
    if (!attribute.toMany) order = order.slice(-1);

    const kept = new Set(order);
    const removed = current.filter((key) => !kept.has(key)).flatMap((key) => rowsOfKey.get(key)!.map((r) => r.id));
    if (removed.length) await whereSelf(this.db.deleteFrom(link.table)).where('entity_id', 'in', removed).execute();
    for (const [index, key] of order.entries()) {
      const existing = rowsOfKey.get(key);
      if (existing) {
        const stale = existing.filter((r) => r.ord !== index + 1).map((r) => r.id);
        if (stale.length)
          await whereSelf(this.db.updateTable(link.table).set({ entity_ord: index + 1 }))
            .where('entity_id', 'in', stale)
            .execute();
      }
      // The owner's versions this write names and that are not linked yet (all of them for a new
      // link; for a linked owner, a version linked apart, e.g. a published one a draft write left out).
      const missing = (idsOfKey.get(key) ?? []).filter((id) => !existing?.some((r) => r.id === id));
      for (const ownerId of missing) {
        // A new link goes at the end of the owner's own list (`target_ord`), which keeps its order.
        let targetOrd = 1;
        if (ownerAttribute.toMany) {
          const max = await this.db
            .selectFrom(link.table)
            .select(sql<number>`max(target_ord)`.as('max_ord'))
            .where('entity_id', '=', ownerId)
            .executeTakeFirst();
          targetOrd = Number(max?.max_ord ?? 0) + 1;
        } else {
          await this.db.deleteFrom(link.table).where('entity_id', '=', ownerId).execute();
        }
        await this.db
          .insertInto(link.table)
          .values({
            entity_id: ownerId,
            target_document_id: self.documentId,
            target_locale: self.locale,
            target_ord: targetOrd,
            entity_ord: index + 1,
          })
          .execute();
      }
    }
  }

  /**
   * Publishing (and discarding a draft) copies a version: its owned links follow to the new row.
   * `locale` is the copied document's when its type is localized: a link to a localized target then
   * goes to that locale's version of the target, and is left out when the target has none, as
   * Strapi's publish re-resolves every relation of the draft by document in the source's locale
   * (checked on 5.54: a fr page connected by id to a label's en row publishes linked to its fr row,
   * or to nothing). Only a link written by entry id can name another locale; two links to one
   * target become one, at the first one's place.
   */
  async copyOwned(
    model: Model,
    fromId: number,
    toId: number,
    locale: string | null = null,
    only?: ReadonlySet<string>,
  ): Promise<void> {
    for (const link of this.ownedLinks(model)) {
      if (only && !only.has(link.ownerAttribute)) continue;
      const target = this.schema.contentTypes.get(link.targetUid);
      // Compiled once per shape (core/database/shapes.ts).
      if (target && this.resolvesLocale(link, locale)) {
        await runShape(
          this.db,
          shapeKey('copy links in locale', link.table, target.table),
          [toId, locale, fromId, locale],
          ([to, inLocale, from, targetLocale]) =>
            this.db
              .insertInto(link.table)
              .columns(['entity_id', 'target_document_id', 'target_locale', 'target_ord', 'entity_ord'])
              .expression(
                this.db
                  .selectFrom(`${link.table} as l`)
                  .select([
                    sql<number>`${to}`.as('entity_id'),
                    'l.target_document_id',
                    sql<string>`${inLocale}`.as('target_locale'),
                    sql<number>`min(l.target_ord)`.as('target_ord'),
                    sql<number>`min(l.entity_ord)`.as('entity_ord'),
                  ])
                  .where('l.entity_id', '=', from)
                  .where((eb) =>
                    eb.exists(
                      eb
                        .selectFrom(`${target.table} as t`)
                        .select(sql`1`.as('one'))
                        .whereRef('t.document_id', '=', 'l.target_document_id')
                        .where('t.locale', '=', targetLocale),
                    ),
                  )
                  .groupBy('l.target_document_id'),
              ),
        );
        continue;
      }
      await runShape(this.db, shapeKey('copy links', link.table), [toId, fromId], ([to, from]) =>
        this.db
          .insertInto(link.table)
          .columns(['entity_id', 'target_document_id', 'target_locale', 'target_ord', 'entity_ord'])
          .expression(
            this.db
              .selectFrom(link.table)
              .select([
                sql<number>`${to}`.as('entity_id'),
                'target_document_id',
                'target_locale',
                'target_ord',
                'entity_ord',
              ])
              .where('entity_id', '=', from),
          ),
      );
    }
  }

  /** Whether copying a link of this table re-resolves its target in `locale` (see copyOwned). */
  resolvesLocale(link: LinkTable, locale: string | null): boolean {
    return locale !== null && this.schema.contentTypes.get(link.targetUid)?.localized === true;
  }

  ownedLinks(model: Model): LinkTable[] {
    return this.schema.linkTables.filter((link) => link.ownerUid === model.uid);
  }

  async deleteOwned(model: Model, rowIds: number[]): Promise<void> {
    if (rowIds.length === 0) return;
    for (const link of this.ownedLinks(model)) await deleteWhereIn(this.db, link.table, 'entity_id', rowIds);
  }

  /** A deleted document leaves every relation that pointed to it. */
  async deleteTargeting(type: ContentType, documentId: string, locale: string | null): Promise<void> {
    for (const link of this.schema.linkTables) {
      if (link.targetUid !== type.uid) continue;
      let query = this.db.deleteFrom(link.table).where('target_document_id', '=', documentId);
      if (type.localized && locale !== null) query = query.where('target_locale', '=', locale);
      await query.execute();
    }
  }
}
