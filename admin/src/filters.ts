/**
 * The list view's filters: which attributes filter (scalars, relations by their target's main
 * field), the operators each takes, and the filters both as the URL keeps them and as the content
 * API takes them: `filters[$and][0][title][$contains]=x`, `filters[$and][1][author][name][$eq]=y`
 * (qs's bracket notation, so a reload or a shared link shows the same list). No React here: the
 * unit tests run it in Node (filters.test.ts).
 */
import type { Models } from './fields.ts';
import type { AttributeDescription, ContentTypeDescription } from './schema.ts';

export type Operator =
  '$eq' | '$ne' | '$contains' | '$notContains' | '$startsWith' | '$gt' | '$gte' | '$lt' | '$lte' | '$null' | '$notNull';
export type FilterKind = 'text' | 'number' | 'date' | 'datetime' | 'time' | 'boolean' | 'enumeration';

/** Something a list filters on: an attribute, or a relation's target main field (`via`). */
export interface FilterField {
  name: string;
  kind: FilterKind;
  /** A relation's: the target's main field the filter compares. */
  via?: string;
  options?: string[];
}

export interface Filter {
  field: string;
  operator: Operator;
  /** The value as the URL and the API carry it ('true' for $null and $notNull). */
  value: string;
}

const KINDS: Record<string, FilterKind> = {
  string: 'text',
  text: 'text',
  richtext: 'text',
  email: 'text',
  uid: 'text',
  integer: 'number',
  biginteger: 'number',
  float: 'number',
  decimal: 'number',
  date: 'date',
  datetime: 'datetime',
  timestamp: 'datetime',
  time: 'time',
  boolean: 'boolean',
  enumeration: 'enumeration',
};

const EMPTINESS: Operator[] = ['$null', '$notNull'];
const COMPARISONS: Operator[] = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'];
export const OPERATORS: Record<FilterKind, Operator[]> = {
  text: ['$eq', '$ne', '$contains', '$notContains', '$startsWith', ...EMPTINESS],
  number: [...COMPARISONS, ...EMPTINESS],
  date: [...COMPARISONS, ...EMPTINESS],
  datetime: [...COMPARISONS, ...EMPTINESS],
  time: [...COMPARISONS, ...EMPTINESS],
  boolean: ['$eq', ...EMPTINESS],
  enumeration: ['$eq', '$ne', ...EMPTINESS],
};

const LABELS: Record<Operator, string> = {
  $eq: 'is',
  $ne: 'is not',
  $contains: 'contains',
  $notContains: 'does not contain',
  $startsWith: 'starts with',
  $gt: 'is greater than',
  $gte: 'is greater than or equal to',
  $lt: 'is less than',
  $lte: 'is less than or equal to',
  $null: 'is empty',
  $notNull: 'is not empty',
};
const TIME_LABELS: Partial<Record<Operator, string>> = {
  $gt: 'is after',
  $gte: 'is on or after',
  $lt: 'is before',
  $lte: 'is on or before',
};

/** An operator as the filter builder and the chips name it. */
export function operatorLabel(operator: Operator, kind: FilterKind): string {
  return (
    (kind === 'date' || kind === 'datetime' || kind === 'time' ? TIME_LABELS[operator] : undefined) ?? LABELS[operator]
  );
}

/** Whether an operator takes a value (the emptiness checks do not). */
export const takesValue = (operator: Operator): boolean => !EMPTINESS.includes(operator);

function scalarField(attribute: AttributeDescription): FilterField | undefined {
  const kind = KINDS[attribute.type];
  if (!kind || attribute.type === 'password') return undefined;
  return kind === 'enumeration'
    ? { name: attribute.name, kind, options: attribute.enum ?? [] }
    : { name: attribute.name, kind };
}

/** What a type's list filters on: its scalars, its relations (by the target's main field), its timestamps. */
export function filterFields(type: ContentTypeDescription, models: Models): FilterField[] {
  const fields: FilterField[] = [];
  for (const attribute of type.attributes) {
    if (attribute.type === 'relation') {
      const target = attribute.target ? models.contentType(attribute.target) : undefined;
      const main = target?.mainField
        ? target.attributes.find((candidate) => candidate.name === target.mainField)
        : undefined;
      const field = main && scalarField(main);
      if (field) fields.push({ ...field, name: attribute.name, via: main.name });
      continue;
    }
    const field = scalarField(attribute);
    if (field) fields.push(field);
  }
  for (const name of ['createdAt', 'updatedAt'])
    if (!fields.some((field) => field.name === name)) fields.push({ name, kind: 'datetime' });
  return fields;
}

/** A filter as a chip reads: "title contains news", "author (name) is Ann", "featured is true". */
export function filterLabel(filter: Filter, field: FilterField | undefined): string {
  const name = field?.via ? `${filter.field} (${field.via})` : filter.field;
  const kind = field?.kind ?? 'text';
  const value = !takesValue(filter.operator)
    ? ''
    : kind === 'datetime'
      ? ` ${new Date(filter.value).toLocaleString()}`
      : ` ${filter.value}`;
  return `${name} ${operatorLabel(filter.operator, kind)}${value}`;
}

/** A filter's condition as the content API takes it: `{ title: { $contains: 'x' } }`, `{ author: { name: { $eq: 'y' } } }`. */
function condition(filter: Filter, field: FilterField): Record<string, unknown> {
  const test = { [filter.operator]: takesValue(filter.operator) ? filter.value : 'true' };
  return { [filter.field]: field.via ? { [field.via]: test } : test };
}

/** The filters, combined with AND, as the API's `filters` (undefined when none). */
export function apiFilters(filters: Filter[], fields: FilterField[]): { $and: Record<string, unknown>[] } | undefined {
  const conditions = filters.flatMap((filter) => {
    const field = fields.find((candidate) => candidate.name === filter.field);
    return field ? [condition(filter, field)] : [];
  });
  return conditions.length ? { $and: conditions } : undefined;
}

const PREFIX = 'filters[$and][';

/** The URL's search parameters of the filters (the same keys the API takes). */
export function filterParams(filters: Filter[], fields: FilterField[]): [string, string][] {
  return filters.flatMap((filter, index) => {
    const field = fields.find((candidate) => candidate.name === filter.field);
    if (!field) return [];
    const path = field.via
      ? `[${filter.field}][${field.via}][${filter.operator}]`
      : `[${filter.field}][${filter.operator}]`;
    return [[`${PREFIX}${index}]${path}`, takesValue(filter.operator) ? filter.value : 'true'] as [string, string]];
  });
}

/** Whether a search parameter is one of the filters (the list keeps its others: page, sort, search). */
export const isFilterParam = (key: string): boolean => key.startsWith('filters[');

/**
 * The filters a URL carries, in their order; those naming no field of the type, an operator the
 * field does not take, or a value the field cannot have are left out.
 */
export function filtersFromParams(params: URLSearchParams, fields: FilterField[]): Filter[] {
  const found: { index: number; filter: Filter }[] = [];
  for (const [key, value] of params) {
    const match = /^filters\[\$and\]\[(\d+)\]((?:\[[^[\]]+\])+)$/.exec(key);
    if (!match) continue;
    const segments = match[2]!.slice(1, -1).split('][');
    const [name, ...rest] = segments;
    const field = fields.find((candidate) => candidate.name === name);
    if (!field || rest.length !== (field.via ? 2 : 1) || (field.via && rest[0] !== field.via)) continue;
    const operator = rest[rest.length - 1] as Operator;
    if (!OPERATORS[field.kind].includes(operator)) continue;
    if (takesValue(operator) && !validValue(field, value)) continue;
    found.push({
      index: Number(match[1]),
      filter: { field: field.name, operator, value: takesValue(operator) ? value : 'true' },
    });
  }
  return found.sort((a, b) => a.index - b.index).map((entry) => entry.filter);
}

/** Whether a value fits a field (a number for numbers, a date for dates, one of the options...). */
export function validValue(field: FilterField, value: string): boolean {
  switch (field.kind) {
    case 'number':
      return value.trim() !== '' && Number.isFinite(Number(value));
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'datetime':
      return value !== '' && !Number.isNaN(new Date(value).getTime());
    case 'time':
      return /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/.test(value);
    case 'boolean':
      return value === 'true' || value === 'false';
    case 'enumeration':
      return (field.options ?? []).includes(value);
    default:
      return value !== '';
  }
}
