/**
 * The text of Strapi 5's generated types (`types/generated/contentTypes.d.ts` and
 * `components.d.ts`), written as `@strapi/typescript-utils` 5.54 writes them: one interface per
 * schema, sorted by uid, each attribute a `Schema.Attribute.<Type><params>` intersected with its
 * modifiers in Strapi's order, object literals with sorted keys, then the `declare module
 * '@strapi/strapi'` registry. Unformatted: format.ts runs Prettier over it, as Strapi does, which
 * decides every line break.
 */

type Json = Record<string, unknown>;

/** A schema as Strapi holds it (`strapi.contentTypes[uid]`, `strapi.components[uid]`). */
export interface StrapiSchema extends Json {
  uid: string;
  modelType: 'contentType' | 'component';
  kind?: 'collectionType' | 'singleType';
  attributes: Record<string, Json>;
}

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

/** lodash's isEmpty as Strapi applies it to the literal properties (strings, objects, arrays). */
const isEmpty = (value: unknown): boolean => {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string' || Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.keys(value).length === 0;
  return true;
};

const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A key as a property name: quoted when it is not an identifier (`'content-manager'`). */
const key = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name));

const sortedEntries = (object: Json): [string, unknown][] =>
  Object.entries(object).sort((a, b) => a[0].localeCompare(b[0]));

/** A JavaScript value as a literal type (Strapi's `toTypeLiteral`). */
export function literal(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value instanceof Date) return quote(value.toISOString());
  if (!isObject(value)) throw new Error(`Cannot convert to object literal. Unknown type "${typeof value}"`);
  return typeLiteral(sortedEntries(value).map(([name, item]) => `${key(name)}: ${literal(item)};`));
}

/** A type literal as TypeScript's printer writes it: one member per line (Prettier keeps it so). */
const typeLiteral = (members: string[]): string => (members.length ? `{\n${members.join('\n')}\n}` : '{}');

const attributeType = (name: string) => `Schema.Attribute.${name}`;
const generic = (name: string, params: string[]) =>
  params.length ? `${attributeType(name)}<${params.join(', ')}>` : attributeType(name);

/** The base type of an attribute (Strapi's mappers); null for a type it has no mapper for. */
function baseType(attribute: Json): string | null {
  switch (attribute.type) {
    case 'string':
      return attributeType('String');
    case 'text':
      return attributeType('Text');
    case 'richtext':
      return attributeType('RichText');
    case 'password':
      return attributeType('Password');
    case 'email':
      return attributeType('Email');
    case 'date':
      return attributeType('Date');
    case 'time':
      return attributeType('Time');
    case 'datetime':
      return attributeType('DateTime');
    case 'timestamp':
      return attributeType('Timestamp');
    case 'integer':
      return attributeType('Integer');
    case 'biginteger':
      return attributeType('BigInteger');
    case 'float':
      return attributeType('Float');
    case 'decimal':
      return attributeType('Decimal');
    case 'boolean':
      return attributeType('Boolean');
    case 'json':
      return attributeType('JSON');
    case 'blocks':
      return attributeType('Blocks');
    case 'uid': {
      const { targetField, options } = attribute;
      if (targetField === undefined && options === undefined) return attributeType('UID');
      const params = [targetField === undefined ? 'undefined' : quote(String(targetField))];
      if (typeof options === 'object' && options !== null) params.push(literal(options));
      return generic('UID', params);
    }
    case 'enumeration':
      return generic('Enumeration', [literal(attribute.enum)]);
    case 'media': {
      const { allowedTypes, multiple } = attribute;
      const params: string[] = [];
      if (allowedTypes || multiple)
        params.push(Array.isArray(allowedTypes) ? allowedTypes.map((t) => quote(String(t))).join(' | ') : 'undefined');
      if (multiple) params.push('true');
      return generic('Media', params);
    }
    case 'relation': {
      const relation = String(attribute.relation);
      if (relation.toLowerCase().includes('morph')) return generic('Relation', [quote(relation)]);
      return generic('Relation', [quote(relation), quote(String(attribute.target))]);
    }
    case 'component':
      return generic('Component', [quote(String(attribute.component)), attribute.repeatable ? 'true' : 'false']);
    case 'dynamiczone':
      return generic('DynamicZone', [`[${((attribute.components as string[]) ?? []).map(quote).join(', ')}]`]);
    default:
      return null;
  }
}

/** The modifiers of an attribute, in Strapi's order. */
function modifiers(attribute: Json): string[] {
  const found: string[] = [];
  if (attribute.required) found.push(attributeType('Required'));
  if (attribute.private) found.push(attributeType('Private'));
  if (attribute.unique) found.push(attributeType('Unique'));
  if (attribute.configurable) found.push(attributeType('Configurable'));
  if (attribute.customField) {
    const params = [quote(String(attribute.customField))];
    if (attribute.options) params.push(literal(attribute.options));
    found.push(generic('CustomField', params));
  }
  if (!isEmpty(attribute.pluginOptions)) found.push(generic('SetPluginOptions', [literal(attribute.pluginOptions)]));
  const { min, max } = attribute;
  if ((min !== undefined && min !== null) || (max !== undefined && max !== null)) {
    if (min !== undefined && max !== undefined && typeof min !== typeof max)
      throw new Error('typeof min/max values mismatch');
    const keyword = typeof min === 'string' || typeof max === 'string' ? 'string' : 'number';
    const bounds: Json = {};
    if ('min' in attribute) bounds.min = min;
    if ('max' in attribute) bounds.max = max;
    found.push(generic('SetMinMax', [literal(bounds), keyword]));
  }
  const { minLength, maxLength } = attribute;
  if ((minLength !== undefined && minLength !== null) || (maxLength !== undefined && maxLength !== null)) {
    const bounds: Json = {};
    if ('minLength' in attribute) bounds.minLength = minLength;
    if ('maxLength' in attribute) bounds.maxLength = maxLength;
    found.push(generic('SetMinMaxLength', [literal(bounds)]));
  }
  if (attribute.default !== undefined && attribute.default !== null && typeof attribute.default !== 'function')
    found.push(generic('DefaultTo', [literal(attribute.default)]));
  return found;
}

/** `api::article.article` -> `ApiArticleArticle` (lodash camelCase after the first `:.`, upper first). */
export function interfaceName(uid: string): string {
  const words =
    uid.replace(/(:.)/, ' ').match(/[A-Z]{2,}(?=[A-Z][a-z]+[0-9]*|\b)|[A-Z]?[a-z]+[0-9]*|[A-Z]|[0-9]+/g) ?? [];
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase()).join('');
}

function schemaDefinition(schema: StrapiSchema, warn: (message: string) => void): string {
  const parent =
    schema.modelType === 'component'
      ? 'ComponentSchema'
      : `${schema.kind === 'singleType' ? 'SingleType' : 'CollectionType'}Schema`;
  const members: string[] = [];
  for (const name of ['collectionName', 'info', 'options', 'pluginOptions'])
    if (!isEmpty(schema[name])) members.push(`${name}: ${literal(schema[name])};`);
  const attributes: string[] = [];
  for (const [name, attribute] of sortedEntries(schema.attributes)) {
    const base = baseType(attribute as Json);
    if (base === null) {
      warn(`"${name}" attribute from "${schema.uid}" has an invalid type: "${String((attribute as Json).type)}"`);
      continue;
    }
    attributes.push(`${key(name)}: ${[base, ...modifiers(attribute as Json)].join(' & ')};`);
  }
  members.push(`attributes: ${typeLiteral(attributes)};`);
  return `export interface ${interfaceName(schema.uid)} extends Struct.${parent} ${typeLiteral(members)}`;
}

const PLACEHOLDER = {
  ContentTypeSchemas: "/*\n * The app doesn't have any content-types yet.\n */\n",
  ComponentSchemas: "/*\n * The app doesn't have any components yet.\n */\n",
};

/**
 * One generated file: `ContentTypeSchemas` for content-types, `ComponentSchemas` for components.
 * `formatted` says whether the text still needs Prettier (the placeholder does not).
 */
export function renderSchemas(
  registry: 'ContentTypeSchemas' | 'ComponentSchemas',
  schemas: StrapiSchema[],
  warn: (message: string) => void = () => undefined,
): { text: string; formatted: boolean } {
  if (schemas.length === 0) return { text: PLACEHOLDER[registry], formatted: true };
  // lodash's sortBy('uid'): code unit order.
  const sorted = [...schemas].sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  const definitions = sorted.map((schema) => schemaDefinition(schema, warn));
  const entries = sorted.map((schema) => `${quote(schema.uid)}: ${interfaceName(schema.uid)};`);
  const text = [
    "import type { Schema, Struct } from '@strapi/strapi';",
    '',
    ...definitions.flatMap((definition) => [definition, '']),
    `declare module '@strapi/strapi' {\nexport namespace Public {\nexport interface ${registry} ${typeLiteral(entries)}\n}\n}`,
    '',
  ].join('\n');
  return { text, formatted: false };
}
