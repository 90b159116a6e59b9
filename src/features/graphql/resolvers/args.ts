/**
 * GraphQL arguments to what the REST API would receive: filters with `$` operators, bodies with
 * relation documentIds, media ids and `__component`. The REST parsers and body validation then
 * check them, so both APIs accept and refuse the same things.
 */
import { ValidationError } from '../../../core/errors.js';
import { FILE_UID, type Model, type Schema } from '../../../core/schema/model.js';
import type { Shape } from '../schema/types.js';
import { isPlainObject } from '../../../core/objects.js';

type Input = Record<string, unknown>;
const LOGICAL = new Set(['and', 'or', 'not']);

/** `{title: {containsi: "a"}, or: [...]}` -> `{title: {$containsi: "a"}, $or: [...]}`. */
export function toRestFilters(schema: Schema, model: Model, input: Input, shape: Shape): Input {
  const out: Input = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (key === 'and' || key === 'or') {
      out[`$${key}`] = ((value as Input[] | null) ?? []).map((item) => toRestFilters(schema, model, item ?? {}, shape));
      continue;
    }
    if (key === 'not') {
      if (isPlainObject(value)) out.$not = toRestFilters(schema, model, value, shape);
      continue;
    }
    if (!isPlainObject(value)) continue;
    const attribute = model.attributes[key];
    if (attribute?.kind === 'relation')
      out[key] = toRestFilters(schema, schema.contentTypes.get(attribute.target)!, value, shape);
    else if (attribute?.kind === 'component')
      out[key] = toRestFilters(schema, schema.components.get(attribute.component)!, value, shape);
    else {
      // In the earlier shape a document's `id` is its documentId.
      const name =
        key === 'id' && shape === 'v4' && model.modelType === 'contentType' && model.uid !== FILE_UID
          ? 'documentId'
          : key;
      out[name] = operators(value);
    }
  }
  return out;
}

function operators(input: Input): Input {
  const out: Input = {};
  for (const [op, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (op === 'and' || op === 'or') out[`$${op}`] = ((value as unknown[] | null) ?? []).map((item) => ({ $eq: item }));
    else if (op === 'not') out.$not = isPlainObject(value) ? operators(value) : {};
    else if (!LOGICAL.has(op)) out[`$${op}`] = value;
  }
  return out;
}

// `locale` in the data of a type without i18n: Strapi 5's input has it, and ignores it.
const SYSTEM_INPUTS = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);

/** A media id as the body expects it: a number. */
function mediaId(value: unknown, path: string): unknown {
  if (value === null) return null;
  const id = Number(value);
  if (!Number.isSafeInteger(id)) throw new ValidationError(`${path}: ${JSON.stringify(value)} is not a file id`);
  return id;
}

/** A `<Name>Input` value as a REST body's `data`. */
export function toRestBody(
  schema: Schema,
  model: Model,
  data: Input,
  componentUids: Map<string, string>,
  path = 'data',
): Input {
  const out: Input = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || (model.modelType === 'contentType' && SYSTEM_INPUTS.has(key))) continue;
    const attribute = model.attributes[key];
    const where = `${path}.${key}`;
    if (key === 'id' && model.modelType === 'component') {
      out.id = value === null ? null : mediaId(value, where);
    } else if (attribute?.kind === 'media') {
      out[key] = Array.isArray(value) ? value.map((item, i) => mediaId(item, `${where}.${i}`)) : mediaId(value, where);
    } else if (attribute?.kind === 'component' && value !== null) {
      const component = schema.components.get(attribute.component)!;
      out[key] = Array.isArray(value)
        ? value.map((item, i) => toRestBody(schema, component, item as Input, componentUids, `${where}.${i}`))
        : toRestBody(schema, component, value as Input, componentUids, where);
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[key] = value.map((item, i) => zoneEntry(schema, item, componentUids, `${where}.${i}`));
    } else out[key] = value;
  }
  return out;
}

function zoneEntry(schema: Schema, item: unknown, componentUids: Map<string, string>, path: string): Input {
  if (!isPlainObject(item))
    throw new ValidationError(`${path}: a dynamic zone entry must be an object naming its __typename`);
  const { __typename, __component, ...rest } = item;
  const uid = typeof __component === 'string' ? __component : componentUids.get(String(__typename));
  const component = uid ? schema.components.get(uid) : undefined;
  if (!component) throw new ValidationError(`${path}: unknown component ${JSON.stringify(__typename ?? __component)}`);
  return { __component: component.uid, ...toRestBody(schema, component, rest, componentUids, path) };
}
