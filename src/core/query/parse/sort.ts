import {
  isHidden,
  type ComponentAttribute,
  type Model,
  type RelationAttribute,
  type Schema,
} from '../../schema/model.js';
import type { FieldRef, SortItem } from '../types.js';
import { asList, fail, isPlainObject, type ParseOptions, type Path } from './common.js';
import { CREATOR_FIELDS, CREATOR_MODEL, isCreatorField } from '../../schema/creators.js';
import { systemField } from './filters.js';

const MAX_SORT_ITEMS = 20;

/**
 * `sort` (docs/rest.md "Sort"): `title`, `title:desc`, `title:asc,views:desc`, `sort[0]=title:asc`,
 * `sort[title]=desc`, `sort[0][title]=asc`, and paths through relations and components
 * (`author.name:asc`, `sort[author][name]=asc`).
 */
export function parseSort(
  schema: Schema,
  model: Model,
  value: unknown,
  options: Pick<ParseOptions, 'canRead' | 'hidden'>,
  path: Path,
): SortItem[] {
  if (value === undefined || value === '') return [];
  const entries: { fieldPath: string[]; direction: string; where: Path }[] = [];
  const fromString = (text: string, where: Path) => {
    for (const part of text.split(',')) {
      const trimmed = part.trim();
      if (!trimmed) continue;
      const [fieldPath = '', direction = 'asc', ...extra] = trimmed.split(':');
      if (extra.length) fail(where, `Invalid sort ${trimmed}`);
      entries.push({ fieldPath: fieldPath.split('.'), direction, where });
    }
  };
  const fromObject = (object: Record<string, unknown>, prefix: string[], where: Path) => {
    for (const [key, inner] of Object.entries(object)) {
      if (typeof inner === 'string')
        entries.push({ fieldPath: [...prefix, ...key.split('.')], direction: inner, where: [...where, key] });
      else if (isPlainObject(inner)) fromObject(inner, [...prefix, key], [...where, key]);
      else fail([...where, key], 'sort direction must be asc or desc');
    }
  };
  const list = typeof value === 'string' ? [value] : (asList(value) ?? (isPlainObject(value) ? [value] : undefined));
  if (!list) fail(path, 'sort must be a field name, a list or an object');
  list.forEach((item, index) => {
    const where = list.length > 1 || typeof value !== 'string' ? [...path, index] : path;
    if (typeof item === 'string') fromString(item, where);
    else if (isPlainObject(item)) fromObject(item, [], where);
    else fail(where, 'sort items must be strings or objects');
  });
  if (entries.length > MAX_SORT_ITEMS) fail(path, `Too many sort fields (more than ${MAX_SORT_ITEMS})`);
  return entries.map(({ fieldPath, direction, where }) =>
    resolveSortItem(schema, model, fieldPath, direction, options, where),
  );
}

function resolveSortItem(
  schema: Schema,
  root: Model,
  fieldPath: string[],
  direction: string,
  options: Pick<ParseOptions, 'canRead' | 'hidden'>,
  where: Path,
): SortItem {
  const dir = direction.trim().toLowerCase();
  if (dir !== 'asc' && dir !== 'desc')
    fail(where, `Invalid sort direction ${direction} for ${fieldPath.join('.')}: use asc or desc`);
  const through: (RelationAttribute | ComponentAttribute)[] = [];
  let model = root;
  for (const [index, name] of fieldPath.entries()) {
    const last = index === fieldPath.length - 1;
    const at = [...where, ...fieldPath.slice(0, index + 1)];
    const system = systemField(model, name);
    if (system && last) return { through, field: system, direction: dir };
    if (name === 'createdBy' || name === 'updatedBy') {
      // Strapi's words for a type that does not show them, as for any key it does not know.
      if (!isCreatorField(model, name)) fail(at, `Invalid key ${name}`, name);
      const [field, ...more] = fieldPath.slice(index + 1);
      const ref =
        field === undefined || more.length
          ? undefined
          : (systemField(CREATOR_MODEL, field) ??
            (CREATOR_MODEL.attributes[field]?.kind === 'scalar'
              ? { name: field, column: CREATOR_MODEL.attributes[field].column, type: 'string' as const }
              : undefined));
      if (!ref) fail(at, `Invalid sort field ${fieldPath.join('.')}`);
      return { through, creator: CREATOR_FIELDS[name], field: ref, direction: dir };
    }
    const attribute = model.attributes[name];
    if (!attribute || (isHidden(attribute) && !options.hidden)) fail(at, `Invalid sort field ${fieldPath.join('.')}`);
    if (last) {
      if (attribute.kind !== 'scalar' || attribute.type === 'json' || attribute.type === 'blocks')
        fail(at, `Cannot sort on ${fieldPath.join('.')}`);
      const field: FieldRef = { name, column: attribute.column, type: attribute.type, attribute };
      return { through, field, direction: dir };
    }
    if (attribute.kind === 'relation') {
      const target = schema.contentTypes.get(attribute.target)!;
      if (options.canRead && !options.canRead(target)) fail(at, `Invalid sort field ${fieldPath.join('.')}`);
      through.push(attribute);
      model = target;
    } else if (attribute.kind === 'component') {
      through.push(attribute);
      model = schema.components.get(attribute.component)!;
    } else {
      fail(at, `Cannot sort through ${name}`);
    }
  }
  return fail(where, 'Empty sort field');
}
