import { parseDate, parseDateTime, parseTime } from '../../schema/temporal.js';
import {
  ADMIN_PRIVATE_FIELDS,
  CREATOR_FIELDS,
  CREATOR_MODEL,
  isCreatorField,
  type CreatorField,
} from '../../schema/creators.js';
import { isHidden, type Model, type ScalarType, type Schema } from '../../schema/model.js';
import { COMPARISON_OPERATORS, type ComparisonOperator, type FieldRef, type FilterNode } from '../types.js';
import { asBoolean, asInteger, asList, fail, isPlainObject, type ParseOptions, type Path } from './common.js';

const MAX_FILTER_NODES = 500;
/**
 * Values of `$in`, `$notIn` (and bare arrays) in one filter, together. Each is a bound parameter:
 * SQLite takes at most 32,766 per statement, PostgreSQL and MySQL 65,535.
 */
const MAX_LIST_VALUES = 10_000;
const TEXT_TYPES = new Set<FieldRef['type']>(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const TEXT_OPERATORS = new Set<ComparisonOperator>([
  '$eqi',
  '$nei',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);
/**
 * The longest operand of a substring match ($contains*, $notContains*, $startsWith*, $endsWith*):
 * matching costs text length times operand length per row, and an 8 KB operand against a 400 KB
 * text held SQLite (and with it the event loop) for 3.7-8 s. Searches typed or pasted by people
 * stay far below this.
 */
const MAX_SUBSTRING_OPERAND = 200;
/**
 * Relations one filter path may go through (`filters[author][articles][category][name]`: 3).
 * Each level through a to-many relation multiplies what the database visits: on MariaDB 10.11,
 * `[category][articles]` nested eight times ran for minutes on 28 articles; SQLite and PostgreSQL
 * build a set per level (sql/where.ts) but MariaDB reads it back as nested loops.
 */
const MAX_FILTER_RELATION_DEPTH = 4;
const SUBSTRING_OPERATORS = new Set<ComparisonOperator>([
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
]);
const isOperator = (key: string): key is ComparisonOperator =>
  (COMPARISON_OPERATORS as readonly string[]).includes(key);

/** The document columns every content-type can be filtered and sorted on. */
export function systemField(model: Model, name: string): FieldRef | undefined {
  if (name === 'id') return { name, column: 'id', type: 'id' };
  if (model.modelType !== 'contentType') return undefined;
  switch (name) {
    case 'documentId':
      return { name, column: 'document_id', type: 'string' };
    case 'createdAt':
      return { name, column: 'created_at', type: 'datetime' };
    case 'updatedAt':
      return { name, column: 'updated_at', type: 'datetime' };
    case 'publishedAt':
      return { name, column: 'published_at', type: 'datetime' };
    case 'locale':
      return model.localized ? { name, column: 'locale', type: 'string' } : undefined;
    default:
      return undefined;
  }
}

const combine = (kind: 'and' | 'or', children: FilterNode[]): FilterNode =>
  children.length === 1 ? children[0]! : { kind, children };

/**
 * `filters` (docs/rest.md "Filters") against a model: attribute names are looked up in the schema,
 * operators in the list of that section, and values converted to the attribute's type, so nothing the client sent
 * reaches SQL except as a bound value.
 */
export class FilterParser {
  private nodes = 0;
  private listValues = 0;
  /** Relations the filter being parsed goes through, from the root to here. */
  private relationDepth = 0;

  constructor(
    private readonly schema: Schema,
    private readonly options: Pick<ParseOptions, 'canRead' | 'hidden'>,
  ) {}

  parse(model: Model, value: unknown, path: Path): FilterNode | undefined {
    if (value === undefined || value === '') return undefined;
    if (!isPlainObject(value)) fail(path, 'filters must be an object, e.g. filters[title][$eq]=Hello');
    const children: FilterNode[] = [];
    for (const [key, child] of Object.entries(value)) {
      this.count(path);
      const where = [...path, key];
      if (key === '$and' || key === '$or') {
        const items = asList(child) ?? (isPlainObject(child) ? [child] : undefined);
        if (!items) fail(where, `${key} must be an array of filters`);
        const parsed = items
          .map((item, i) => this.parse(model, item, [...where, i]))
          .filter((n): n is FilterNode => n !== undefined);
        children.push(key === '$and' ? { kind: 'and', children: parsed } : { kind: 'or', children: parsed });
      } else if (key === '$not') {
        const inner = this.parse(model, child, where);
        if (inner) children.push({ kind: 'not', child: inner });
      } else if (key.startsWith('$')) {
        fail(where, `Invalid operator ${key} here: an attribute name is expected`);
      } else {
        children.push(this.attribute(model, key, child, where));
      }
    }
    return combine('and', children);
  }

  private count(path: Path): void {
    this.nodes += 1;
    if (this.nodes > MAX_FILTER_NODES) fail(path, `Too many filter conditions (more than ${MAX_FILTER_NODES})`);
  }

  private countList(list: unknown[], path: Path): unknown[] {
    this.listValues += list.length;
    if (this.listValues > MAX_LIST_VALUES)
      fail(path, `Too many values in filter lists (more than ${MAX_LIST_VALUES} in all)`);
    return list;
  }

  private attribute(model: Model, name: string, value: unknown, path: Path): FilterNode {
    const system = systemField(model, name);
    if (system) return this.conditions(system, value, path);
    if (name === 'createdBy' || name === 'updatedBy') return this.creator(model, name, value, path);
    const attribute = model.attributes[name];
    if (!attribute || (isHidden(attribute) && !this.options.hidden)) fail(path, `Invalid key ${name}`);
    switch (attribute.kind) {
      case 'scalar':
        return this.conditions({ name, column: attribute.column, type: attribute.type, attribute }, value, path);
      case 'relation': {
        const target = this.schema.contentTypes.get(attribute.target)!;
        if (this.options.canRead && !this.options.canRead(target)) fail(path, `Invalid key ${name}`);
        if (this.relationDepth >= MAX_FILTER_RELATION_DEPTH) {
          fail(
            path,
            `A filter may go through at most ${MAX_FILTER_RELATION_DEPTH} relations from the filtered type; this one goes through more`,
          );
        }
        this.relationDepth += 1;
        try {
          return { kind: 'relation', attribute, filter: this.related(target, name, value, path) };
        } finally {
          this.relationDepth -= 1;
        }
      }
      case 'component': {
        const component = this.schema.components.get(attribute.component)!;
        return { kind: 'component', attribute, filter: this.related(component, name, value, path) };
      }
      case 'media':
      case 'dynamiczone':
        fail(
          path,
          `Filtering on the ${attribute.kind === 'media' ? 'media' : 'dynamic zone'} attribute ${name} is not supported`,
        );
    }
  }

  /**
   * `createdBy` or `updatedBy` of a type that shows them (`populateCreatorFields`): the
   * administrator's public fields, as Strapi 5.54 filters them; its private fields and unknown
   * names refused in its words (checked side by side: test/differential/creator-fields.diff.ts).
   */
  private creator(model: Model, name: CreatorField, value: unknown, path: Path): FilterNode {
    if (!isCreatorField(model, name)) fail(path, `Invalid key ${name}`, name);
    if (isPlainObject(value))
      for (const key of Object.keys(value)) {
        if (key.startsWith('$') || systemField(CREATOR_MODEL, key) || CREATOR_MODEL.attributes[key]) continue;
        if (ADMIN_PRIVATE_FIELDS.has(key))
          fail([...path, key], `Invalid key ${key} at ${name}.${key}`, `${name}.${key}`);
        fail([...path, key], `Invalid key ${key} at ${name}`, name);
      }
    return { kind: 'creator', column: CREATOR_FIELDS[name], filter: this.related(CREATOR_MODEL, name, value, path) };
  }

  /**
   * The filter on the rows a relation or component attribute leads to. As in Strapi, an operator
   * directly under the attribute (`filters[category][$null]=true`, `filters[category][$in][0]=3`)
   * or a bare value (`filters[category]=3`) applies to the related rows' `id`; an operator cannot
   * sit beside field names or another operator there (Strapi refuses both).
   */
  private related(target: Model, name: string, value: unknown, path: Path): FilterNode {
    const id = systemField(target, 'id')!;
    if (!isPlainObject(value)) return this.conditions(id, value, path);
    const keys = Object.keys(value);
    const operators = keys.filter(isOperator);
    if (operators.length > 0) {
      if (operators.length !== keys.length)
        fail(path, `Operators and field names cannot be mixed in the filter on ${name}`);
      if (operators.length > 1)
        fail(path, `Only one operator is allowed directly on ${name}, found ${operators.join(', ')}`);
      return this.conditions(id, value, path);
    }
    const filter = this.parse(target, value, path);
    if (!filter) fail(path, `Empty filter on ${name}`);
    return filter;
  }

  /** `{ $op: value, ... }` on one field, or a bare value meaning `$eq` (an array meaning `$in`). */
  private conditions(field: FieldRef, value: unknown, path: Path): FilterNode {
    if (!isPlainObject(value)) {
      const list = asList(value);
      if (list)
        return {
          kind: 'compare',
          field,
          operator: '$in',
          value: this.countList(list, path).map((v, i) => this.coerce(field, v, [...path, i])),
        };
      return this.compare(field, '$eq', value, path);
    }
    const children: FilterNode[] = [];
    for (const [key, operand] of Object.entries(value)) {
      this.count(path);
      const where = [...path, key];
      if (key === '$and' || key === '$or') {
        const items = asList(operand) ?? (isPlainObject(operand) ? [operand] : undefined);
        if (!items) fail(where, `${key} must be an array`);
        children.push(
          combine(
            key === '$and' ? 'and' : 'or',
            items.map((item, i) => this.conditions(field, item, [...where, i])),
          ),
        );
      } else if (key === '$not') {
        children.push({ kind: 'not', child: this.conditions(field, operand, where) });
      } else if (isOperator(key)) {
        children.push(this.compare(field, key, operand, where));
      } else {
        fail(where, `Invalid operator ${key} on ${field.name}`);
      }
    }
    if (children.length === 0) fail(path, `Empty filter on ${field.name}`);
    return combine('and', children);
  }

  private compare(field: FieldRef, operator: ComparisonOperator, value: unknown, path: Path): FilterNode {
    const textual = TEXT_TYPES.has(field.type) || field.name === 'documentId' || field.name === 'locale';
    if (TEXT_OPERATORS.has(operator) && !textual)
      fail(path, `Operator ${operator} does not apply to ${field.type} attribute ${field.name}`);
    if ((field.type === 'json' || field.type === 'blocks') && operator !== '$null' && operator !== '$notNull') {
      fail(path, `Only $null and $notNull apply to ${field.type} attribute ${field.name}`);
    }
    switch (operator) {
      case '$null':
      case '$notNull': {
        const flag = asBoolean(value);
        if (flag === undefined) fail(path, `${operator} takes true or false`);
        return { kind: 'compare', field, operator, value: flag };
      }
      case '$in':
      case '$notIn': {
        const list = this.countList(asList(value) ?? [value], path);
        return { kind: 'compare', field, operator, value: list.map((v, i) => this.coerce(field, v, [...path, i])) };
      }
      case '$between': {
        const list = asList(value);
        if (!list || list.length !== 2) fail(path, '$between takes exactly two values');
        return { kind: 'compare', field, operator, value: list.map((v, i) => this.coerce(field, v, [...path, i])) };
      }
      default:
        if (TEXT_OPERATORS.has(operator)) {
          if (typeof value !== 'string' && typeof value !== 'number') fail(path, `${operator} takes a text value`);
          const text = String(value);
          if (SUBSTRING_OPERATORS.has(operator) && [...text].length > MAX_SUBSTRING_OPERAND) {
            fail(path, `${operator} takes at most ${MAX_SUBSTRING_OPERAND} characters, got ${[...text].length}`);
          }
          return { kind: 'compare', field, operator, value: text };
        }
        if ((operator === '$eq' || operator === '$ne') && value === null)
          return { kind: 'compare', field, operator, value: null };
        return { kind: 'compare', field, operator, value: this.coerce(field, value, path) };
    }
  }

  /** The value as the column's type, or a 400 naming the path. */
  private coerce(field: FieldRef, value: unknown, path: Path): unknown {
    const type: ScalarType | 'id' = field.type;
    const bad = (what: string): never => fail(path, `Invalid value for ${field.name}: expected ${what}`);
    if (isPlainObject(value) || Array.isArray(value) || value === undefined) bad('a single value');
    const text = String(value).trim();
    switch (type) {
      case 'id':
      case 'integer': {
        const n = asInteger(value);
        if (n === undefined || (type === 'integer' && Math.abs(n) > 2147483647)) bad('an integer');
        return n;
      }
      case 'biginteger':
        if (!/^[-+]?\d{1,19}$/.test(text)) bad('an integer');
        if (BigInt(text) > 2n ** 63n - 1n || BigInt(text) < -(2n ** 63n)) bad('a 64-bit integer');
        return BigInt(text).toString();
      case 'float':
      case 'decimal': {
        if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) bad('a number');
        const n = Number(text);
        if (!Number.isFinite(n)) bad('a finite number');
        return n;
      }
      case 'boolean': {
        const flag = asBoolean(value);
        if (flag === undefined) bad('true or false');
        return flag;
      }
      // The parsers of request bodies (schema/temporal.ts), as Strapi casts filter values.
      case 'date': {
        const parsed = parseDate(text);
        return 'value' in parsed ? parsed.value : bad('a date (YYYY-MM-DD)');
      }
      case 'datetime':
      case 'timestamp': {
        const parsed = parseDateTime(typeof value === 'number' ? value : text);
        return 'value' in parsed ? parsed.value.toISOString() : bad('an ISO 8601 date-time or milliseconds since 1970');
      }
      case 'time': {
        const parsed = parseTime(text);
        return 'value' in parsed ? parsed.value : bad('a time (HH:mm:ss.SSS)');
      }
      default:
        return String(value);
    }
  }
}
