/**
 * What project code writes through `strapi.documents`, `strapi.entityService` and `strapi.db.query`
 * keeps the keys its model knows: Strapi's query engine writes a model's attributes and ignores
 * the other keys of `data` (checked on Strapi 5.54: `update({ data: { nope: 1 } })` succeeds and
 * writes nothing), where REST refuses them in a body ("Invalid key nope", 400). A project that
 * writes a field its schema lost (a `credits` counter on a user without that attribute) works on
 * Strapi; without this it would be a ValidationError here.
 */
import type { Model, Schema } from '../core/schema/model.js';

/** Keys of a document that are not attributes and that the document service judges itself (refused, or ignored). */
const DOCUMENT_KEYS = new Set([
  'id',
  'documentId',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
  'createdBy',
  'updatedBy',
  'localizations',
]);
/** Keys of a component item or a dynamic zone entry that are not attributes. */
const ITEM_KEYS = new Set(['id', 'documentId', '__component']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/** `data` without the keys `model` has no attribute for, components and dynamic zone entries included. */
export function knownData(schema: Schema, model: Model, data: unknown, root = true): unknown {
  if (!isPlainObject(data)) return data;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const attribute = Object.hasOwn(model.attributes, key) ? model.attributes[key] : undefined;
    if (!attribute) {
      if ((root ? DOCUMENT_KEYS : ITEM_KEYS).has(key)) kept[key] = value;
      continue;
    }
    if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      kept[key] =
        component === undefined
          ? value
          : Array.isArray(value)
            ? value.map((item) => knownData(schema, component, item, false))
            : knownData(schema, component, value, false);
    } else if (attribute.kind === 'dynamiczone' && Array.isArray(value)) {
      kept[key] = value.map((entry) => {
        const component =
          isPlainObject(entry) && typeof entry.__component === 'string'
            ? schema.components.get(entry.__component)
            : undefined;
        return component === undefined ? entry : knownData(schema, component, entry, false);
      });
    } else {
      kept[key] = value;
    }
  }
  return kept;
}

/** `params` with its `data` (an object, or a list of them for `createMany`) kept to what `model` knows. */
export function withKnownData<P>(schema: Schema, model: Model, params: P): P {
  if (!isPlainObject(params) || !('data' in params)) return params;
  const { data } = params;
  const known = Array.isArray(data)
    ? data.map((item) => knownData(schema, model, item))
    : knownData(schema, model, data);
  return { ...params, data: known } as P;
}
