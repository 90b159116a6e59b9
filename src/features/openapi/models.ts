/**
 * The schemas of `components.schemas` from Vellum's model: one per content-type as answered
 * (`ApiArticleArticleDocument`, Strapi's names) and as written (`ApiArticleArticleDocumentInput`), one per
 * component (`SharedSeoEntry`, `SharedSeoEntryInput`), and the shapes every route shares (the error
 * envelope, pagination, a relation in a body).
 *
 * Written from what the content API answers (docs/rest.md "Documents and the envelope"), where
 * Strapi 5.54's document says otherwise: every attribute may be absent (`fields`, `populate`) or
 * null, so only `id` and `documentId` are required; a documentId is no UUID; a component entry has
 * its `id` and a zone entry its `__component`; a boolean is written as a boolean.
 */
import {
  isHidden,
  type Attribute,
  type Component,
  type ContentType,
  type Model,
  type ScalarAttribute,
  type Schema,
} from '../../core/schema/model.js';
import { orNull, ref, schemaName, type JsonSchema } from './spec.js';

/** The names of the shared schemas. `Error` is the name Strapi's documentation plugin gives the same envelope. */
export const SHARED = {
  error: 'Error',
  pagination: 'Pagination',
  relationInput: 'RelationInput',
  relationReference: 'RelationReference',
} as const;

export const inputName = (uid: string): string => `${schemaName(uid)}Input`;

/** `uid` answers to a reference: a content-type or component of the schema. */
const known = (schema: Schema, uid: string) => schema.contentTypes.has(uid) || schema.components.has(uid);

/** A node of a blocks attribute: its `type`, then what that type holds (children, text, url, ...). */
const BLOCK = { type: 'object', properties: { type: { type: 'string' } }, additionalProperties: true };

const INT32 = { minimum: -2147483648, maximum: 2147483647 };

/** A scalar as answered (biginteger as its digits, as Vellum answers it: docs/rest.md). */
function scalarOutput(attribute: ScalarAttribute): JsonSchema {
  switch (attribute.type) {
    case 'integer':
      return { type: 'integer' };
    case 'float':
    case 'decimal':
      return { type: 'number' };
    case 'biginteger':
      return { type: 'string', pattern: '^-?\\d+$' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'time':
      return { type: 'string', description: 'HH:mm:ss.SSS' };
    case 'datetime':
    case 'timestamp':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {};
    case 'blocks':
      return { type: 'array', items: BLOCK };
    case 'enumeration':
      return { type: 'string', enum: attribute.enum ?? [] };
    default:
      return { type: 'string' };
  }
}

/** A scalar as a body may write it, with the rules the validator applies (core/documents/input.ts). */
function scalarInput(attribute: ScalarAttribute): JsonSchema {
  const schema = scalarOutput(attribute);
  switch (attribute.type) {
    case 'integer':
      Object.assign(schema, INT32);
      break;
    case 'biginteger':
      return orNull({ type: ['string', 'integer'], pattern: '^-?\\d+$' });
    case 'email':
      schema.format = 'email';
      break;
    case 'uid':
      schema.pattern = '^[A-Za-z0-9-_.~]*$';
      break;
    case 'blocks':
      schema.items = { ...BLOCK, required: ['type'] };
      break;
    case 'json':
      return schema;
  }
  if (attribute.minLength !== undefined) schema.minLength = attribute.minLength;
  if (attribute.maxLength !== undefined) schema.maxLength = attribute.maxLength;
  if (attribute.min !== undefined) schema.minimum = attribute.min;
  if (attribute.max !== undefined) schema.maximum = attribute.max;
  if (attribute.regex && schema.pattern === undefined) schema.pattern = attribute.regex.source;
  return orNull(schema);
}

/** A zone's entry: the component's entry with the `__component` it is. */
const zoneEntry = (uid: string, name: string): JsonSchema => ({
  allOf: [
    ref(name),
    { type: 'object', properties: { __component: { type: 'string', const: uid } }, required: ['__component'] },
  ],
});

const many = (items: JsonSchema): JsonSchema => ({ type: 'array', items });

/** An attribute as answered, or undefined when it is never answered. */
function attributeOutput(schema: Schema, attribute: Attribute): JsonSchema | undefined {
  if (isHidden(attribute)) return undefined;
  switch (attribute.kind) {
    case 'scalar':
      return orNull(scalarOutput(attribute));
    case 'relation': {
      // A morph relation's targets are of any type; a relation to a type Vellum does not serve is never answered.
      const target = known(schema, attribute.target) ? ref(schemaName(attribute.target)) : undefined;
      if (attribute.relation.startsWith('morph')) return attribute.toMany ? many({}) : orNull({});
      if (!target) return undefined;
      if (!attribute.toMany) return orNull(target);
      const count = {
        type: 'object',
        description: 'populate[<relation>][count]=true',
        properties: { count: { type: 'integer' } },
        required: ['count'],
      };
      return { anyOf: [many(target), count] };
    }
    case 'media':
      return attribute.multiple
        ? orNull(many(ref(schemaName('plugin::upload.file'))))
        : orNull(ref(schemaName('plugin::upload.file')));
    case 'component': {
      const entry = ref(schemaName(attribute.component));
      return attribute.repeatable ? many(entry) : orNull(entry);
    }
    case 'dynamiczone':
      return many({ anyOf: attribute.components.map((uid) => zoneEntry(uid, schemaName(uid))) });
  }
}

/** An attribute as a body writes it, or undefined when a body may not name it. */
function attributeInput(schema: Schema, attribute: Attribute): JsonSchema | undefined {
  switch (attribute.kind) {
    case 'scalar':
      return scalarInput(attribute);
    case 'relation':
      return attribute.relation.startsWith('morph') || !known(schema, attribute.target)
        ? undefined
        : ref(SHARED.relationInput);
    case 'media': {
      const id = { type: 'integer', exclusiveMinimum: 0, description: 'A file id (/upload/files)' };
      return attribute.multiple ? orNull(many(id)) : orNull(id);
    }
    case 'component': {
      const entry = ref(inputName(attribute.component));
      return attribute.repeatable ? many(entry) : orNull(entry);
    }
    case 'dynamiczone':
      return many({ anyOf: attribute.components.map((uid) => zoneEntry(uid, inputName(uid))) });
  }
}

const properties = (
  schema: Schema,
  model: Model,
  of: (schema: Schema, attribute: Attribute) => JsonSchema | undefined,
): Record<string, JsonSchema> => {
  const found: Record<string, JsonSchema> = {};
  for (const [name, attribute] of Object.entries(model.attributes)) {
    const property = of(schema, attribute);
    if (property) found[name] = property;
  }
  return found;
};

const DATE_TIME = { type: 'string', format: 'date-time' };

/** A content-type's document as answered: `id`, `documentId`, the attributes, the system fields. */
function documentSchema(schema: Schema, type: ContentType): JsonSchema {
  const system: Record<string, JsonSchema> = {
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
    publishedAt: { ...orNull(DATE_TIME), description: 'null on a draft' },
  };
  if (type.localized) {
    system.locale = { type: 'string' };
    system.localizations = { ...many(ref(schemaName(type.uid))), description: 'populate=localizations' };
  }
  return {
    type: 'object',
    properties: {
      id: { type: 'integer', description: "The row's id (a version's); paths name documentId" },
      documentId: { type: 'string', description: 'The identifier paths and relations use' },
      ...properties(schema, type, attributeOutput),
      ...system,
    },
    required: ['id', 'documentId'],
  };
}

const requiredNames = (model: Model) =>
  Object.values(model.attributes)
    .filter((attribute) => attribute.required && !isHidden(attribute))
    .filter((attribute) => !(attribute.kind === 'scalar' && (attribute.default !== undefined || attribute.targetField)))
    .map((attribute) => attribute.name);

/** What `data` of a body may hold; `required` is left to the description: a draft (`?status=draft`) needs none. */
function inputSchema(schema: Schema, model: Model): JsonSchema {
  const attributes = properties(schema, model, attributeInput);
  const id = { type: 'integer', description: "An existing entry's id: that entry is updated, not replaced" };
  const input: JsonSchema = {
    type: 'object',
    properties: model.modelType === 'component' ? { id, ...attributes } : attributes,
  };
  const required = requiredNames(model);
  if (required.length) input.description = `Required to publish (or on a new entry): ${required.join(', ')}`;
  return input;
}

function entrySchema(schema: Schema, component: Component): JsonSchema {
  return {
    type: 'object',
    properties: { id: { type: 'integer' }, ...properties(schema, component, attributeOutput) },
    required: ['id'],
  };
}

/** The error envelope every failure answers (docs/errors.md). */
const errorSchema: JsonSchema = {
  type: 'object',
  properties: {
    data: { type: 'null' },
    error: {
      type: 'object',
      properties: {
        status: { type: 'integer' },
        name: { type: 'string', description: 'ValidationError, NotFoundError, ForbiddenError, ...' },
        message: { type: 'string' },
        details: { type: 'object', additionalProperties: true },
      },
      required: ['status', 'name', 'message'],
    },
  },
  required: ['data', 'error'],
};

/** `meta.pagination` of a list: by page, or by offset (`start`, `limit`); no counts with `withCount=false`. */
const paginationSchema: JsonSchema = {
  anyOf: [
    {
      type: 'object',
      properties: {
        page: { type: 'integer' },
        pageSize: { type: 'integer' },
        pageCount: { type: 'integer' },
        total: { type: 'integer' },
      },
      required: ['page', 'pageSize'],
    },
    {
      type: 'object',
      properties: { start: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } },
      required: ['start', 'limit'],
    },
  ],
};

/** A related document named in a body (docs/rest.md "Relations in request bodies"). */
const relationReference: JsonSchema = {
  anyOf: [
    { type: 'string', description: 'A documentId' },
    { type: 'integer', description: "An entry's id" },
    {
      type: 'object',
      properties: {
        documentId: { type: 'string' },
        id: { type: 'integer' },
        locale: { type: 'string' },
        status: { type: 'string', enum: ['draft', 'published'] },
        position: {
          type: 'object',
          description: 'In connect: one of before, after (a documentId or id), start, end (true)',
          properties: {
            before: { type: ['string', 'integer'] },
            after: { type: ['string', 'integer'] },
            start: { type: 'boolean', const: true },
            end: { type: 'boolean', const: true },
          },
        },
      },
    },
  ],
};

const relationInput: JsonSchema = {
  description: 'The related documents: replaced by a reference or a list, or changed with connect, disconnect, set',
  anyOf: [
    ref(SHARED.relationReference),
    many(ref(SHARED.relationReference)),
    {
      type: 'object',
      properties: {
        connect: { anyOf: [ref(SHARED.relationReference), many(ref(SHARED.relationReference))] },
        disconnect: { anyOf: [ref(SHARED.relationReference), many(ref(SHARED.relationReference))] },
        set: { anyOf: [ref(SHARED.relationReference), many(ref(SHARED.relationReference)), { type: 'null' }] },
        options: { type: 'object', properties: { strict: { type: 'boolean' } } },
      },
    },
    { type: 'null' },
  ],
};

/**
 * Every model's schemas, content-types (Vellum's own types too: files, users, roles) then
 * components, each sorted by uid, then the shared ones. Inputs for the project's types only: the
 * built-in ones are written through their own routes.
 */
export function modelSchemas(schema: Schema): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  const byUid = <T extends { uid: string }>(models: Iterable<T>) =>
    [...models].sort((a, b) => (a.uid < b.uid ? -1 : 1));
  for (const type of byUid(schema.contentTypes.values())) {
    schemas[schemaName(type.uid)] = documentSchema(schema, type);
    if (!type.builtIn) schemas[inputName(type.uid)] = inputSchema(schema, type);
  }
  for (const component of byUid(schema.components.values())) {
    schemas[schemaName(component.uid)] = entrySchema(schema, component);
    schemas[inputName(component.uid)] = inputSchema(schema, component);
  }
  schemas[SHARED.error] = errorSchema;
  schemas[SHARED.pagination] = paginationSchema;
  schemas[SHARED.relationReference] = relationReference;
  schemas[SHARED.relationInput] = relationInput;
  return schemas;
}
