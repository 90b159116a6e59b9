import { ProjectError } from '../errors.js';
import {
  RELATION_KINDS,
  SCALAR_TYPES,
  isToManyRelation,
  type Attribute,
  type Component,
  type ContentType,
  type LinkTable,
  type RelationAttribute,
  type RelationKind,
  type ScalarAttribute,
  type ScalarType,
  type Schema,
} from './model.js';
import { componentLinkTableName, identifier, linkTableName, snakeCase } from './naming.js';

/** A schema file as read from disk, before validation. */
export interface RawSchemaFile {
  file: string;
  uid: string;
  json: unknown;
}

/** Names the engine itself stores or returns on every document. */
const RESERVED_CONTENT_TYPE_ATTRIBUTES = new Set([
  'id',
  'documentId',
  'document_id',
  'locale',
  'localizations',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'createdBy',
  'updatedBy',
  'created_at',
  'updated_at',
  'published_at',
  'created_by_id',
  'updated_by_id',
  'status',
  '__component',
  '__typename',
  'meta',
]);
const RESERVED_COMPONENT_ATTRIBUTES = new Set(['id', '__component', '__typename']);
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

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

class SchemaFileReader {
  constructor(readonly file: string) {}

  fail(message: string): never {
    throw new ProjectError(message, this.file);
  }

  object(value: unknown, what: string): Json {
    if (!isObject(value)) this.fail(`${what} must be an object`);
    return value;
  }

  string(value: unknown, what: string): string {
    if (typeof value !== 'string' || value.length === 0) this.fail(`${what} must be a non-empty string`);
    return value;
  }

  optionalNumber(value: unknown, what: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(`${what} must be a number`);
    return value;
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
  const plugin = isObject(raw.pluginOptions) ? raw.pluginOptions : {};
  const i18n = isObject(plugin.i18n) ? plugin.i18n : {};
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
  if (raw.default !== undefined) attribute.default = raw.default;
  if (raw.regex !== undefined) {
    try {
      attribute.regex = new RegExp(reader.string(raw.regex, `${where} regex`));
    } catch (error) {
      reader.fail(`${where} has an invalid regex: ${(error as Error).message}`);
    }
  }
  if (type === 'enumeration') {
    const values = raw.enum;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === 'string')) {
      reader.fail(`${where} of type enumeration needs a non-empty "enum" array of strings`);
    }
    attribute.enum = values as string[];
    if (attribute.default !== undefined && !attribute.enum.includes(String(attribute.default))) {
      reader.fail(`${where} has a default that is not one of its enum values`);
    }
  }
  if (type === 'uid' && raw.targetField !== undefined) {
    attribute.targetField = reader.string(raw.targetField, `${where} targetField`);
  }
  return attribute;
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
): Attribute {
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
        reader.fail(`attribute "${name}": polymorphic relations (${relation}) are not supported`);
      }
      const target = reader.string(raw.target, `attribute "${name}" target`);
      const inversedBy = raw.inversedBy === undefined ? undefined : reader.string(raw.inversedBy, `attribute "${name}" inversedBy`);
      const mappedBy = raw.mappedBy === undefined ? undefined : reader.string(raw.mappedBy, `attribute "${name}" mappedBy`);
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
      if (!Array.isArray(components) || components.length === 0 || !components.every((c) => typeof c === 'string')) {
        reader.fail(`attribute "${name}" of type dynamiczone needs a non-empty "components" array`);
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
      if (allowed !== undefined && (!Array.isArray(allowed) || !allowed.every((t) => typeof t === 'string'))) {
        reader.fail(`attribute "${name}" allowedTypes must be an array of strings`);
      }
      return {
        kind: 'media',
        ...base,
        multiple: reader.bool(raw.multiple),
        allowedTypes: (allowed as string[] | undefined) ?? null,
      };
    }
    case 'array':
    case 'customField':
      // Strapi stores both as JSON values.
      return buildScalar(reader, name, 'json', raw, localized);
    default:
      return buildScalar(reader, name, type as ScalarType, raw, localized);
  }
}

function buildAttributes(
  reader: SchemaFileReader,
  uid: string,
  table: string,
  rawAttributes: unknown,
  typeLocalized: boolean,
  reserved: Set<string>,
  pending: PendingRelation[],
): Record<string, Attribute> {
  const raw = reader.object(rawAttributes, '"attributes"');
  const attributes: Record<string, Attribute> = {};
  const columns = new Map<string, string>();
  for (const [name, value] of Object.entries(raw)) {
    if (reserved.has(name)) reader.fail(`attribute "${name}" uses a reserved name`);
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
      reader.fail(`attribute "${name}" is not a valid name (letters, digits and _; starts with a letter)`);
    }
    const attribute = buildAttribute(reader, uid, table, name, value, typeLocalized, pending);
    if (attribute.kind === 'scalar') {
      if (SYSTEM_COLUMNS.has(attribute.column)) reader.fail(`attribute "${name}" collides with the system column ${attribute.column}`);
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

function buildContentType(file: RawSchemaFile, pending: PendingRelation[], builtIn: boolean): ContentType {
  const reader: SchemaFileReader = new SchemaFileReader(file.file);
  const json = reader.object(file.json, 'the schema');
  const kind = json.kind;
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
  const options = isObject(json.options) ? json.options : {};
  const pluginOptions = isObject(json.pluginOptions) ? json.pluginOptions : {};
  const i18n = isObject(pluginOptions.i18n) ? pluginOptions.i18n : {};
  const localized = i18n.localized === true;
  const collectionName =
    typeof json.collectionName === 'string' && json.collectionName ? json.collectionName : snakeCase(pluralName);
  const table = identifier(snakeCase(collectionName));
  const attributes = buildAttributes(
    reader,
    file.uid,
    table,
    json.attributes,
    localized,
    RESERVED_CONTENT_TYPE_ATTRIBUTES,
    pending,
  );
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
    draftAndPublish: options.draftAndPublish === true,
    localized,
    populateCreatorFields: options.populateCreatorFields === true,
    builtIn,
    attributes,
    scalars: scalarsOf(attributes),
    file: file.file,
  };
}

function buildComponent(file: RawSchemaFile, pending: PendingRelation[]): Component {
  const reader = new SchemaFileReader(file.file);
  const json = reader.object(file.json, 'the component');
  const info = isObject(json.info) ? json.info : {};
  const [category, name] = file.uid.split('.') as [string, string];
  const collectionName =
    typeof json.collectionName === 'string' && json.collectionName
      ? json.collectionName
      : `components_${snakeCase(category)}_${snakeCase(name)}s`;
  const table = identifier(snakeCase(collectionName));
  const attributes = buildAttributes(
    reader,
    file.uid,
    table,
    json.attributes,
    false,
    RESERVED_COMPONENT_ATTRIBUTES,
    pending,
  );
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

/** Checks every cross reference: relation targets and their inverse sides, components. */
function resolveReferences(schema: Schema, pending: PendingRelation[]): void {
  for (const pendingRelation of pending) {
    const { ownerUid, attribute } = pendingRelation;
    const reader: SchemaFileReader = pendingRelation.reader;
    const target = schema.contentTypes.get(attribute.target);
    if (!target) reader.fail(`attribute "${attribute.name}" is a relation to the missing target ${attribute.target}`);
    const owner = schema.contentTypes.get(ownerUid);
    if (!owner && (attribute.inversedBy || attribute.mappedBy)) {
      reader.fail(`attribute "${attribute.name}": relations in components cannot be bidirectional`);
    }
    if (attribute.mappedBy) {
      const inverse = target.attributes[attribute.mappedBy];
      if (!inverse || inverse.kind !== 'relation' || inverse.target !== ownerUid) {
        reader.fail(
          `attribute "${attribute.name}" is mappedBy "${attribute.mappedBy}", which is not a relation of ${target.uid} to ${ownerUid}`,
        );
      }
      if (inverse.mappedBy) reader.fail(`attribute "${attribute.name}" and ${target.uid}.${inverse.name} both use mappedBy`);
      attribute.link = inverse.link;
    } else if (attribute.inversedBy) {
      const inverse = target.attributes[attribute.inversedBy];
      if (!inverse || inverse.kind !== 'relation' || inverse.target !== ownerUid || inverse.mappedBy !== attribute.name) {
        reader.fail(
          `attribute "${attribute.name}" is inversedBy "${attribute.inversedBy}", but ${target.uid} has no relation "${attribute.inversedBy}" mappedBy "${attribute.name}"`,
        );
      }
    }
  }
  for (const { attribute } of pending) {
    if (attribute.owner) schema.linkTables.push(attribute.link);
  }
  const models = [...schema.contentTypes.values(), ...schema.components.values()];
  for (const model of models) {
    for (const attribute of Object.values(model.attributes)) {
      const reader: SchemaFileReader = new SchemaFileReader(model.file);
      const uids =
        attribute.kind === 'component' ? [attribute.component] : attribute.kind === 'dynamiczone' ? attribute.components : [];
      for (const uid of uids) {
        if (!schema.components.has(uid)) reader.fail(`attribute "${attribute.name}" uses the missing component ${uid}`);
      }
      if (attribute.kind === 'scalar' && attribute.targetField !== undefined) {
        const source = model.attributes[attribute.targetField];
        if (!source || source.kind !== 'scalar' || !['string', 'text', 'uid'].includes(source.type)) {
          reader.fail(`attribute "${attribute.name}" has targetField "${attribute.targetField}", which is not a text attribute`);
        }
      }
    }
  }
}

export function buildSchema(
  contentTypeFiles: RawSchemaFile[],
  componentFiles: RawSchemaFile[],
  builtInFiles: RawSchemaFile[] = [],
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
    const component = buildComponent(file, pending);
    claimTable(component.table, file.file);
    schema.components.set(component.uid, component);
  }
  const all = [...builtInFiles.map((f) => [f, true] as const), ...contentTypeFiles.map((f) => [f, false] as const)];
  for (const [file, builtIn] of all) {
    const type = buildContentType(file, pending, builtIn);
    claimTable(type.table, file.file);
    for (const name of [type.pluralName, type.singularName]) {
      const other = schema.byPluralName.get(name) ?? schema.bySingularName.get(name);
      if (other) throw new ProjectError(`the API name "${name}" is also used by ${other.file}`, file.file);
    }
    schema.contentTypes.set(type.uid, type);
    schema.byPluralName.set(type.pluralName, type);
    schema.bySingularName.set(type.singularName, type);
  }
  resolveReferences(schema, pending);
  return schema;
}

export type { LinkTable };
