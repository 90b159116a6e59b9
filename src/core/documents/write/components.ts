import type { Selectable } from 'kysely';
import type { Db, Dialect } from '../../database/dialect.js';
import { runShape, shapeKey } from '../../database/shapes.js';
import type { ComponentLinkRow } from '../../database/system-tables.js';
import { ApplicationError } from '../../errors.js';
import type { Passwords } from '../../passwords.js';
import type { Component, ComponentAttribute, DynamicZoneAttribute, Model, Schema } from '../../schema/model.js';
import type { ComponentItemInput, ModelInput } from '../input.js';
import { insertMany } from './insert.js';
import type { MediaLinks } from './media.js';
import type { OwnerRow, RelationLinks } from './relations.js';
import { replaceOwnedLinks } from './owned-links.js';
import { encodeScalars } from './scalars.js';
import { deleteWhereIn, rowsById, updateById } from './statements.js';

type LinkRow = Selectable<ComponentLinkRow>;

/** Whether a column's value read back is the one another row holds (false when unsure: it is written). */
export const sameValue = (a: unknown, b: unknown): boolean =>
  a === b ||
  (a instanceof Date && b instanceof Date && a.getTime() === b.getTime()) ||
  (a instanceof Uint8Array && b instanceof Uint8Array && Buffer.compare(a, b) === 0);

/** Whether an item's input names components, zones, relations or media (its row is then not reused). */
const namesNested = (input: ModelInput): boolean =>
  input.components.size + input.zones.size + input.relations.size + input.media.size > 0;

const hasComponentAttributes = (model: Model): boolean =>
  Object.values(model.attributes).some((a) => a.kind === 'component' || a.kind === 'dynamiczone');

/**
 * Component and dynamic-zone values: a row per component in the component's table, joined to its
 * owner row through the owner's `<table>_cmps` link table (field, component type, order).
 */
/** A component this write inserted below a row it created, as copyBelow would read it back. */
interface Inserted {
  link: Omit<LinkRow, 'id'>;
  /** The columns inserted (the others are null). */
  values: Record<string, unknown>;
  /** The attributes its input named: nothing hangs below it for the others. */
  named: ReadonlySet<string>;
}

/** The attributes an input named components, zones, relations or media of. */
const namedNested = (input: ModelInput): ReadonlySet<string> =>
  new Set(
    [...input.components.keys(), ...input.zones.keys(), ...input.relations.keys(), ...input.media.keys()].map(
      (attribute) => attribute.name,
    ),
  );

export class ComponentTrees {
  /**
   * The components this write inserted below rows it created (model uid and row id -> items): a
   * create that publishes copies them from here, not read back (a whole article: 6 statements).
   */
  private readonly inserted = new Map<string, Inserted[]>();

  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
    private readonly schema: Schema,
    private readonly relations: RelationLinks,
    private readonly media: MediaLinks,
    private readonly passwords: Passwords,
  ) {}

  /**
   * Writes everything below the scalars of a row: components, zones, relations, media. On update,
   * an item's `id` names one of the row's components to update; `foreignIds` says what an id the
   * row does not have means: `refuse` (the row the client addressed: a 400, as Strapi answers) or
   * `new` (another row given the same values, such as another locale's shared components).
   */
  async writeNested(
    model: Model,
    row: OwnerRow,
    input: ModelInput,
    mode: 'create' | 'update',
    foreignIds: 'refuse' | 'new' = 'new',
  ): Promise<void> {
    // On update, the links of every field written in one statement (a whole article: 3 -> 1).
    const fields = input.components.size + input.zones.size;
    const links = mode === 'update' && fields > 1 ? await this.links(model, [row.id]) : undefined;
    const stored = (field: string): LinkRow[] | undefined => links?.filter((link) => link.field === field);
    for (const [attribute, value] of input.components) {
      const items = value === null ? [] : Array.isArray(value) ? value : [value];
      await this.writeField(
        model,
        row,
        attribute,
        items.map((item) => ({ ...item, component: attribute.component })),
        mode,
        foreignIds,
        stored(attribute.name),
      );
    }
    for (const [attribute, value] of input.zones)
      await this.writeField(model, row, attribute, value ?? [], mode, foreignIds, stored(attribute.name));
    const owner = mode === 'create' ? { ...row, fresh: true } : row;
    for (const [attribute, value] of input.relations) await this.relations.apply(model, owner, attribute, value);
    for (const [attribute, value] of input.media) await this.media.set(model, row.id, attribute, value);
  }

  private async links(model: Model, entityIds: number[], field?: string): Promise<LinkRow[]> {
    if (entityIds.length === 0 || !hasComponentAttributes(model)) return [];
    const { rows } = await runShape<LinkRow>(
      this.db,
      shapeKey('component links', model.componentLinkTable, entityIds.length, Boolean(field)),
      field ? [...entityIds, field] : entityIds,
      (slots) => {
        let query = this.db
          .selectFrom(model.componentLinkTable)
          .selectAll()
          .where('entity_id', 'in', slots.slice(0, entityIds.length));
        if (field) query = query.where('field', '=', slots[entityIds.length]);
        return query.orderBy('ord');
      },
    );
    return rows;
  }

  private async writeField(
    owner: Model,
    ownerRow: OwnerRow,
    attribute: ComponentAttribute | DynamicZoneAttribute,
    items: (ComponentItemInput & { component: string })[],
    mode: 'create' | 'update',
    foreignIds: 'refuse' | 'new',
    /** The field's links, when read with the others. */
    links?: LinkRow[],
  ): Promise<void> {
    const ownerId = ownerRow.id;
    const existing = mode === 'update' ? (links ?? (await this.links(owner, [ownerId], attribute.name))) : [];
    // An item whose id is one of this row's components updates it. Any other id on update (another
    // document's component, or the published version's while the draft is written) is refused, as
    // Strapi 5 does; on create ids are ignored.
    const kept = new Set<string>();
    const foreign = items.some(
      (item) =>
        item.id !== undefined &&
        !existing.some((link) => link.cmp_id === item.id && link.component_type === item.component),
    );
    if (foreign && mode === 'update' && foreignIds === 'refuse') {
      throw new ApplicationError(`Some of the provided components in ${attribute.name} are not related to the entity`);
    }
    items = items.map((item) => {
      if (item.id === undefined) return item;
      const match = existing.find((link) => link.cmp_id === item.id && link.component_type === item.component);
      if (match) {
        kept.add(`${item.component}:${item.id}`);
        return item;
      }
      return { ...item, id: undefined };
    });
    // A body without ids (a whole document PUT) replaces the field's components. An item without
    // id takes the row of the component in its place (same type, not named by another item) when
    // it names nothing below it: the row's columns become the item's, only those that differ are
    // written, and an unchanged component costs no write (the bench's whole PUT: 19 -> 7
    // statements for its seo, two links and a two-item zone). Its id stays (Strapi 5 gives new
    // ids: a difference listed in Coming from Strapi).
    const reused = new Map<number, LinkRow>();
    if (mode === 'update')
      items.forEach((item, index) => {
        const link = existing[index];
        if (
          item.id === undefined &&
          link &&
          link.component_type === item.component &&
          !kept.has(`${link.component_type}:${link.cmp_id}`) &&
          !namesNested(item.input)
        ) {
          reused.set(index, link);
          kept.add(`${link.component_type}:${link.cmp_id}`);
        }
      });
    const stored = await this.storedRows(reused);

    const removed = existing.filter((link) => !kept.has(`${link.component_type}:${link.cmp_id}`));
    await this.deleteComponents(owner.componentLinkTable, removed);

    // A row created by this write: what goes below it is recorded for copyBelow.
    let inserted: Inserted[] | undefined;
    if (mode === 'create') {
      const key = `${owner.uid}\u0000${ownerId}`;
      inserted = this.inserted.get(key) ?? [];
      this.inserted.set(key, inserted);
    }
    const ids: { id: number; component: string }[] = [];
    for (const [index, item] of items.entries()) {
      const component = this.schema.components.get(item.component)!;
      const reuse = reused.get(index);
      if (reuse) {
        await this.overwrite(component, reuse.cmp_id, item.input, stored.get(item.component)?.get(reuse.cmp_id));
        ids.push({ id: reuse.cmp_id, component: item.component });
        continue;
      }
      const itemMode = item.id === undefined ? 'create' : 'update';
      const values = await encodeScalars(this.dialect, component, item.input, itemMode, this.passwords);
      let id = item.id;
      if (id === undefined) id = await this.dialect.insertReturningId(this.db, component.table, values);
      else await updateById(this.db, component.table, values, id);
      if (inserted) {
        inserted.push({
          link: {
            entity_id: ownerId,
            cmp_id: id,
            component_type: item.component,
            field: attribute.name,
            ord: index + 1,
          },
          values,
          named: namedNested(item.input),
        });
      }
      // A component row carries its document's locale: its relations follow it as the document's do.
      await this.writeNested(
        component,
        { id, documentId: null, locale: ownerRow.locale },
        item.input,
        itemMode,
        foreignIds,
      );
      ids.push({ id, component: item.component });
    }
    // Links already as the body orders them stay (a whole PUT of unchanged components: none
    // written).
    const same =
      ids.length === existing.length &&
      ids.every(
        (each, index) =>
          existing[index]!.cmp_id === each.id &&
          existing[index]!.component_type === each.component &&
          existing[index]!.ord === index + 1,
      );
    if (same) return;
    // The links of kept components go, to come back in the body's order; the removed ones went
    // with their components (a whole body without ids keeps none: one statement fewer per field).
    if (kept.size)
      await runShape(
        this.db,
        shapeKey('delete component links of field', owner.componentLinkTable),
        [ownerId, attribute.name],
        (slots) =>
          this.db.deleteFrom(owner.componentLinkTable).where('entity_id', '=', slots[0]).where('field', '=', slots[1]),
      );
    await insertMany(
      this.db,
      owner.componentLinkTable,
      ids.map(({ id, component }, index) => ({
        entity_id: ownerId,
        cmp_id: id,
        component_type: component,
        field: attribute.name,
        ord: index + 1,
      })),
    );
  }

  /** The rows of components about to be overwritten, in one statement per component type. */
  private async storedRows(
    links: ReadonlyMap<number, LinkRow>,
  ): Promise<Map<string, Map<number, Record<string, unknown>>>> {
    const byType = new Map<string, number[]>();
    for (const link of links.values())
      byType.set(link.component_type, [...(byType.get(link.component_type) ?? []), link.cmp_id]);
    const rows = new Map<string, Map<number, Record<string, unknown>>>();
    for (const [uid, ids] of byType) {
      const component = this.schema.components.get(uid)!;
      const found = await rowsById(this.db, component.table, ids);
      rows.set(uid, new Map(found.map((row) => [Number(row.id), row])));
    }
    return rows;
  }

  /**
   * Makes a stored component what a new one from `input` would be: its columns as an insert would
   * set them (defaults, nulls), written where they differ from `stored`, and nothing below it
   * (the input names nothing below: see `namesNested`).
   */
  private async overwrite(
    component: Component,
    id: number,
    input: ModelInput,
    stored: Record<string, unknown> | undefined,
  ): Promise<void> {
    const values = await encodeScalars(this.dialect, component, input, 'create', this.passwords);
    for (const attribute of component.scalars) if (!(attribute.column in values)) values[attribute.column] = null;
    const changed: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(values))
      if (!stored || !sameValue(value, stored[column])) changed[column] = value;
    await updateById(this.db, component.table, changed, id);
    await this.deleteBelow(component, [id]);
  }

  /** Deletes component rows (and everything below them) named by link rows, and those link rows. */
  private async deleteComponents(linkTable: string, links: LinkRow[]): Promise<void> {
    if (links.length === 0) return;
    const byType = new Map<string, number[]>();
    for (const link of links)
      byType.set(link.component_type, [...(byType.get(link.component_type) ?? []), link.cmp_id]);
    for (const [uid, ids] of byType) {
      const component = this.schema.components.get(uid);
      if (!component) continue;
      await this.deleteBelow(component, ids);
      await deleteWhereIn(this.db, component.table, 'id', ids);
    }
    await deleteWhereIn(
      this.db,
      linkTable,
      'id',
      links.map((l) => l.id),
    );
  }

  /** Deletes what hangs below rows of a model: their components (recursively), relation and media links. */
  async deleteBelow(model: Model, rowIds: number[]): Promise<void> {
    if (rowIds.length === 0) return;
    const links = await this.links(model, rowIds);
    await this.deleteComponents(model.componentLinkTable, links);
    await this.relations.deleteOwned(model, rowIds);
    await this.media.deleteFor(model, rowIds);
  }

  /**
   * Deep copy of everything below a row onto another row of the same model (publishing). `locale`:
   * the document's, when its type is localized (relations below follow it, see `copyOwned`).
   */
  async copyBelow(
    model: Model,
    fromId: number,
    toId: number,
    locale: string | null = null,
    /**
     * The only attributes that can have anything below the source row (the row was just created
     * from a body that named these): the others are not looked at. A small create that publishes
     * spares five statements (three relations, media, components).
     */
    only?: ReadonlySet<string>,
  ): Promise<void> {
    await this.relations.copyOwned(model, fromId, toId, locale, only);
    const media = only
      ? Object.values(model.attributes)
          .filter((a) => a.kind === 'media' && only.has(a.name))
          .map((a) => a.name)
      : undefined;
    await this.media.copy(model, fromId, toId, media);
    if (
      only &&
      !Object.values(model.attributes).some(
        (a) => (a.kind === 'component' || a.kind === 'dynamiczone') && only.has(a.name),
      )
    )
      return;
    const inserted = only && this.inserted.get(`${model.uid}\u0000${fromId}`);
    if (inserted) {
      const items = inserted.filter((item) => only.has(item.link.field));
      const copies: Omit<LinkRow, 'id'>[] = [];
      for (const { link, values, named } of items) {
        const component = this.schema.components.get(link.component_type)!;
        const newId = await this.dialect.insertReturningId(this.db, component.table, values);
        await this.copyBelow(component, link.cmp_id, newId, locale, named);
        copies.push({ ...link, entity_id: toId, cmp_id: newId });
      }
      await insertMany(this.db, model.componentLinkTable, copies);
      return;
    }
    let links = await this.links(model, [fromId]);
    if (only) links = links.filter((link) => only.has(link.field));
    await this.copyComponents(model, links, toId, locale);
  }

  /**
   * Makes what hangs below each `[from, to]` row of a model a copy of what hangs below `from`
   * (publishing over the published version, operations/versions-store.ts `overwriteVersion`).
   * Relation and media links are rewritten where they differ (owned-links.ts); components in the same places (field, type,
   * order) on both rows are updated in place, in the columns that differ only, so their ids stay
   * and an unchanged component costs no write (a whole article's publish: 17 -> 6 statements).
   * A row whose components are placed otherwise has them deleted and copied.
   */
  async replaceBelow(model: Model, pairs: [from: number, to: number][], locale: string | null = null): Promise<void> {
    if (pairs.length === 0) return;
    await replaceOwnedLinks(this.db, this.relations, this.media, model, pairs, locale);
    if (!hasComponentAttributes(model)) return;
    const byEntity = new Map<number, LinkRow[]>();
    for (const link of await this.links(
      model,
      pairs.flatMap((pair) => pair),
    )) {
      const entity = Number(link.entity_id);
      byEntity.set(entity, [...(byEntity.get(entity) ?? []), link]);
    }
    const placed = (links: LinkRow[] = []): LinkRow[] =>
      [...links].sort((a, b) =>
        a.field < b.field ? -1 : a.field > b.field ? 1 : (a.ord ?? 0) - (b.ord ?? 0) || a.id - b.id,
      );
    const place = (link: LinkRow): string => `${link.field}\u0000${link.component_type}\u0000${link.ord}`;
    const matched = new Map<string, [number, number][]>();
    for (const [from, to] of pairs) {
      const source = placed(byEntity.get(from));
      const target = placed(byEntity.get(to));
      if (source.length === target.length && source.every((link, i) => place(link) === place(target[i]!))) {
        source.forEach((link, i) => {
          const list = matched.get(link.component_type) ?? [];
          list.push([link.cmp_id, target[i]!.cmp_id]);
          matched.set(link.component_type, list);
        });
      } else {
        await this.deleteComponents(model.componentLinkTable, target);
        await this.copyComponents(model, source, to, locale);
      }
    }
    for (const [uid, list] of matched) {
      const component = this.schema.components.get(uid);
      if (!component) continue;
      const rows = await rowsById(
        this.db,
        component.table,
        list.flatMap((pair) => pair),
      );
      const byId = new Map(rows.map((row) => [Number(row.id), row]));
      for (const [from, to] of list) {
        const source = byId.get(from);
        const target = byId.get(to);
        if (!source || !target) continue;
        const changed: Record<string, unknown> = {};
        for (const [column, value] of Object.entries(source))
          if (column !== 'id' && !sameValue(value, target[column])) changed[column] = value;
        await updateById(this.db, component.table, changed, to);
      }
      await this.replaceBelow(component, list, locale);
    }
  }

  /** Deep copy of the components of some component and zone fields of a row onto another row. */
  async copyFields(model: Model, fromId: number, toId: number, fields: string[]): Promise<void> {
    if (fields.length === 0) return;
    const links = (await this.links(model, [fromId])).filter((link) => fields.includes(link.field));
    await this.copyComponents(model, links, toId);
  }

  /** Deletes the components of some component and zone fields of a row, with what hangs below them. */
  async deleteFields(model: Model, rowId: number, fields: string[]): Promise<void> {
    if (fields.length === 0) return;
    const links = (await this.links(model, [rowId])).filter((link) => fields.includes(link.field));
    await this.deleteComponents(model.componentLinkTable, links);
  }

  private async copyComponents(
    model: Model,
    links: LinkRow[],
    toId: number,
    locale: string | null = null,
  ): Promise<void> {
    if (links.length === 0) return;
    // The source rows in one statement per component type, not one per component.
    const sources = new Map<string, Map<number, Record<string, unknown>>>();
    const byType = new Map<string, number[]>();
    for (const link of links)
      byType.set(link.component_type, [...(byType.get(link.component_type) ?? []), link.cmp_id]);
    for (const [uid, ids] of byType) {
      const component = this.schema.components.get(uid);
      if (!component) continue;
      const rows = await rowsById(this.db, component.table, ids);
      sources.set(uid, new Map(rows.map((row) => [Number(row.id), row])));
    }
    const copies: Omit<LinkRow, 'id'>[] = [];
    for (const link of links) {
      const component = this.schema.components.get(link.component_type) as Component | undefined;
      const source = sources.get(link.component_type)?.get(link.cmp_id);
      if (!component || !source) continue;
      const { id: _id, ...values } = source;
      const newId = await this.dialect.insertReturningId(this.db, component.table, values);
      await this.copyBelow(component, link.cmp_id, newId, locale);
      copies.push({
        entity_id: toId,
        cmp_id: newId,
        component_type: link.component_type,
        field: link.field,
        ord: link.ord,
      });
    }
    await insertMany(this.db, model.componentLinkTable, copies);
  }
}
