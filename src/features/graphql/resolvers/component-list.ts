/**
 * `filters` and `sort` of a repeatable component's field (Strapi 5's flat shape): a component list
 * is read whole with its owner (it holds what was stored, nothing more), so each field (aliases
 * included) filters and sorts the items it was given, as Strapi answers each field apart.
 */
import { ValidationError } from '../../../core/errors.js';

type Item = Record<string, unknown>;
type Condition = Record<string, unknown>;

const comparable = (value: unknown): number | string | undefined => {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return Number(value);
  const text = String(value);
  return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
};

function compare(a: unknown, b: unknown): number {
  const x = comparable(a);
  const y = comparable(b);
  if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? -1 : 1;
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

/** One operator of a scalar filter (`{ eq: 1 }`, `{ containsi: "a" }`, `{ not: { ... } }`). */
function matchesScalar(value: unknown, operators: Condition): boolean {
  return Object.entries(operators).every(([op, operand]) => {
    if (operand === undefined) return true;
    switch (op) {
      case 'eq':
        return operand === null
          ? value === null || value === undefined
          : compare(value, operand) === 0 && value !== null && value !== undefined;
      case 'ne':
        return operand === null
          ? value !== null && value !== undefined
          : value === null || value === undefined || compare(value, operand) !== 0;
      case 'eqi':
        return text(value).toLowerCase() === text(operand).toLowerCase();
      case 'nei':
        return text(value).toLowerCase() !== text(operand).toLowerCase();
      case 'lt':
        return value != null && compare(value, operand) < 0;
      case 'lte':
        return value != null && compare(value, operand) <= 0;
      case 'gt':
        return value != null && compare(value, operand) > 0;
      case 'gte':
        return value != null && compare(value, operand) >= 0;
      case 'in':
        return Array.isArray(operand) && operand.some((o) => compare(value, o) === 0);
      case 'notIn':
        return Array.isArray(operand) && !operand.some((o) => compare(value, o) === 0);
      case 'between':
        return (
          Array.isArray(operand) &&
          operand.length === 2 &&
          value != null &&
          compare(value, operand[0]) >= 0 &&
          compare(value, operand[1]) <= 0
        );
      case 'contains':
        return value != null && text(value).includes(text(operand));
      case 'notContains':
        return value == null || !text(value).includes(text(operand));
      case 'containsi':
        return value != null && text(value).toLowerCase().includes(text(operand).toLowerCase());
      case 'notContainsi':
        return value == null || !text(value).toLowerCase().includes(text(operand).toLowerCase());
      case 'startsWith':
        return value != null && text(value).startsWith(text(operand));
      case 'startsWithi':
        return value != null && text(value).toLowerCase().startsWith(text(operand).toLowerCase());
      case 'endsWith':
        return value != null && text(value).endsWith(text(operand));
      case 'endsWithi':
        return value != null && text(value).toLowerCase().endsWith(text(operand).toLowerCase());
      case 'null':
        return (value === null || value === undefined) === Boolean(operand);
      case 'notNull':
        return (value !== null && value !== undefined) === Boolean(operand);
      case 'not':
        return !matchesScalar(value, operand as Condition);
      case 'and':
        return (operand as unknown[]).every((o) => compare(value, o) === 0);
      case 'or':
        return (operand as unknown[]).some((o) => compare(value, o) === 0);
      default:
        throw new ValidationError(`Invalid filter operator ${op}`, { param: 'filters' });
    }
  });
}

/** Whether an item (a component, or a related document read with it) matches a filter object. */
function matches(item: Item, filters: Condition): boolean {
  return Object.entries(filters).every(([key, condition]) => {
    if (condition === undefined || condition === null) return true;
    if (key === 'and') return (condition as Condition[]).every((c) => matches(item, c));
    if (key === 'or') return (condition as Condition[]).some((c) => matches(item, c));
    if (key === 'not') return !matches(item, condition as Condition);
    const value = item[key];
    // A nested component or relation: a list matches when one of its items does.
    if (Array.isArray(value))
      return value.some(
        (entry) => entry !== null && typeof entry === 'object' && matches(entry as Item, condition as Condition),
      );
    if (value !== null && typeof value === 'object' && !(value instanceof Date))
      return matches(value as Item, condition as Condition);
    return matchesScalar(value, condition as Condition);
  });
}

/** `sort: "name:desc"` or `["price", "name:desc"]`, on the items' scalar values. */
function sortItems(items: Item[], sort: unknown): Item[] {
  const keys = (Array.isArray(sort) ? sort : [sort])
    .filter((s): s is string => typeof s === 'string' && s !== '')
    .map((s) => {
      const [field, direction = 'asc'] = s.split(':');
      if (!/^(asc|desc)$/i.test(direction))
        throw new ValidationError(`Invalid sort direction ${direction}`, { param: 'sort' });
      return { field: field!, sign: direction.toLowerCase() === 'desc' ? -1 : 1 };
    });
  if (keys.length === 0) return items;
  return [...items].sort((a, b) => {
    for (const { field, sign } of keys) {
      const order = compare(a[field], b[field]);
      if (order !== 0) return order * sign;
    }
    return 0;
  });
}

/** A repeatable component's items as one field's `filters` and `sort` ask for them. */
export function filterAndSortComponents(items: unknown[] | undefined | null, filters: unknown, sort: unknown): Item[] {
  let list = (items ?? []) as Item[];
  if (filters && typeof filters === 'object') list = list.filter((item) => matches(item, filters as Condition));
  return sortItems(list, sort);
}
