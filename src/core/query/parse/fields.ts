import { isHidden, type Model } from '../../schema/model.js';
import { asList, fail, type Path } from './common.js';

const ALWAYS = new Set(['id', 'documentId']);
const SYSTEM = new Set(['createdAt', 'updatedAt', 'publishedAt', 'locale']);

/** `fields=title`, `fields=title,slug`, `fields[0]=title`, `*`; undefined means every field. */
export function parseFields(model: Model, value: unknown, path: Path): string[] | undefined {
  if (value === undefined || value === '') return undefined;
  const list = typeof value === 'string' ? value.split(',') : asList(value);
  if (!list) fail(path, 'fields must be a field name, a comma-separated list or an array of names');
  const names: string[] = [];
  for (const [index, item] of list.entries()) {
    if (typeof item !== 'string') fail([...path, index], 'fields must be names');
    const name = item.trim();
    if (name === '*') return undefined;
    if (ALWAYS.has(name)) continue;
    // `locale` is a field of localized types only: elsewhere an invalid key, as in Strapi 5.54.
    if (model.modelType === 'contentType' && SYSTEM.has(name) && (name !== 'locale' || model.localized)) {
      names.push(name);
      continue;
    }
    // Strapi's validator refuses the creator fields in its own words, whether the type shows them or not.
    if (name === 'createdBy' || name === 'updatedBy') fail([...path, name], `Invalid key ${name}`, name);
    const attribute = model.attributes[name];
    if (!attribute || isHidden(attribute)) fail([...path, name], `Invalid key ${name} in fields`);
    if (attribute.kind !== 'scalar') fail([...path, name], `${name} is not a scalar attribute; use populate for it`);
    names.push(name);
  }
  return names;
}
