/**
 * Strapi's query-engine parameters (`where`, `select`, `populate`, `orderBy`) in the shapes
 * Vellum's query parser reads (`filters`, `fields`, `populate`, `sort`): the engine and the
 * lifecycle events of document reads share them. `where` is `filters`' syntax already (attribute
 * names, `$and`/`$or`/`$not`, the same operators); a populate node's `select`, `where` and
 * `orderBy` are REST's `fields`, `filters` and `sort`.
 */
import { isPlainObject } from '../../objects.js';

const NODE_KEYS: Record<string, string> = { select: 'fields', where: 'filters', orderBy: 'sort', fields: 'fields', filters: 'filters', sort: 'sort', count: 'count' };

/** A query-engine populate as REST's `populate` parameter (`true`, `'*'`, names, lists, nested objects). */
export function populateToRest(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(populateToRest);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (!isPlainObject(inner)) {
      out[key] = inner;
      continue;
    }
    const node: Record<string, unknown> = {};
    for (const [name, part] of Object.entries(inner)) {
      if (name === 'populate') node.populate = populateToRest(part);
      else if (name === 'on' && isPlainObject(part)) node.on = Object.fromEntries(Object.entries(part).map(([uid, sub]) => [uid, isPlainObject(sub) ? (populateToRest({ x: sub }) as Record<string, unknown>).x : sub]));
      // limit/offset of a populated relation: Vellum reads every related row (left out).
      else if (name === 'limit' || name === 'offset') continue;
      else node[NODE_KEYS[name] ?? name] = part;
    }
    out[key] = node;
  }
  return out;
}
