/**
 * A document cut to the fields a permission allows, as Strapi's content manager sanitizes what an
 * administrator reads and writes: attributes outside the permission's `fields` are left out (a
 * write's silently, as Strapi's `sanitizeInput`), and a component's own fields likewise when the
 * permission names some of them (`seo.metaTitle`). The document's own keys (id, documentId,
 * locale, timestamps, status) always stay.
 */
import type { Model, Schema } from '../../core/schema/model.js';
import type { FieldTree } from './ability.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` (a document, or a write's data) with only the fields of `tree`; the same value without a tree. */
export function pickFields(schema: Schema, model: Model, value: unknown, tree: FieldTree | undefined): unknown {
  if (tree === undefined || !isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const attribute = model.attributes[key];
    if (!attribute) {
      // Not an attribute: the document's own keys (id, documentId, locale, timestamps, __component).
      out[key] = item;
      continue;
    }
    const allowed = tree[key];
    if (allowed === undefined) continue;
    if (allowed === true || attribute.kind !== 'component') {
      out[key] = item;
      continue;
    }
    const component = schema.components.get(attribute.component);
    if (!component) continue;
    out[key] = Array.isArray(item)
      ? item.map((entry) => pickFields(schema, component, entry, allowed))
      : pickFields(schema, component, item, allowed);
  }
  return out;
}
