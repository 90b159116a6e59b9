import type { FieldError } from '../../core/errors.js';

const fieldError = (path: string, message: string): FieldError => ({ path: [path], message, name: 'ValidationError' });

/** Strapi's admin password rule (common-validators.js), its messages. */
export function passwordErrors(path: string, value: unknown): FieldError[] {
  if (typeof value !== 'string') return [fieldError(path, `${path} must be a \`string\` type`)];
  const errors: FieldError[] = [];
  if (value.length < 8) errors.push(fieldError(path, `${path} must be at least 8 characters`));
  if (Buffer.byteLength(value) > 72) errors.push(fieldError(path, `${path} must be less than 73 bytes`));
  if (!/[a-z]/.test(value)) errors.push(fieldError(path, `${path} must contain at least one lowercase character`));
  if (!/[A-Z]/.test(value)) errors.push(fieldError(path, `${path} must contain at least one uppercase character`));
  if (!/\d/.test(value)) errors.push(fieldError(path, `${path} must contain at least one number`));
  return errors;
}
