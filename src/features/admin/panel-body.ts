/**
 * A write's body at Strapi's content-manager paths as Strapi 5.54 reads it: its permission checker
 * keeps the fields an editor may write (`sanitizeCreateInput`/`sanitizeUpdateInput`) and drops the
 * rest without a word. Strapi's panel relies on it: every repeatable component item and zone entry
 * it sends carries a `__temp_key__` (its drag-and-drop key), which the content API would refuse
 * ("Invalid key __temp_key__"), and every relation item it connects an `isTemporary`. Kept: the
 * model's attributes, in component items and zone entries their `id` (the item edited in place)
 * and `__component`, in relation items what names the target and its place.
 */
import { isPlainObject } from '../../core/objects.js';
import type { Model, Schema } from '../../core/schema/model.js';

const ITEM_KEYS = new Set(['id', '__component']);
/** What a relation item may name; the panel's also carry `isTemporary` (a link not saved yet). */
const RELATION_ITEM_KEYS = new Set(['id', 'documentId', 'locale', 'status', 'position']);

/** A relation's `connect`/`disconnect`/`set` items without the panel's own keys. */
function relationValue(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...value };
  for (const list of ['connect', 'disconnect', 'set'])
    if (Array.isArray(value[list]))
      out[list] = value[list].map((item: unknown) =>
        isPlainObject(item)
          ? Object.fromEntries(Object.entries(item).filter(([k]) => RELATION_ITEM_KEYS.has(k)))
          : item,
      );
  return out;
}

export function panelBody(
  schema: Schema,
  model: Model,
  data: Record<string, unknown>,
  item = false,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const attribute = Object.hasOwn(model.attributes, key) ? model.attributes[key] : undefined;
    if (!attribute) {
      if (item && ITEM_KEYS.has(key)) kept[key] = value;
      continue;
    }
    if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      const one = (entry: unknown) =>
        component && isPlainObject(entry) ? panelBody(schema, component, entry, true) : entry;
      kept[key] = Array.isArray(value) ? value.map(one) : one(value);
    } else if (attribute.kind === 'dynamiczone' && Array.isArray(value)) {
      kept[key] = value.map((entry) => {
        const component =
          isPlainObject(entry) && typeof entry.__component === 'string'
            ? schema.components.get(entry.__component)
            : undefined;
        return component && isPlainObject(entry) ? panelBody(schema, component, entry, true) : entry;
      });
    } else kept[key] = attribute.kind === 'relation' ? relationValue(value) : value;
  }
  return kept;
}
