import { FILE_UID, isHidden, type Attribute, type Model, type Schema } from '../../schema/model.js';
import { CREATOR_MODEL, isCreatorField, type CreatorField } from '../../schema/creators.js';
import type { PopulateNode, PopulateTree } from '../types.js';
import { asBoolean, asList, fail, isPlainObject, type ParseOptions, type Path } from './common.js';
import { parseFields } from './fields.js';
import { FilterParser } from './filters.js';
import { parseSort } from './sort.js';

const MAX_POPULATE_NODES = 200;

/**
 * The key of a raw populate node holding `PopulateNode.limit`: a symbol, which no query string can
 * carry, so that only code (GraphQL's nested pages) sets it.
 */
export const PER_OWNER_LIMIT = Symbol('vellum.populate.limit');
const NODE_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'on', 'count']);

/** What a populate key names: an attribute, the localizations, or a creator field (creators.ts). */
type Populatable = Exclude<Attribute, { kind: 'scalar' }> | 'localizations' | CreatorField;

/**
 * `populate` (docs/rest.md "Populate"): `*`, names, comma lists, arrays, dot paths through components, object
 * toggles, and per-attribute `fields`, `filters`, `sort`, `populate`, `count` and (dynamic zones)
 * `on`. Every name is checked against the schema; relations and media the caller may not read are
 * kept in the tree and left out when reading (silently unpopulated: docs/security.md "Access control").
 */
const QUERY_KEYWORDS = new Set(['sort', 'filters', 'fields']);

export class PopulateParser {
  private nodes = 0;

  constructor(
    private readonly schema: Schema,
    private readonly options: Pick<ParseOptions, 'canRead' | 'hidden'>,
  ) {}

  parse(model: Model, value: unknown, path: Path): PopulateTree {
    const tree: PopulateTree = {};
    if (value === undefined || value === '') return tree;
    if (typeof value === 'string') {
      for (const name of value.split(',')) this.addPath(tree, model, name.trim(), path);
      return tree;
    }
    const list = asList(value);
    if (list) {
      list.forEach((item, index) => {
        if (typeof item === 'string') for (const name of item.split(',')) this.addPath(tree, model, name.trim(), path);
        else if (isPlainObject(item)) Object.assign(tree, this.parse(model, item, path));
        else fail([...path, index], 'populate items must be attribute names');
      });
      return tree;
    }
    if (typeof value === 'boolean') return value ? this.star(model) : tree;
    if (!isPlainObject(value)) fail(path, 'populate must be *, an attribute name, a list or an object');
    for (const [key, inner] of Object.entries(value)) {
      const where = [...path, key];
      if (key === '*') {
        if (asBoolean(inner) !== false) Object.assign(tree, this.star(model));
        continue;
      }
      // Strapi 5.54's populate traversal skips the keywords sort, filters and fields where they
      // are not attributes, and anywhere below an attribute's populate: a route middleware's
      // `seo: { populate: { fields: [...] } }` populates seo whole.
      if (QUERY_KEYWORDS.has(key) && (!(key in model.attributes) || path.length > 1)) continue;
      // A relation to a type of Strapi's own (admin::user) is answered without it, as Strapi's content API.
      if (model.unserved?.has(key)) continue;
      const attribute = this.resolve(model, key, where);
      const toggle = typeof inner === 'string' || typeof inner === 'boolean' ? asBoolean(inner) : undefined;
      if (toggle === false) continue;
      if (toggle === true || inner === '*') tree[key] = {};
      else if (isPlainObject(inner)) tree[key] = this.node(model, attribute, inner, where);
      else fail(where, `populate.${key} must be true, false or an object`);
    }
    return tree;
  }

  private count(path: Path): void {
    this.nodes += 1;
    if (this.nodes > MAX_POPULATE_NODES) fail(path, `Too many populated attributes (more than ${MAX_POPULATE_NODES})`);
  }

  /** `*`: every relation, component, dynamic zone and media attribute, one level, and (as Strapi) `localizations` of localized types. */
  private star(model: Model): PopulateTree {
    const tree: PopulateTree = {};
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind === 'scalar' || (isHidden(attribute) && !this.options.hidden)) continue;
      if (attribute.kind === 'media' && !this.schema.contentTypes.has(FILE_UID)) continue;
      tree[attribute.name] = {};
    }
    // Strapi 5.54 answers `*` with the creator fields after the attributes, where the type shows them.
    if (isCreatorField(model, 'createdBy')) {
      tree.createdBy = {};
      tree.updatedBy = {};
    }
    if (model.modelType === 'contentType' && model.localized) tree.localizations = {};
    return tree;
  }

  /** The populatable attribute `name` of `model` (or `localizations`), else a 400. */
  private resolve(model: Model, name: string, path: Path): Populatable {
    this.count(path);
    if (name === 'localizations' && model.modelType === 'contentType' && model.localized) return 'localizations';
    if (isCreatorField(model, name)) return name;
    const attribute = model.attributes[name];
    if (!attribute || (isHidden(attribute) && !this.options.hidden)) fail(path, `Invalid key ${name} in populate`);
    if (attribute.kind === 'scalar')
      fail(path, `Invalid populate key ${name}: it is not a relation, component, dynamic zone or media`);
    return attribute;
  }

  /** The model an attribute's values are rows of (a zone has several: undefined). */
  private targetOf(model: Model, attribute: Populatable): Model | undefined {
    if (attribute === 'localizations') return model;
    if (attribute === 'createdBy' || attribute === 'updatedBy') return CREATOR_MODEL;
    switch (attribute.kind) {
      case 'relation':
        return this.schema.contentTypes.get(attribute.target);
      case 'component':
        return this.schema.components.get(attribute.component);
      case 'media':
        return this.schema.contentTypes.get(FILE_UID);
      case 'dynamiczone':
        return undefined;
    }
  }

  /** A dot path (`seo.shareImage`) adds each step. */
  private addPath(tree: PopulateTree, model: Model, dotted: string, path: Path): void {
    if (!dotted) return;
    if (dotted === '*') {
      for (const [name, node] of Object.entries(this.star(model))) tree[name] ??= node;
      return;
    }
    const [name, ...rest] = dotted.split('.');
    if (model.unserved?.has(name!)) return;
    const where = [...path, name!];
    const attribute = this.resolve(model, name!, where);
    const node = (tree[name!] ??= {});
    if (rest.length === 0) return;
    if (typeof attribute !== 'string' && attribute.kind === 'dynamiczone') {
      const sub = this.zonePopulate(attribute.components, rest.join('.'), [...where, 'populate']);
      node.populate = { ...node.populate, ...sub };
      return;
    }
    const target = this.targetOf(model, attribute);
    if (!target) fail(where, `Cannot populate below ${name}`);
    node.populate ??= {};
    this.addPath(node.populate, target, rest.join('.'), [...where, 'populate']);
  }

  /** Shared strategy of a dynamic zone: names valid in at least one of its components. */
  private zonePopulate(uids: string[], value: unknown, path: Path): PopulateTree {
    const tree: PopulateTree = {};
    let lastError: unknown;
    let matched = 0;
    for (const uid of uids) {
      const component = this.schema.components.get(uid)!;
      try {
        Object.assign(tree, this.parse(component, value, path));
        matched += 1;
      } catch (error) {
        lastError = error;
      }
    }
    if (matched === 0) throw lastError;
    return tree;
  }

  private node(model: Model, attribute: Populatable, value: Record<string, unknown>, path: Path): PopulateNode {
    const node: PopulateNode = {};
    const kind = typeof attribute === 'string' ? 'relation' : attribute.kind;
    for (const key of Object.keys(value))
      if (!NODE_KEYS.has(key))
        fail([...path, key], `Invalid key ${key} in populate (use fields, filters, sort, populate, on or count)`);
    if (typeof attribute !== 'string' && attribute.kind === 'dynamiczone') {
      // Strapi accepts `count` on a zone and answers the zone itself.
      for (const key of ['fields', 'filters', 'sort'])
        if (value[key] !== undefined)
          fail([...path, key], `${key} does not apply to the dynamic zone ${attribute.name}; use on`);
      if (value.count !== undefined && asBoolean(value.count) === undefined)
        fail([...path, 'count'], 'count must be true or false');
      if (value.populate !== undefined)
        node.populate = this.zonePopulate(attribute.components, value.populate, [...path, 'populate']);
      if (value.on !== undefined) {
        // An empty `on` names no component: the zone answers none (as Strapi).
        if (!isPlainObject(value.on) && value.on !== '')
          fail([...path, 'on'], 'on must map component uids to their populate');
        node.on = {};
        if (value.on === '') return node;
        for (const [uid, inner] of Object.entries(value.on)) {
          const where = [...path, 'on', uid];
          if (!attribute.components.includes(uid))
            fail(where, `${uid} is not a component of the dynamic zone ${attribute.name}`);
          const component = this.schema.components.get(uid)!;
          const toggle = asBoolean(inner);
          if (toggle === false) continue;
          node.on[uid] =
            toggle === true || inner === '*'
              ? {}
              : isPlainObject(inner)
                ? this.componentNode(component, inner, where)
                : fail(where, 'on entries must be objects');
        }
      }
      return node;
    }
    const target = this.targetOf(model, attribute);
    if (value.on !== undefined) fail([...path, 'on'], 'on only applies to dynamic zones');
    if (value.count !== undefined) {
      if (kind !== 'relation' && kind !== 'component')
        fail([...path, 'count'], 'count only applies to relations and components');
      const flag = asBoolean(value.count);
      if (flag === undefined) fail([...path, 'count'], 'count must be true or false');
      if (flag) node.count = true;
    }
    const limit = (value as Record<symbol, unknown>)[PER_OWNER_LIMIT];
    if (typeof limit === 'number' && Number.isInteger(limit) && limit >= 0 && kind !== 'dynamiczone')
      node.limit = limit;
    if (!target) return node;
    if (value.fields !== undefined) node.fields = parseFields(target, value.fields, [...path, 'fields']);
    if (value.filters !== undefined)
      node.filters = new FilterParser(this.schema, this.options).parse(target, value.filters, [...path, 'filters']);
    if (value.sort !== undefined)
      node.sort = parseSort(this.schema, target, value.sort, this.options, [...path, 'sort']);
    if (value.populate !== undefined) {
      const toggle =
        typeof value.populate === 'string' && value.populate !== '*' ? undefined : asBoolean(value.populate);
      node.populate =
        toggle === false
          ? {}
          : value.populate === '*' || toggle === true
            ? this.star(target)
            : this.parse(target, value.populate, [...path, 'populate']);
    }
    return node;
  }

  /**
   * One component of a zone's `on`: fields, populate and filters (a component that does not match
   * is left out). Strapi also accepts `sort` and `count` there and ignores them: the zone keeps its
   * order and lists its components.
   */
  private componentNode(component: Model, value: Record<string, unknown>, path: Path): PopulateNode {
    const node: PopulateNode = {};
    for (const key of Object.keys(value))
      if (!['fields', 'populate', 'filters', 'sort', 'count'].includes(key))
        fail([...path, key], `Invalid key ${key} (use fields, populate or filters)`);
    if (value.sort !== undefined) parseSort(this.schema, component, value.sort, this.options, [...path, 'sort']);
    if (value.count !== undefined && asBoolean(value.count) === undefined)
      fail([...path, 'count'], 'count must be true or false');
    if (value.filters !== undefined)
      node.filters = new FilterParser(this.schema, this.options).parse(component, value.filters, [...path, 'filters']);
    if (value.fields !== undefined) node.fields = parseFields(component, value.fields, [...path, 'fields']);
    if (value.populate !== undefined)
      node.populate =
        value.populate === '*' ? this.star(component) : this.parse(component, value.populate, [...path, 'populate']);
    return node;
  }
}
