/**
 * The GraphQL types of content-types and components (docs/graphql.md "Operations per
 * content-type"), in either shape: the earlier one (`<Name>Entity { id attributes }`, responses wrapping `data`) or Strapi 5's flat
 * one (documents with `documentId`, lists, `_connection` fields with `nodes`).
 */
import {
  GraphQLEnumType,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfigMap,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';
import type { Document } from '../../../core/documents/rows.js';
import {
  FILE_UID,
  isHidden,
  type Attribute,
  type Component,
  type ContentType,
  type Model,
  type ScalarAttribute,
  type Schema,
} from '../../../core/schema/model.js';
import type { ShadowCrud } from '../extension.js';
import { enumTypeName, enumValueName, typeName, zoneTypeName } from '../naming.js';
import { DateTimeScalar, JSONScalar } from '../scalars.js';
import { paginateList } from '../resolvers/pagination.js';
import { filterAndSortComponents } from '../resolvers/component-list.js';
import {
  DeleteMutationResponse,
  ErrorType,
  filterInputOf,
  filterInputs,
  listArgs,
  Pagination,
  ResponseCollectionMeta,
  scalarOf,
} from './common.js';

const SYSTEM_DATES = ['createdAt', 'updatedAt', 'publishedAt'] as const;

export type Shape = 'v4' | 'flat';

/** What the find resolvers return; the shapes present it differently. */
export interface FindResult {
  results: Document[];
  pagination: Record<string, number>;
}

type Source = Record<string, unknown>;

export class ModelTypes {
  private readonly objects = new Map<string, GraphQLObjectType>();
  private readonly inputs = new Map<string, GraphQLInputObjectType>();
  private readonly enums = new Map<string, GraphQLEnumType>();
  private readonly unions = new Map<string, GraphQLUnionType>();
  private readonly zoneInputs = new Map<string, GraphQLScalarType>();
  /** The `JSON` scalar, for the root fields other features add (users-permissions' role input). */
  readonly json = JSONScalar;

  constructor(
    private readonly schema: Schema,
    readonly shape: Shape,
    private readonly shadow: ShadowCrud,
    private readonly amountLimit: number,
    /** Built-in content-types served as the project's are (users-permissions' users and roles). */
    private readonly builtIns: ReadonlySet<string> = new Set(),
  ) {}

  /** Whether a content-type takes part in the schema at all. */
  isExposed(uid: string): boolean {
    if (uid === FILE_UID) return this.schema.contentTypes.has(uid);
    const type = this.schema.contentTypes.get(uid);
    return (
      !!type && (!type.builtIn || this.builtIns.has(uid)) && this.shadow.enabled && this.shadow.type(uid).isEnabled()
    );
  }

  /** Every object type built so far (for the schema's `types`, e.g. `GenericMorph`). */
  allObjects(): GraphQLObjectType[] {
    return [...this.objects.values()];
  }

  private object(name: string, build: () => GraphQLObjectType): GraphQLObjectType {
    let type = this.objects.get(name);
    if (!type) {
      type = build();
      this.objects.set(name, type);
    }
    return type;
  }

  private input(name: string, build: () => GraphQLInputObjectType): GraphQLInputObjectType {
    let type = this.inputs.get(name);
    if (!type) {
      type = build();
      this.inputs.set(name, type);
    }
    return type;
  }

  private field(model: Model, name: string) {
    return model.modelType === 'contentType' ? this.shadow.field(model.uid, name) : undefined;
  }

  private visible(model: Model): Attribute[] {
    return Object.values(model.attributes).filter((attribute) => {
      if (isHidden(attribute)) return false;
      if (attribute.kind === 'relation' && !this.isExposed(attribute.target)) return false;
      if (attribute.kind === 'media' && !this.isExposed(FILE_UID)) return false;
      return true;
    });
  }

  enumOf(model: Model, attribute: ScalarAttribute): GraphQLEnumType {
    const name = enumTypeName(model, attribute);
    let type = this.enums.get(name);
    if (!type) {
      const values = Object.fromEntries((attribute.enum ?? []).map((value) => [enumValueName(value), { value }]));
      type = new GraphQLEnumType({ name, values });
      this.enums.set(name, type);
    }
    return type;
  }

  private scalarOutput(model: Model, attribute: ScalarAttribute): GraphQLOutputType {
    const type = attribute.type === 'enumeration' ? this.enumOf(model, attribute) : scalarOf(attribute.type);
    return attribute.required ? new GraphQLNonNull(type) : type;
  }

  // ---- output types ----

  /** `<Name>` (a content-type's or component's attributes). */
  modelType(model: Model): GraphQLObjectType {
    const name = typeName(model);
    return this.object(name, () => new GraphQLObjectType({ name, fields: () => this.modelFields(model) }));
  }

  private modelFields(model: Model): GraphQLFieldConfigMap<Source, unknown> {
    const fields: GraphQLFieldConfigMap<Source, unknown> = {};
    if (model.modelType === 'component') fields.id = { type: new GraphQLNonNull(GraphQLID) };
    else if (this.shape === 'flat') fields.documentId = { type: new GraphQLNonNull(GraphQLID) };
    for (const attribute of this.visible(model)) {
      if (this.field(model, attribute.name)?.hasOutputEnabled() === false) continue;
      Object.assign(fields, this.attributeFields(model, attribute));
    }
    if (model.modelType === 'contentType') {
      for (const date of SYSTEM_DATES) fields[date] = { type: DateTimeScalar };
      if (model.localized) {
        fields.locale = { type: GraphQLString };
        Object.assign(fields, this.relationFields('localizations', model, true));
      }
    }
    return fields;
  }

  private attributeFields(model: Model, attribute: Attribute): GraphQLFieldConfigMap<Source, unknown> {
    switch (attribute.kind) {
      case 'scalar':
        return { [attribute.name]: { type: this.scalarOutput(model, attribute) } };
      case 'relation':
        return this.relationFields(attribute.name, this.schema.contentTypes.get(attribute.target)!, attribute.toMany);
      case 'media':
        return this.relationFields(attribute.name, this.schema.contentTypes.get(FILE_UID)!, attribute.multiple);
      case 'component': {
        const component = this.componentType(attribute.component);
        if (!attribute.repeatable)
          return { [attribute.name]: { type: attribute.required ? new GraphQLNonNull(component) : component } };
        if (this.shape === 'flat') {
          // Strapi 5 filters and sorts a component list per field; it was read whole (selection.ts).
          const model = this.schema.components.get(attribute.component)!;
          return {
            [attribute.name]: {
              type: new GraphQLList(component),
              args: listArgs(this.filtersInput(model)),
              resolve: (source, args) =>
                paginateList(
                  filterAndSortComponents(source[attribute.name] as unknown[] | undefined, args.filters, args.sort),
                  args.pagination,
                  this.amountLimit,
                ),
            },
          };
        }
        return {
          [attribute.name]: {
            type: new GraphQLList(component),
            args: { pagination: listArgs(GraphQLString).pagination },
            resolve: (source, args) =>
              paginateList(source[attribute.name] as unknown[] | undefined, args.pagination, this.amountLimit),
          },
        };
      }
      case 'dynamiczone': {
        const list = new GraphQLList(this.zoneType(model, attribute.name, attribute.components));
        // Strapi 5: a required zone is a non-null list (it answers [] when empty).
        if (this.shape !== 'flat' || !attribute.required) return { [attribute.name]: { type: list } };
        return {
          [attribute.name]: { type: new GraphQLNonNull(list), resolve: (source) => source[attribute.name] ?? [] },
        };
      }
    }
  }

  private componentType(uid: string): GraphQLObjectType {
    return this.modelType(this.schema.components.get(uid)!);
  }

  /** A relation (or media) field: to-one and to-many, in the shape's way. */
  private relationFields(name: string, target: ContentType, toMany: boolean): GraphQLFieldConfigMap<Source, unknown> {
    const value = (source: Source) => source[name];
    if (!toMany) {
      if (this.shape === 'flat')
        return { [name]: { type: this.modelType(target), resolve: (source) => value(source) ?? null } };
      return { [name]: { type: this.entityResponse(target), resolve: (source) => ({ data: value(source) ?? null }) } };
    }
    const args = listArgs(this.filtersInput(target));
    const page = (source: Source, args: Record<string, unknown>) =>
      paginateList(value(source) as unknown[] | undefined, args.pagination, this.amountLimit);
    const collection = this.relationCollection(target);
    if (this.shape === 'v4')
      return { [name]: { type: collection, args, resolve: (source, args) => ({ data: page(source, args) }) } };
    return {
      [name]: { type: new GraphQLNonNull(new GraphQLList(this.modelType(target))), args, resolve: page },
      [`${name}_connection`]: { type: collection, args, resolve: (source, args) => ({ nodes: page(source, args) }) },
    };
  }

  private zoneType(model: Model, attribute: string, components: string[]): GraphQLUnionType {
    const name = zoneTypeName(model, attribute);
    let union = this.unions.get(name);
    if (!union) {
      const byUid = new Map(components.map((uid) => [uid, typeName(this.schema.components.get(uid)!)]));
      union = new GraphQLUnionType({
        name,
        types: () => [...components.map((uid) => this.componentType(uid)), ErrorType],
        resolveType: (value: Source) => byUid.get(value.__component as string) ?? 'Error',
      });
      this.unions.set(name, union);
    }
    return union;
  }

  /** `<Name>Entity { id attributes }` (earlier shape only): `id` carries the documentId. */
  entity(type: ContentType): GraphQLObjectType {
    const name = `${typeName(type)}Entity`;
    return this.object(
      name,
      () =>
        new GraphQLObjectType<Document>({
          name,
          fields: () => ({
            id: { type: GraphQLID, resolve: (document) => (type.uid === FILE_UID ? document.id : document.documentId) },
            attributes: { type: this.modelType(type), resolve: (document) => document },
          }),
        }),
    );
  }

  entityResponse(type: ContentType): GraphQLObjectType {
    const name = `${typeName(type)}EntityResponse`;
    return this.object(
      name,
      () => new GraphQLObjectType({ name, fields: () => ({ data: { type: this.entity(type) } }) }),
    );
  }

  /** `<Name>EntityResponseCollection`: `data` + `meta` (spec), or `nodes` + `pageInfo` (flat). */
  entityResponseCollection(type: ContentType): GraphQLObjectType {
    const name = `${typeName(type)}EntityResponseCollection`;
    return this.object(name, () => {
      if (this.shape === 'v4') {
        return new GraphQLObjectType<FindResult>({
          name,
          fields: () => ({
            data: {
              type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.entity(type)))),
              resolve: (result) => result.results,
            },
            meta: {
              type: new GraphQLNonNull(ResponseCollectionMeta),
              resolve: (result) => ({ pagination: result.pagination }),
            },
          }),
        });
      }
      return new GraphQLObjectType<FindResult>({
        name,
        fields: () => ({
          nodes: {
            type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(this.modelType(type)))),
            resolve: (result) => result.results,
          },
          pageInfo: { type: new GraphQLNonNull(Pagination), resolve: (result) => result.pagination },
        }),
      });
    });
  }

  private relationCollection(type: ContentType): GraphQLObjectType {
    const name = `${typeName(type)}RelationResponseCollection`;
    const item = () => (this.shape === 'v4' ? this.entity(type) : this.modelType(type));
    const key = this.shape === 'v4' ? 'data' : 'nodes';
    return this.object(
      name,
      () =>
        new GraphQLObjectType({
          name,
          fields: () => ({ [key]: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item()))) } }),
        }),
    );
  }

  deleteResponse(type: ContentType): GraphQLObjectType {
    return this.shape === 'v4' ? this.entityResponse(type) : DeleteMutationResponse;
  }

  // ---- input types ----

  /** `<Name>FiltersInput`: a filter input per attribute, relations and components nested. */
  filtersInput(model: Model): GraphQLInputObjectType {
    const name = `${typeName(model)}FiltersInput`;
    return this.input(name, () => {
      const type: GraphQLInputObjectType = new GraphQLInputObjectType({
        name,
        fields: () => {
          const fields: GraphQLInputFieldConfigMap = {};
          // Strapi 5's component filters have no `id`.
          if (model.modelType === 'component') {
            if (this.shape === 'v4') fields.id = { type: filterInputs.ID };
          } else
            fields[this.shape === 'v4' && model.uid !== FILE_UID ? 'id' : 'documentId'] = { type: filterInputs.ID };
          for (const attribute of this.visible(model)) {
            if (this.field(model, attribute.name)?.hasFiltersEnabled() === false) continue;
            if (attribute.kind === 'scalar') fields[attribute.name] = { type: filterInputOf(attribute.type) };
            else if (attribute.kind === 'relation')
              fields[attribute.name] = { type: this.filtersInput(this.schema.contentTypes.get(attribute.target)!) };
            else if (attribute.kind === 'component')
              fields[attribute.name] = { type: this.filtersInput(this.schema.components.get(attribute.component)!) };
          }
          if (model.modelType === 'contentType') {
            for (const date of SYSTEM_DATES) fields[date] = { type: filterInputs.DateTime };
            if (model.localized) fields.locale = { type: filterInputs.String };
          }
          fields.and = { type: new GraphQLList(type) };
          fields.or = { type: new GraphQLList(type) };
          fields.not = { type };
          return fields;
        },
      });
      return type;
    });
  }

  /** `<Name>Input`: every attribute; relations and media by id, components nested. */
  dataInput(model: Model): GraphQLInputObjectType {
    const name = `${typeName(model)}Input`;
    return this.input(
      name,
      () =>
        new GraphQLInputObjectType({
          name,
          fields: () => {
            const fields: GraphQLInputFieldConfigMap = {};
            if (model.modelType === 'component') fields.id = { type: GraphQLID };
            for (const attribute of Object.values(model.attributes)) {
              if (attribute.kind === 'relation' && !this.isExposed(attribute.target)) continue;
              if (attribute.kind === 'media' && !this.isExposed(FILE_UID)) continue;
              if (this.field(model, attribute.name)?.hasInputEnabled() === false) continue;
              fields[attribute.name] = { type: this.attributeInput(model, attribute) };
            }
            if (model.modelType === 'contentType' && this.shape === 'v4')
              for (const date of SYSTEM_DATES) fields[date] = { type: DateTimeScalar };
            else if (model.modelType === 'contentType') {
              // As Strapi 5's: `publishedAt` (ignored: `status` decides), and `locale` on a type without i18n.
              fields.publishedAt = { type: DateTimeScalar };
              if (!model.localized) fields.locale = { type: GraphQLString };
            }
            return fields;
          },
        }),
    );
  }

  private attributeInput(model: Model, attribute: Attribute): GraphQLInputType {
    switch (attribute.kind) {
      case 'scalar':
        return attribute.type === 'enumeration' ? this.enumOf(model, attribute) : scalarOf(attribute.type);
      case 'relation':
        return attribute.toMany ? new GraphQLList(GraphQLID) : GraphQLID;
      case 'media':
        return attribute.multiple ? new GraphQLList(GraphQLID) : GraphQLID;
      case 'component': {
        const input = this.dataInput(this.schema.components.get(attribute.component)!);
        return attribute.repeatable ? new GraphQLList(input) : input;
      }
      case 'dynamiczone': {
        const name = `${zoneTypeName(model, attribute.name)}Input`;
        let scalar = this.zoneInputs.get(name);
        if (!scalar) this.zoneInputs.set(name, (scalar = zoneInputScalar(name)));
        return new GraphQLList(new GraphQLNonNull(scalar));
      }
    }
  }

  /** Component type names to uids, for dynamic-zone inputs written with `__typename`. */
  componentUidsByTypeName(): Map<string, string> {
    return new Map(
      [...this.schema.components.values()].map((component: Component) => [typeName(component), component.uid]),
    );
  }
}

/** Dynamic-zone entries are JSON objects naming their component (`__typename` or `__component`). */
function zoneInputScalar(name: string) {
  return new GraphQLScalarType({
    name,
    serialize: JSONScalar.serialize,
    parseValue: JSONScalar.parseValue,
    parseLiteral: JSONScalar.parseLiteral,
  });
}
