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

/** Adds `locale: null` to the documents of types without i18n in `value`, a document of `model` or a list of them. */
export function withNullLocales<T>(schema: Schema, model: Model, value: T): T {
  return walk(schema, model, value, 'add');
}

/** Takes `locale` out of the documents of types without i18n again: a controller's `sanitizeOutput`, as Strapi's. */
export function withoutNullLocales<T>(schema: Schema, model: Model, value: T): T {
  return walk(schema, model, value, 'remove');
}

type Mode = 'add' | 'remove';

function walk<T>(schema: Schema, model: Model, value: T, mode: Mode): T {
  if (Array.isArray(value)) for (const item of value) visit(schema, model, item, mode);
  else visit(schema, model, value, mode);
  return value;
}

function visit(schema: Schema, model: Model | undefined, value: unknown, mode: Mode): void {
  if (!model || !isObject(value)) return;
  if (model.modelType === 'contentType' && !model.localized) {
    // A row read whole has its timestamps; one read with `fields` has what was selected only.
    if (mode === 'add' && 'documentId' in value && 'createdAt' in value && !('locale' in value)) value.locale = null;
    if (mode === 'remove' && value.locale === null) delete value.locale;
  }
  for (const [name, nested] of Object.entries(value)) {
    const attribute = model.attributes[name];
    if (!attribute || nested === null || nested === undefined) continue;
    const each = (target: Model | undefined) =>
      Array.isArray(nested)
        ? nested.forEach((item) => visit(schema, target, item, mode))
        : visit(schema, target, nested, mode);
    if (attribute.kind === 'relation') each(schema.contentTypes.get(attribute.target));
    else if (attribute.kind === 'media') each(schema.contentTypes.get(FILE_UID));
    else if (attribute.kind === 'component') each(schema.components.get(attribute.component));
    else if (attribute.kind === 'dynamiczone' && Array.isArray(nested)) {
      for (const item of nested)
        if (isObject(item)) visit(schema, schema.components.get(String(item.__component)), item, mode);
    }
  }
}
