/**
 * The in-memory model of a project's content-types and components, built once at start-up from
 * the schema files (see load.ts). Everything below (database, documents, query, REST, GraphQL)
 * reads this model; nothing reads the JSON files again.
 */

export const SCALAR_TYPES = [
  'string',
  'text',
  'richtext',
  'blocks',
  'enumeration',
  'email',
  'password',
  'uid',
  'date',
  'time',
  'datetime',
  'timestamp',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'json',
] as const;
export type ScalarType = (typeof SCALAR_TYPES)[number];

export const RELATION_KINDS = [
  'oneToOne',
  'oneToMany',
  'manyToOne',
  'manyToMany',
  'oneWay',
  'manyWay',
  'morphToOne',
  'morphToMany',
  'morphOne',
  'morphMany',
] as const;
export type RelationKind = (typeof RELATION_KINDS)[number];

interface AttributeBase {
  name: string;
  required: boolean;
  /** Never returned, filtered or sorted on (passwords are always private). */
  private: boolean;
  /** For localized content-types: false when the value is shared by every locale of a document. */
  localized: boolean;
  configurable: boolean;
}

export interface ScalarAttribute extends AttributeBase {
  kind: 'scalar';
  type: ScalarType;
  column: string;
  unique: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  regex?: RegExp;
  enum?: string[];
  /** uid only: the attribute the uid is generated from when omitted. */
  targetField?: string;
  /** `searchable: false` keeps the attribute out of `_q`. */
  searchable?: false;
}

/**
 * Relations are stored in a link table owned by the side that declares `inversedBy` (or by the only
 * side of a one-way relation). A link row joins an owner row id to a target document (documentId
 * and locale), so a version links to "that document", and reads pick the target version matching
 * the request's status; publishing a target never has to rewrite links.
 */
export interface LinkTable {
  table: string;
  /** uid and attribute of the side that owns the link table. */
  ownerUid: string;
  ownerAttribute: string;
  targetUid: string;
  /** Attribute on the target that mirrors this one (`inversedBy`), if any. */
  inverseAttribute?: string;
  /** Owner side is to-many (its order column matters). */
  ownerToMany: boolean;
  /** Target side is to-many (an inverse order column matters). */
  targetToMany: boolean;
}

export interface RelationAttribute extends AttributeBase {
  kind: 'relation';
  relation: RelationKind;
  target: string;
  inversedBy?: string;
  mappedBy?: string;
  /** This side holds many targets. */
  toMany: boolean;
  /** True when this attribute's side owns the link table. */
  owner: boolean;
  link: LinkTable;
}

export interface ComponentAttribute extends AttributeBase {
  kind: 'component';
  component: string;
  repeatable: boolean;
  min?: number;
  max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  kind: 'dynamiczone';
  components: string[];
  min?: number;
  max?: number;
}

export interface MediaAttribute extends AttributeBase {
  kind: 'media';
  multiple: boolean;
  allowedTypes: string[] | null;
}

export type Attribute =
  ScalarAttribute | RelationAttribute | ComponentAttribute | DynamicZoneAttribute | MediaAttribute;

/** What content-types and components share: a table of rows with attributes. */
interface ModelBase {
  uid: string;
  displayName: string;
  collectionName: string;
  table: string;
  /** Link table from this model's rows to their component rows (components and dynamic zones). */
  componentLinkTable: string;
  attributes: Record<string, Attribute>;
  /** Scalar attributes in declaration order, for column lists. */
  scalars: ScalarAttribute[];
  file: string;
  /**
   * Relations to Strapi's own types (`admin::user`, ...) that the schema declares and Vellum does
   * not serve: a populate naming one is answered without it, as Strapi's content API does.
   */
  unserved?: Set<string>;
}

export interface ContentType extends ModelBase {
  modelType: 'contentType';
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
  populateCreatorFields: boolean;
  /**
   * `pluginOptions['content-manager'].visible` (default true): false keeps the type out of the
   * content manager's navigation (Strapi's `isDisplayed`), its API and relations unchanged.
   */
  managerVisible: boolean;
  /** `pluginOptions['content-type-builder'].visible` (default true), which Strapi's key statistics count by. */
  builderVisible: boolean;
  /** Built-in types (users, files) are not served by the generic content API. */
  builtIn: boolean;
}

export interface Component extends ModelBase {
  modelType: 'component';
  category: string;
}

export type Model = ContentType | Component;

export interface Schema {
  contentTypes: Map<string, ContentType>;
  components: Map<string, Component>;
  /** `pluralName` and `singularName` to the project's content-types (built-in types route on their own). */
  byPluralName: Map<string, ContentType>;
  bySingularName: Map<string, ContentType>;
  /** Every link table, once. */
  linkTables: LinkTable[];
}

/** The media library's file type, which media attributes link to. */
export const FILE_UID = 'plugin::upload.file';

export function getModel(schema: Schema, uid: string): Model {
  const model = schema.contentTypes.get(uid) ?? schema.components.get(uid);
  if (!model) throw new Error(`unknown model ${uid}`);
  return model;
}

export const isToManyRelation = (relation: RelationKind): boolean =>
  relation === 'oneToMany' ||
  relation === 'manyToMany' ||
  relation === 'manyWay' ||
  relation === 'morphToMany' ||
  relation === 'morphMany';

/** Attributes that never leave the server. */
export const isHidden = (attribute: Attribute): boolean =>
  attribute.private || (attribute.kind === 'scalar' && attribute.type === 'password');
