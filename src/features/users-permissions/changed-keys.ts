/**
 * The keys of a settings value whose values a change made differ, for the audit log: names only
 * (`github.secret`, never the secret), `depth` levels down (the providers' `<name>.<key>`).
 */
import { isPlainObject } from '../../core/objects.js';

export function changedKeys(before: unknown, after: unknown, depth = 1, prefix = ''): string[] {
  const left = isPlainObject(before) ? before : {};
  const right = isPlainObject(after) ? after : {};
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys.flatMap((key) => {
    const name = `${prefix}${key}`;
    if (depth > 1 && (isPlainObject(left[key]) || isPlainObject(right[key])))
      return changedKeys(left[key], right[key], depth - 1, `${name}.`);
    return JSON.stringify(left[key]) === JSON.stringify(right[key]) ? [] : [name];
  });
}
