/**
 * What one field of the edit view renders from the form: its value and the errors at or under its
 * path. The edit view's fields re-render only when their slice changes (components/FieldInput.tsx):
 * Mantine's controlled form copies every value on each keystroke (klona), so a field cannot tell by
 * reference; comparing its slice keeps a keystroke in a 40-entry zone to the one input typed into
 * (measured by bench/admin-scale.ts: every field of the page re-rendered per key, ~100 ms, before).
 */

/** A form's values and errors as one render saw them (Mantine's `form.values`, `form.errors`). */
export interface FormState {
  values: Record<string, unknown>;
  errors: Record<string, unknown>;
}

/** Structural equality of form values (plain objects, arrays and scalars). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameValue(left[key], right[key]));
}

/** The value at a dotted path (`title`, `seo.metaTitle`, `sections.39.heading`). */
export function valueAtPath(values: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      values,
    );
}

const errorsUnder = (errors: Record<string, unknown>, path: string): [string, unknown][] =>
  Object.entries(errors).filter(([key]) => key === path || key.startsWith(`${path}.`));

/** Whether the field at `path` would render the same from both states. */
export function sameSlice(previous: FormState, next: FormState, path: string): boolean {
  if (!sameValue(valueAtPath(previous.values, path), valueAtPath(next.values, path))) return false;
  if (previous.errors === next.errors) return true;
  const before = errorsUnder(previous.errors, path);
  const after = errorsUnder(next.errors, path);
  return before.length === after.length && before.every(([key, error]) => Object.is(next.errors[key], error));
}
