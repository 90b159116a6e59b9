import { notifications } from '@mantine/notifications';
import { ApiError } from './api.ts';

/**
 * An API error on a settings form: each field's first error beside it (the fields the form has), the
 * rest (and errors without fields: "Username already taken") in a notification titled `title`.
 */
export function showFormError(
  error: Error,
  fields: readonly string[],
  setFieldError: (field: string, message: string) => void,
  title: string,
): void {
  const shown = new Set<string>();
  for (const { path, message } of error instanceof ApiError ? error.errors : []) {
    const field = path.join('.');
    // The first of a field's errors (a password's first unmet rule).
    if (!fields.includes(field) || shown.has(field)) continue;
    setFieldError(field, message);
    shown.add(field);
  }
  if (shown.size === 0) notifications.show({ color: 'red', title, message: error.message });
}
