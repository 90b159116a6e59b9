import { notifications } from '@mantine/notifications';
import { ApiError } from './api.ts';

/**
 * An API error on a settings form: each field error beside its field (those the form has), the
 * rest (and errors without fields: "Username already taken") in a notification titled `title`.
 */
export function showFormError(
  error: Error,
  fields: readonly string[],
  setFieldError: (field: string, message: string) => void,
  title: string,
): void {
  let shown = false;
  for (const { path, message } of error instanceof ApiError ? error.errors : []) {
    const field = path.join('.');
    if (!fields.includes(field)) continue;
    setFieldError(field, message);
    shown = true;
  }
  if (!shown) notifications.show({ color: 'red', title, message: error.message });
}
