import { QueryValidationError } from '../../errors.js';
import type { ContentType } from '../../schema/model.js';
import type { RestConfig } from '../../config/load.js';
import { isPlainObject } from '../../objects.js';

export interface ParseOptions {
  rest: RestConfig;
  i18n: { defaultLocale: string; locales: string[] };
  /** Whether the caller may read a content-type; relations to others cannot be filtered or sorted on. */
  canRead?: (type: ContentType) => boolean;
  /** Trusted code (the query engine): private attributes and passwords may be named too. */
  hidden?: boolean;
}

export type Path = (string | number)[];

export { isPlainObject };

/** Segments of a parameter path that are syntax, not attributes: operators, list indexes, populate keywords. */
const SYNTAX_SEGMENT = /^(\$.*|\d+|populate|on|fields|filters|sort)$/;

/**
 * A 400 naming where the problem is, as Strapi 5 does: `param` is the top-level parameter, `key`
 * the offending key, `path` the attributes leading to it (`category` for
 * `filters[category][nope]`), null at the top level.
 */
export function fail(path: Path, message: string, at?: string): never {
  const [param = '', ...rest] = path.map(String);
  const key = rest.length ? rest[rest.length - 1]! : param;
  const attributes = rest.slice(0, -1).filter((segment) => !SYNTAX_SEGMENT.test(segment));
  throw new QueryValidationError(message, {
    param,
    key,
    // `at`: where Strapi's validator says it was (its creator fields name their own path).
    path: at ?? (attributes.length ? attributes.join('.') : null),
  });
}

/** qs gives arrays, or objects with numeric keys when an array is sparse or large: both are lists. */
export function asList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k)))
      return keys.sort((a, b) => Number(a) - Number(b)).map((k) => value[k]);
  }
  return undefined;
}

const TRUE = new Set(['true', 't', '1']);
const FALSE = new Set(['false', 'f', '0']);

/** `true/false/t/f/1/0` (and real booleans) as a boolean, or undefined. */
export function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.toLowerCase();
  return TRUE.has(text) ? true : FALSE.has(text) ? false : undefined;
}

/** A whole number written as digits (or a JS integer), within the safe range. */
export function asInteger(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string' || !/^[-+]?\d{1,16}$/.test(value.trim())) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}
