/**
 * Strapi 5 gives every content-type table a `locale` column, i18n or not: what its Document Service
 * and entity service answer for a type without i18n carries `locale: null`, at every level of
 * what they populate, wherever the row was read whole (a `fields` selection leaves it out). REST
 * answers leave it out, as Strapi's sanitizer does, so only project code sees it: a controller
 * that returns `strapi.documents(...)` straight answers it to the front end (two of the real
 * projects of docs/real-projects.md do).
 */
import { FILE_UID, type Model, type Schema } from '../core/schema/model.js';

type Value = Record<string, unknown>;

const isObject = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of `value` without the `locale: null` of the documents of types without i18n: a
 * controller's `sanitizeOutput`, as Strapi's, which answers a copy (the controller may use what it
 * read again).
 */
export function withoutNullLocales<T>(schema: Schema, model: Model, value: T): T {
  return (Array.isArray(value) ? value.map((item) => strip(schema, model, item)) : strip(schema, model, value)) as T;
}

/** Adds `locale: null` in place: the documents are the Document Service's own, read for this call. */
function walk<T>(schema: Schema, model: Model, value: T): T {
  if (Array.isArray(value)) for (const item of value) visit(schema, model, item);
  else visit(schema, model, value);
  return value;
}

/** Adds `locale: null` to the documents of types without i18n in `value`, a document of `model` or a list of them. */
export function withNullLocales<T>(schema: Schema, model: Model, value: T): T {
  return walk(schema, model, value);
}

/** The model each nested value of an attribute is a document of (a zone's: each item's own). */
function nestedModel(schema: Schema, model: Model, name: string, item: unknown): Model | undefined {
  const attribute = model.attributes[name];
  if (!attribute) return undefined;
  if (attribute.kind === 'relation') return schema.contentTypes.get(attribute.target);
  if (attribute.kind === 'media') return schema.contentTypes.get(FILE_UID);
  if (attribute.kind === 'component') return schema.components.get(attribute.component);
  if (attribute.kind === 'dynamiczone' && isObject(item)) return schema.components.get(String(item.__component));
  return undefined;
}

const nullLocale = (model: Model) => model.modelType === 'contentType' && !model.localized;

function visit(schema: Schema, model: Model | undefined, value: unknown): void {
  if (!model || !isObject(value)) return;
  // A row read whole has its timestamps; one read with `fields` has what was selected only.
  if (nullLocale(model) && 'documentId' in value && 'createdAt' in value && !('locale' in value)) value.locale = null;
  for (const [name, nested] of Object.entries(value)) {
    if (nested === null || nested === undefined || !model.attributes[name]) continue;
    if (Array.isArray(nested)) for (const item of nested) visit(schema, nestedModel(schema, model, name, item), item);
    else visit(schema, nestedModel(schema, model, name, nested), nested);
  }
}

function strip(schema: Schema, model: Model | undefined, value: unknown): unknown {
  if (!model || !isObject(value)) return value;
  const copy: Value = {};
  for (const [name, nested] of Object.entries(value)) {
    if (name === 'locale' && nested === null && nullLocale(model)) continue;
    if (nested === null || nested === undefined || !model.attributes[name]) copy[name] = nested;
    else if (Array.isArray(nested))
      copy[name] = nested.map((item) => strip(schema, nestedModel(schema, model, name, item), item));
    else copy[name] = strip(schema, nestedModel(schema, model, name, nested), nested);
  }
  return copy;
}
