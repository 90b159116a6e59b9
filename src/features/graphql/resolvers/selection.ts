/**
 * From a GraphQL selection to the REST `populate` and `fields` of the same documents, so that one
 * document-service call reads every nested level in batched statements: nested fields then only
 * read properties of what was fetched (no resolver touches the database below the root).
 */
import {
  getArgumentValues,
  getDirectiveValues,
  GraphQLIncludeDirective,
  GraphQLObjectType,
  GraphQLSkipDirective,
  Kind,
  type FieldNode,
  type GraphQLField,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import { ValidationError } from '../../../core/errors.js';
import { PER_OWNER_LIMIT } from '../../../core/query/parse/populate.js';
import { FILE_UID, type ContentType, type Model, type Schema } from '../../../core/schema/model.js';
import { typeName } from '../naming.js';
import type { Shape } from '../schema/types.js';
import { toRestFilters } from './args.js';
import { pageWindow } from './pagination.js';

/** What `qs` would give for `fields` and `populate` of one level. */
export interface RestSelection {
  /** Undefined: every scalar (a field added by an extension may read any of them). */
  fields?: string[];
  populate: Record<string, RestPopulateNode>;
}

interface RestPopulateNode {
  fields?: string[];
  populate?: Record<string, RestPopulateNode>;
  filters?: Record<string, unknown>;
  sort?: string[];
  on?: Record<string, { fields?: string[]; populate?: Record<string, RestPopulateNode> }>;
  /** The items per owner the nested pages of this field show at most: no more are read. */
  [PER_OWNER_LIMIT]?: number;
}

const SYSTEM_FIELDS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);
const IGNORED = new Set(['__typename', 'id', 'documentId']);

type FieldMap = Map<string, FieldNode[]>;

export class SelectionReader {
  constructor(
    private readonly schema: Schema,
    private readonly shape: Shape,
    /** The most items a nested list shows. */
    private readonly amountLimit: number,
  ) {}

  /**
   * The selection of the documents under the root field, reached through `path` (`data`,
   * `attributes` in the earlier shape; `nodes` on a connection; nothing when flat).
   */
  read(info: GraphQLResolveInfo, type: ContentType, path: string[]): RestSelection {
    let nodes: readonly FieldNode[] = info.fieldNodes;
    for (const step of path) {
      nodes = this.collect(info, nodes).get(step) ?? [];
      if (nodes.length === 0) return { fields: [], populate: {} };
    }
    return this.model(info, type, nodes);
  }

  /** Whether a sub-field of the root field is selected (e.g. `meta` for the count). */
  selects(info: GraphQLResolveInfo, name: string): boolean {
    return this.collect(info, info.fieldNodes).has(name);
  }

  private model(info: GraphQLResolveInfo, model: Model, nodes: readonly FieldNode[]): RestSelection {
    const selection: RestSelection = { fields: [], populate: {} };
    const graphqlType = info.schema.getType(typeName(model));
    const definitions = graphqlType instanceof GraphQLObjectType ? graphqlType.getFields() : {};
    let custom = false;
    for (const [name, fieldNodes] of this.collect(info, nodes, typeName(model))) {
      if (IGNORED.has(name)) continue;
      if (model.modelType === 'contentType' && SYSTEM_FIELDS.has(name)) {
        selection.fields!.push(name);
        continue;
      }
      const attributeName = name.endsWith('_connection') ? name.slice(0, -'_connection'.length) : name;
      const attribute = model.attributes[attributeName];
      let target: ContentType | undefined;
      if (attributeName === 'localizations' && model.modelType === 'contentType' && model.localized) target = model;
      else if (!attribute) {
        // A field added by an extension: its resolver may read any attribute of the parent.
        if (definitions[name]) custom = true;
        continue;
      } else if (attribute.kind === 'scalar') {
        selection.fields!.push(name);
        continue;
      } else if (attribute.kind === 'relation') target = this.schema.contentTypes.get(attribute.target);
      else if (attribute.kind === 'media') target = this.schema.contentTypes.get(FILE_UID);
      else if (attribute.kind === 'component') {
        const component = this.schema.components.get(attribute.component)!;
        const node: RestPopulateNode = this.model(info, component, fieldNodes);
        const conditions = this.componentConditions(info, definitions[name], fieldNodes);
        if (conditions) {
          // Filtered or sorted by its field's resolver: every item, with what the conditions name.
          delete node.fields;
          this.populateFiltered(component, conditions, node);
        } else {
          const limit = this.perOwnerLimit(info, definitions[name], fieldNodes);
          if (limit !== undefined) node[PER_OWNER_LIMIT] = limit;
        }
        this.merge(selection, attributeName, node);
        continue;
      } else {
        const on: RestPopulateNode['on'] = {};
        for (const uid of attribute.components)
          on[uid] = this.model(info, this.schema.components.get(uid)!, fieldNodes);
        selection.populate[attributeName] = { on };
        continue;
      }
      if (!target) continue;
      const inner = this.documentsBelow(info, fieldNodes, name !== attributeName);
      const node: RestPopulateNode = this.model(info, target, inner);
      const definition = definitions[name];
      if (definition && definition.args.length > 0) {
        const args = getArgumentValues(definition, fieldNodes[0]!, info.variableValues);
        if (args.filters)
          node.filters = toRestFilters(this.schema, target, args.filters as Record<string, unknown>, this.shape);
        if (Array.isArray(args.sort) && args.sort.length > 0) node.sort = args.sort as string[];
      }
      const limit = this.perOwnerLimit(info, definition, fieldNodes);
      if (limit !== undefined) node[PER_OWNER_LIMIT] = limit;
      this.merge(selection, attributeName, node);
    }
    if (custom) delete selection.fields;
    return selection;
  }

  /** The `filters` of a repeatable component's fields (flat shape), or `{}` for a sort alone; undefined without either. */
  private componentConditions(
    info: GraphQLResolveInfo,
    definition: GraphQLField<unknown, unknown> | undefined,
    nodes: FieldNode[],
  ): Record<string, unknown>[] | undefined {
    if (!definition?.args.some((arg) => arg.name === 'filters')) return undefined;
    const found: Record<string, unknown>[] = [];
    for (const node of nodes) {
      const args = getArgumentValues(definition, node, info.variableValues);
      if (args.filters) found.push(args.filters as Record<string, unknown>);
      else if (Array.isArray(args.sort) && args.sort.length > 0) found.push({});
    }
    return found.length > 0 ? found : undefined;
  }

  /** Populates the nested components and relations that component filters name (every scalar of them). */
  private populateFiltered(model: Model, conditions: Record<string, unknown>[], node: RestPopulateNode): void {
    for (const condition of conditions) {
      for (const [key, value] of Object.entries(condition)) {
        if (!value || typeof value !== 'object') continue;
        if (key === 'and' || key === 'or' || key === 'not') {
          this.populateFiltered(model, (Array.isArray(value) ? value : [value]) as Record<string, unknown>[], node);
          continue;
        }
        const attribute = model.attributes[key];
        if (attribute?.kind !== 'component' && attribute?.kind !== 'relation') continue;
        node.populate ??= {};
        const inner: RestPopulateNode = node.populate[key] ?? {};
        delete inner.fields;
        if (attribute.kind === 'component')
          this.populateFiltered(
            this.schema.components.get(attribute.component)!,
            [value as Record<string, unknown>],
            inner,
          );
        node.populate[key] = inner;
      }
    }
  }

  /** Field nodes of the related documents below a relation field, per shape. */
  private documentsBelow(info: GraphQLResolveInfo, nodes: FieldNode[], connection: boolean): readonly FieldNode[] {
    if (this.shape === 'flat') return connection ? (this.collect(info, nodes).get('nodes') ?? []) : nodes;
    const data = this.collect(info, nodes).get('data') ?? [];
    return data.length ? (this.collect(info, data).get('attributes') ?? []) : [];
  }

  /**
   * A nested list's fields (aliases included) show at most `start + size` items of each owner:
   * the most of them is what is read. Undefined for a field without `pagination` (to-one).
   */
  private perOwnerLimit(
    info: GraphQLResolveInfo,
    definition: GraphQLField<unknown, unknown> | undefined,
    nodes: FieldNode[],
  ): number | undefined {
    if (!definition?.args.some((arg) => arg.name === 'pagination')) return undefined;
    let most = 0;
    for (const node of nodes) {
      const { start, size } = pageWindow(
        getArgumentValues(definition, node, info.variableValues).pagination,
        this.amountLimit,
      );
      most = Math.max(most, start + size);
    }
    return most;
  }

  /** Two fields reading one attribute (aliases, `x` and `x_connection`) read the union of both. */
  private merge(selection: RestSelection, name: string, node: RestPopulateNode): void {
    const existing = selection.populate[name];
    if (!existing) {
      selection.populate[name] = node;
      return;
    }
    existing.fields = existing.fields && node.fields ? [...new Set([...existing.fields, ...node.fields])] : undefined;
    existing.populate = { ...node.populate, ...existing.populate };
    // One read per relation: fields asking it for other items or another order cannot share it.
    if (
      JSON.stringify(existing.filters) !== JSON.stringify(node.filters) ||
      JSON.stringify(existing.sort) !== JSON.stringify(node.sort)
    ) {
      throw new ValidationError(
        `Fields reading the relation ${name} (aliases, ${name} and ${name}_connection) ask for different filters or sort in one query; ask for them in separate queries`,
        { param: name },
      );
    }
    const limits = [existing[PER_OWNER_LIMIT], node[PER_OWNER_LIMIT]];
    if (limits.every((limit) => limit !== undefined)) existing[PER_OWNER_LIMIT] = Math.max(...(limits as number[]));
    else delete existing[PER_OWNER_LIMIT];
  }

  /** Sub-fields of `nodes` by name, through fragments, honouring @skip and @include. */
  private collect(info: GraphQLResolveInfo, nodes: readonly FieldNode[], type?: string): FieldMap {
    const fields: FieldMap = new Map();
    const visit = (set: SelectionSetNode | undefined, seen: Set<string>) => {
      if (!set) return;
      for (const selection of set.selections) {
        if (!this.included(info, selection)) continue;
        if (selection.kind === Kind.FIELD) {
          const name = selection.name.value;
          const list = fields.get(name);
          if (list) list.push(selection);
          else fields.set(name, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (this.applies(info, selection.typeCondition?.name.value, type)) visit(selection.selectionSet, seen);
        } else {
          const name = selection.name.value;
          const fragment = info.fragments[name];
          if (!fragment || seen.has(name)) continue;
          if (this.applies(info, fragment.typeCondition.name.value, type))
            visit(fragment.selectionSet, new Set([...seen, name]));
        }
      }
    };
    for (const node of nodes) visit(node.selectionSet, new Set());
    return fields;
  }

  private applies(info: GraphQLResolveInfo, condition: string | undefined, type: string | undefined): boolean {
    if (!condition || !type || condition === type) return true;
    // A condition on a union or interface applies to its members; on another object type, never.
    return !(info.schema.getType(condition) instanceof GraphQLObjectType);
  }

  private included(
    info: GraphQLResolveInfo,
    node: { directives?: readonly import('graphql').DirectiveNode[] },
  ): boolean {
    if (!node.directives?.length) return true;
    const skip = getDirectiveValues(GraphQLSkipDirective, node, info.variableValues);
    if (skip?.if === true) return false;
    const include = getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues);
    return include?.if !== false;
  }
}
