import { ProjectError } from '../errors.js';
import {
  RELATION_KINDS,
  getModel,
  SCALAR_TYPES,
  isToManyRelation,
  type Attribute,
  type Component,
  type ContentType,
  type RelationAttribute,
  type RelationKind,
  type ScalarAttribute,
  type ScalarType,
  type Schema,
} from './model.js';
import { componentLinkTableName, identifier, linkTableName, snakeCase } from './naming.js';
import { componentUids } from './reachable.js';
import { isPlainObject } from '../objects.js';

/** A schema file as read from disk, before validation. */
export interface RawSchemaFile {
  file: string;
  uid: string;
  json: unknown;
}

/**
 * Names a content-type's attribute may not have: Strapi refuses `id` and `documentId` too, and the
 * snake-cased column names of the engine's own fields would collide with those columns.
 */
const RESERVED_CONTENT_TYPE_ATTRIBUTES = new Set([
  'id',
  'documentId',
  'document_id',
  'created_at',
  'updated_at',
  'published_at',
  'created_by_id',
  'updated_by_id',
  '__component',
]);
/**
 * Fields Strapi adds to every content-type over whatever the schema says (it assigns its own
 * definitions on top, silently): the schema's definition is ignored here as well.
 */
const ENGINE_FIELDS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);
const RESERVED_COMPONENT_ATTRIBUTES = new Set(['id', '__component']);
/** Whole-row columns that an attribute's column must not collide with. */
const SYSTEM_COLUMNS = new Set([
  'id',
  'document_id',
  'locale',
  'published_at',
  'created_at',
  'updated_at',
  'created_by_id',
  'updated_by_id',
]);

const KNOWN_TYPES = new Set<string>([
  ...SCALAR_TYPES,
  'relation',
  'component',
  'dynamiczone',
  'media',
  'array',
  'customField',
]);

type Json = Record<string, unknown>;

/** Receives one line per thing a schema asks for that Vellum does not honour (see `buildSchema`). */
export type SchemaWarn = (message: string) => void;

class SchemaFileReader {
  constructor(
    readonly file: string,
    private readonly sink: SchemaWarn,
  ) {}

  fail(message: string): never {
    throw new ProjectError(message, this.file);
  }

  warn(message: string): void {
    this.sink(`${this.file}: ${message}`);
  }

  object(value: unknown, what: string): Json {
    if (!isPlainObject(value)) this.fail(`${what} must be an object`);
    return value;
  }

  string(value: unknown, what: string): string {
    if (typeof value !== 'string' || value.length === 0) this.fail(`${what} must be a non-empty string`);
    return value;
  }

  /** Absent or null is no value, as Strapi reads it. */
  optionalString(value: unknown, what: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, what);
  }

  /** A number, or a string holding one (`"max": "10"` works in Strapi). */
  optionalNumber(value: unknown, what: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number)) this.fail(`${what} must be a number`);
    return number;
  }

  bool(value: unknown): boolean {
    return value === true;
  }
}

function isLocalizedAttribute(raw: Json, typeLocalized: boolean): boolean {
  if (!typeLocalized) return false;
  // Strapi's i18n rule (isLocalizedAttribute): relations and uids always belong to one locale,
  // whatever they say; any other attribute only with `localized: true`, else the locales share it.
  if (raw.type === 'relation' || raw.type === 'uid') return true;
  const plugin = isPlainObject(raw.pluginOptions) ? raw.pluginOptions : {};
  const i18n = isPlainObject(plugin.i18n) ? plugin.i18n : {};
  return i18n.localized === true;
}

function buildScalar(
  reader: SchemaFileReader,
  name: string,
  type: ScalarType,
  raw: Json,
  localized: boolean,
): ScalarAttribute {
  const where = `attribute "${name}"`;
  const attribute: ScalarAttribute = {
    kind: 'scalar',
    name,
    type,
    column: snakeCase(name),
    required: reader.bool(raw.required),
    private: reader.bool(raw.private) || type === 'password',
    localized,
    configurable: raw.configurable !== false,
    unique: reader.bool(raw.unique) || type === 'uid',
    min: reader.optionalNumber(raw.min, `${where} min`),
    max: reader.optionalNumber(raw.max, `${where} max`),
    minLength: reader.optionalNumber(raw.minLength, `${where} minLength`),
    maxLength: reader.optionalNumber(raw.maxLength, `${where} maxLength`),
  };
  if (raw.default !== undefined && raw.default !== null) attribute.default = raw.default;
  if (raw.searchable === false) attribute.searchable = false;
  const regex = reader.optionalString(raw.regex, `${where} regex`);
  if (regex !== undefined) {
    try {
      attribute.regex = new RegExp(regex);
    } catch (error) {
      // Strapi starts, then answers 500 to every write of the attribute.
      reader.warn(`${where} has an invalid regex (${(error as Error).message}); values are not checked against it`);
    }
  }
  if (type === 'enumeration') {
    const values = raw.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
      reader.fail(`${where} of type enumeration needs a non-empty "enum" array of strings`);
    }
    attribute.enum = values as string[];
    if (attribute.default !== undefined && !attribute.enum.includes(String(attribute.default))) {
      // Strapi keeps it and then refuses every write that omits the attribute.
      reader.warn(
        `${where} has the default ${JSON.stringify(attribute.default)}, which is not one of its values; it is ignored`,
      );
      delete attribute.default;
    }
  }
  const targetField = type === 'uid' ? reader.optionalString(raw.targetField, `${where} targetField`) : undefined;
  if (targetField !== undefined) attribute.targetField = targetField;
  return attribute;
}

/** Where each `customField` attribute came from, to build it again with its registered type. */
const CUSTOM_FIELDS = new WeakMap<
  ScalarAttribute,
  { uid: string; raw: Json; reader: SchemaFileReader; localized: boolean }
>();

/**
 * Gives each `customField` attribute the type registered for it (`strapi.customFields.register`,
 * run by the project's `register`): its column, validation and answers become that type's, with the
 * schema's own options (`required`, `maxLength`, `regex`, `enum`, ...). A custom field nothing
 * registers stays JSON, with one warning per custom field (Strapi stops at start-up instead).
 * Attributes change in place: every model holding them sees the change.
 */
export function resolveCustomFields(
  schema: Schema,
  typeOf: (uid: string) => ScalarType | undefined,
  warn: SchemaWarn,
): void {
  const missing = new Map<string, string[]>();
  for (const model of [...schema.components.values(), ...schema.contentTypes.values()]) {
    for (const attribute of model.scalars) {
      const source = CUSTOM_FIELDS.get(attribute);
      if (!source) continue;
      const type = typeOf(source.uid);
      if (!type) {
        const list = missing.get(source.uid) ?? [];
        list.push(`${source.reader.file} "${attribute.name}"`);
        missing.set(source.uid, list);
        continue;
      }
      const rebuilt = buildScalar(source.reader, attribute.name, type, source.raw, source.localized);
      for (const key of Object.keys(attribute)) delete (attribute as unknown as Json)[key];
      Object.assign(attribute, rebuilt);
      CUSTOM_FIELDS.delete(attribute);
    }
  }
  for (const [uid, where] of missing) {
    warn(
      `custom field ${uid} is not registered (its plugin is absent, or no register calls strapi.customFields.register for it): ${where.join(', ')} stored as JSON`,
    );
  }
}

interface PendingRelation {
  ownerUid: string;
  attribute: RelationAttribute;
  reader: SchemaFileReader;
}

function buildAttribute(
  reader: SchemaFileReader,
  ownerUid: string,
  ownerTable: string,
  name: string,
  rawValue: unknown,
  typeLocalized: boolean,
  pending: PendingRelation[],
): Attribute | undefined {
  const raw = reader.object(rawValue, `attribute "${name}"`);
  const type = raw.type;
  if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) {
    reader.fail(`attribute "${name}" has an unknown type ${JSON.stringify(type)}`);
  }
  const localized = isLocalizedAttribute(raw, typeLocalized);
  const base = {
    name,
    required: reader.bool(raw.required),
    private: reader.bool(raw.private),
    localized,
    configurable: raw.configurable !== false,
  };
  switch (type) {
    case 'relation': {
      const relation = raw.relation;
      if (typeof relation !== 'string' || !(RELATION_KINDS as readonly string[]).includes(relation)) {
        reader.fail(`attribute "${name}" has an unknown relation kind ${JSON.stringify(relation)}`);
      }
      if (relation.startsWith('morph')) {
        reader.warn(
          `attribute "${name}" is a polymorphic relation (${relation}), which Vellum does not serve; it is left out`,
        );
        return undefined;
      }
      const target = reader.string(raw.target, `attribute "${name}" target`);
      const inversedBy = reader.optionalString(raw.inversedBy, `attribute "${name}" inversedBy`);
      const mappedBy = reader.optionalString(raw.mappedBy, `attribute "${name}" mappedBy`);
      if (inversedBy && mappedBy) reader.fail(`attribute "${name}" cannot have both inversedBy and mappedBy`);
      const kind = relation as RelationKind;
      const attribute: RelationAttribute = {
        kind: 'relation',
        ...base,
        relation: kind,
        target,
        inversedBy,
        mappedBy,
        toMany: isToManyRelation(kind),
        owner: !mappedBy,
        // Filled in once every type is known (the inverse side shares the owner's table).
        link: {
          table: linkTableName(ownerTable, name),
          ownerUid,
          ownerAttribute: name,
          targetUid: target,
          inverseAttribute: inversedBy,
          ownerToMany: isToManyRelation(kind),
          targetToMany: kind === 'manyToOne' || kind === 'manyToMany',
        },
      };
      pending.push({ ownerUid, attribute, reader });
      return attribute;
    }
    case 'component': {
      const component = reader.string(raw.component, `attribute "${name}" component`);
      return {
        kind: 'component',
        ...base,
        component,
        repeatable: reader.bool(raw.repeatable),
        min: reader.optionalNumber(raw.min, `attribute "${name}" min`),
        max: reader.optionalNumber(raw.max, `attribute "${name}" max`),
      };
    }
    case 'dynamiczone': {
      const components = raw.components;
      // An empty list starts in Strapi: the zone then accepts no component.
      if (!Array.isArray(components) || !components.every((c) => typeof c === 'string')) {
        reader.fail(`attribute "${name}" of type dynamiczone needs a "components" array of component uids`);
      }
      return {
        kind: 'dynamiczone',
        ...base,
        components: components as string[],
        min: reader.optionalNumber(raw.min, `attribute "${name}" min`),
        max: reader.optionalNumber(raw.max, `attribute "${name}" max`),
      };
    }
    case 'media': {
      const allowed = raw.allowedTypes;
      if (
        allowed !== undefined &&
        allowed !== null &&
        (!Array.isArray(allowed) || !allowed.every((t) => typeof t === 'string'))
      ) {
        reader.fail(`attribute "${name}" allowedTypes must be an array of strings`);
      }
      return {
        kind: 'media',
        ...base,
        multiple: reader.bool(raw.multiple),
        allowedTypes: (allowed as string[] | null | undefined) ?? null,
      };
    }
    case 'array':
      // Strapi stores it as a JSON value.
      return buildScalar(reader, name, 'json', raw, localized);
    case 'customField': {
      // JSON until `resolveCustomFields` gives it the type its registration names.
      const attribute = buildScalar(reader, name, 'json', raw, localized);
      const uid = reader.optionalString(raw.customField, `attribute "${name}" customField`);
      if (uid === undefined)
        reader.warn(
          `attribute "${name}" of type customField names no customField (e.g. "plugin::color-picker.color"); stored as JSON`,
        );
      else CUSTOM_FIELDS.set(attribute, { uid, raw, reader, localized });
      return attribute;
    }
    default:
      return buildScalar(reader, name, type as ScalarType, raw, localized);
  }
}

/** What a content-type's attributes are checked against (components have none of these fields). */
interface DocumentOptions {
  localized: boolean;
  draftAndPublish: boolean;
}

/** False when the attribute is left out: the engine's own field of that name wins, as in Strapi. */
function keepDocumentAttribute(reader: SchemaFileReader, name: string, document: DocumentOptions): boolean {
  if (ENGINE_FIELDS.has(name)) return false;
  if (name === 'locale') {
    reader.warn('attribute "locale" is the name of the locale every document carries; the attribute is left out');
    return false;
  }
  if (name === 'localizations') {
    // Strapi refuses the key in every body ("Invalid key localizations"), localized type or not.
    reader.warn(
      'attribute "localizations" is the name of a localized document\'s other locales; the attribute is left out',
    );
    return false;
  }
  if (name === 'status' && document.draftAndPublish) {
    // Strapi's own warning: the attribute works, but `?status=` stays the publication state.
    reader.warn(
      'attribute "status" on a type with draft and publish: `status` in a query string is the publication state (draft or published), filter the attribute with filters[status]',
    );
  }
  return true;
}

function buildAttributes(
  reader: SchemaFileReader,
  uid: string,
  table: string,
  rawAttributes: unknown,
  document: DocumentOptions | undefined,
  pending: PendingRelation[],
): Record<string, Attribute> {
  const raw = reader.object(rawAttributes, '"attributes"');
  const reserved = document ? RESERVED_CONTENT_TYPE_ATTRIBUTES : RESERVED_COMPONENT_ATTRIBUTES;
  // No prototype: a client's key such as `constructor` or `__proto__` never finds an attribute.
  const attributes = Object.create(null) as Record<string, Attribute>;
  const columns = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    if (reserved.has(name)) reader.fail(`attribute "${name}" uses a reserved name`);
    // Strapi's rule: letters, digits and _, not starting with a digit nor with GraphQL's `__`.
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name.startsWith('__')) {
      reader.fail(
        `attribute "${name}" is not a valid name (letters, digits and _; starts with a letter or a single _)`,
      );
    }
    if (document && !keepDocumentAttribute(reader, name, document)) continue;
    const attribute = buildAttribute(reader, uid, table, name, value, document?.localized ?? false, pending);
    if (!attribute) continue;
    if (attribute.kind === 'scalar') {
      if (document && SYSTEM_COLUMNS.has(attribute.column))
        reader.fail(`attribute "${name}" collides with the system column ${attribute.column}`);
      const clash = columns.get(attribute.column);
      if (clash) reader.fail(`attributes "${clash}" and "${name}" map to the same column ${attribute.column}`);
      columns.set(attribute.column, name);
    }
    attributes[name] = attribute;
  }
  return attributes;
}

const scalarsOf = (attributes: Record<string, Attribute>): ScalarAttribute[] =>
  Object.values(attributes).filter((a): a is ScalarAttribute => a.kind === 'scalar');

function buildContentType(
  file: RawSchemaFile,
  pending: PendingRelation[],
  builtIn: boolean,
  warn: SchemaWarn,
): ContentType {
  const reader: SchemaFileReader = new SchemaFileReader(file.file, warn);
  const json = reader.object(file.json, 'the schema');
  // Strapi defaults a missing kind to a collection type.
  const kind = json.kind ?? 'collectionType';
  if (kind !== 'collectionType' && kind !== 'singleType') {
    reader.fail(`"kind" must be collectionType or singleType, got ${JSON.stringify(kind)}`);
  }
  const info = reader.object(json.info, '"info"');
  const singularName = reader.string(info.singularName, 'info.singularName');
  const pluralName = reader.string(info.pluralName, 'info.pluralName (missing pluralName)');
  const kebab = /^[a-z][a-z0-9-]*$/;
  if (!kebab.test(singularName)) reader.fail(`info.singularName "${singularName}" must be kebab-case`);
  if (!kebab.test(pluralName)) reader.fail(`info.pluralName "${pluralName}" must be kebab-case`);
  if (singularName === pluralName) reader.fail('info.singularName and info.pluralName must differ');
  const options = isPlainObject(json.options) ? json.options : {};
  const pluginOptions = isPlainObject(json.pluginOptions) ? json.pluginOptions : {};
  const i18n = isPlainObject(pluginOptions.i18n) ? pluginOptions.i18n : {};
  const localized = i18n.localized === true;
  const collectionName =
    typeof json.collectionName === 'string' && json.collectionName ? json.collectionName : snakeCase(pluralName);
  const table = identifier(snakeCase(collectionName));
  const draftAndPublish = options.draftAndPublish === true;
  const attributes = buildAttributes(reader, file.uid, table, json.attributes, { localized, draftAndPublish }, pending);
  return {
    modelType: 'contentType',
    uid: file.uid,
    kind,
    singularName,
    pluralName,
    displayName: typeof info.displayName === 'string' ? info.displayName : singularName,
    collectionName,
    table,
    componentLinkTable: componentLinkTableName(table),
    draftAndPublish,
    localized,
    populateCreatorFields: options.populateCreatorFields === true,
    managerVisible: visibleIn(pluginOptions, 'content-manager'),
    builderVisible: visibleIn(pluginOptions, 'content-type-builder'),
    builtIn,
    attributes,
    scalars: scalarsOf(attributes),
    file: file.file,
  };
}

/** `pluginOptions[plugin].visible`, true unless it says false. */
const visibleIn = (pluginOptions: Record<string, unknown>, plugin: string): boolean => {
  const options = pluginOptions[plugin];
  return !isPlainObject(options) || options.visible !== false;
};

function buildComponent(file: RawSchemaFile, pending: PendingRelation[], warn: SchemaWarn): Component {
  const reader = new SchemaFileReader(file.file, warn);
  const json = reader.object(file.json, 'the component');
  const info = isPlainObject(json.info) ? json.info : {};
  const [category, name] = file.uid.split('.') as [string, string];
  const collectionName =
    typeof json.collectionName === 'string' && json.collectionName
      ? json.collectionName
      : `components_${snakeCase(category)}_${snakeCase(name)}s`;
  const table = identifier(snakeCase(collectionName));
  const attributes = buildAttributes(reader, file.uid, table, json.attributes, undefined, pending);
  return {
    modelType: 'component',
    uid: file.uid,
    category,
    displayName: typeof info.displayName === 'string' ? info.displayName : name,
    collectionName,
    table,
    componentLinkTable: componentLinkTableName(table),
    attributes,
    scalars: scalarsOf(attributes),
    file: file.file,
  };
}

/** Built-in types of Strapi itself and of its plugins: a project may name them without defining them. */
const isStrapiOwnUid = (uid: string): boolean => /^(admin|plugin)::/.test(uid);

/**
 * Checks every cross reference: relation targets and their inverse sides, components. Where
 * Strapi starts regardless (a relation to a type of Strapi's admin or of a plugin that Vellum does
 * not have, a `mappedBy` naming an attribute the other side does not declare) the attribute is
 * left out with a warning.
 */
function resolveReferences(schema: Schema, pending: PendingRelation[], warn: SchemaWarn): void {
  const leaveOut = ({ ownerUid, attribute, reader }: PendingRelation, why: string): void => {
    reader.warn(`attribute "${attribute.name}" ${why}; it is left out`);
    delete getModel(schema, ownerUid).attributes[attribute.name];
  };
  const targeted: PendingRelation[] = [];
  for (const relation of pending) {
    const { attribute, reader } = relation;
    if (schema.contentTypes.has(attribute.target)) targeted.push(relation);
    else if (isStrapiOwnUid(attribute.target)) {
      leaveOut(relation, `is a relation to ${attribute.target}, which Vellum does not have`);
      const owner = getModel(schema, relation.ownerUid);
      (owner.unserved ??= new Set()).add(attribute.name);
    } else reader.fail(`attribute "${attribute.name}" is a relation to the missing target ${attribute.target}`);
  }
  const linked: PendingRelation[] = [];
  for (const relation of targeted) {
    const { ownerUid, attribute } = relation;
    const reader: SchemaFileReader = relation.reader; // annotated, so that fail() narrows
    const target = schema.contentTypes.get(attribute.target)!;
    const owner = schema.contentTypes.get(ownerUid);
    if (!owner && (attribute.inversedBy || attribute.mappedBy)) {
      reader.fail(`attribute "${attribute.name}": relations in components cannot be bidirectional`);
    }
    if (attribute.mappedBy) {
      const inverse = target.attributes[attribute.mappedBy];
      if (!inverse) {
        // Strapi builds this side without a link table, then fails every write of the type.
        leaveOut(relation, `is mappedBy "${attribute.mappedBy}", which ${target.uid} does not declare`);
        continue;
      }
      if (inverse.kind !== 'relation' || inverse.target !== ownerUid) {
        reader.fail(
          `attribute "${attribute.name}" is mappedBy "${attribute.mappedBy}", which is not a relation of ${target.uid} to ${ownerUid}`,
        );
      }
      if (inverse.mappedBy)
        reader.fail(`attribute "${attribute.name}" and ${target.uid}.${inverse.name} both use mappedBy`);
      attribute.link = inverse.link;
    } else if (attribute.inversedBy) {
      const inverse = target.attributes[attribute.inversedBy];
      if (
        !inverse ||
        inverse.kind !== 'relation' ||
        inverse.target !== ownerUid ||
        inverse.mappedBy !== attribute.name
      ) {
        reader.fail(
          `attribute "${attribute.name}" is inversedBy "${attribute.inversedBy}", but ${target.uid} has no relation "${attribute.inversedBy}" mappedBy "${attribute.name}"`,
        );
      }
    }
    linked.push(relation);
  }
  for (const { attribute } of linked) {
    if (attribute.owner) schema.linkTables.push(attribute.link);
  }
  const models = [...schema.contentTypes.values(), ...schema.components.values()];
  for (const model of models) {
    for (const attribute of Object.values(model.attributes)) {
      const reader: SchemaFileReader = new SchemaFileReader(model.file, warn);
      for (const uid of componentUids(attribute)) {
        if (!schema.components.has(uid)) reader.fail(`attribute "${attribute.name}" uses the missing component ${uid}`);
      }
      if (attribute.kind === 'scalar' && attribute.targetField !== undefined) {
        const source = model.attributes[attribute.targetField];
        if (!source || source.kind !== 'scalar' || !['string', 'text', 'uid'].includes(source.type)) {
          // Strapi starts on it.
          reader.warn(
            `attribute "${attribute.name}" has targetField "${attribute.targetField}", which is not a text attribute of this type; no value is generated from it`,
          );
          delete attribute.targetField;
        }
      }
    }
  }
}

export function buildSchema(
  contentTypeFiles: RawSchemaFile[],
  componentFiles: RawSchemaFile[],
  builtInFiles: RawSchemaFile[] = [],
  warn: SchemaWarn = () => undefined,
): Schema {
  const pending: PendingRelation[] = [];
  const schema: Schema = {
    contentTypes: new Map(),
    components: new Map(),
    byPluralName: new Map(),
    bySingularName: new Map(),
    linkTables: [],
  };
  const tables = new Map<string, string>();
  const claimTable = (table: string, file: string) => {
    const other = tables.get(table);
    if (other) throw new ProjectError(`table "${table}" is also used by ${other}`, file);
    tables.set(table, file);
  };
  for (const file of componentFiles) {
    const component = buildComponent(file, pending, warn);
    claimTable(component.table, file.file);
    schema.components.set(component.uid, component);
  }
  const all = [...builtInFiles.map((f) => [f, true] as const), ...contentTypeFiles.map((f) => [f, false] as const)];
  for (const [file, builtIn] of all) {
    const type = buildContentType(file, pending, builtIn, warn);
    claimTable(type.table, file.file);
    schema.contentTypes.set(type.uid, type);
    // Built-in types have routes of their own: a project may name a type `user`, `file` or `role`
    // (Strapi serves api::user.user at /api/users, before the users-permissions route).
    if (builtIn) continue;
    for (const name of [type.pluralName, type.singularName]) {
      const other = schema.byPluralName.get(name) ?? schema.bySingularName.get(name);
      if (other) throw new ProjectError(`the API name "${name}" is also used by ${other.file}`, file.file);
    }
    schema.byPluralName.set(type.pluralName, type);
    schema.bySingularName.set(type.singularName, type);
  }
  resolveReferences(schema, pending, warn);
  return schema;
}
