/**
 * From the schema to the edit form and back: which input each attribute gets, the form's values
 * from a document, the API's `data` from the form's values, and the API's field errors by field.
 * No React here: the unit tests run it in Node (fields.test.ts).
 */
import type { AttributeDescription } from './schema.ts';

export type InputKind =
  | 'string'
  | 'text'
  | 'markdown'
  | 'email'
  | 'password'
  | 'uid'
  | 'integer'
  | 'decimal'
  | 'biginteger'
  | 'date'
  | 'time'
  | 'datetime'
  | 'boolean'
  | 'enumeration'
  | 'json'
  /** Not edited by this version of the panel (relations, media, components, zones, blocks): left as stored. */
  | 'unsupported';

export function inputKind(attribute: AttributeDescription): InputKind {
  switch (attribute.type) {
    case 'string':
    case 'text':
    case 'email':
    case 'password':
    case 'uid':
    case 'integer':
    case 'biginteger':
    case 'date':
    case 'time':
    case 'datetime':
    case 'boolean':
    case 'enumeration':
    case 'json':
      return attribute.type;
    case 'richtext':
      return 'markdown';
    case 'float':
    case 'decimal':
      return 'decimal';
    case 'timestamp':
      return 'datetime';
    default:
      return 'unsupported';
  }
}

export const isEditable = (attribute: AttributeDescription): boolean => inputKind(attribute) !== 'unsupported';

/** A form value: text inputs hold strings, number inputs numbers or '', switches booleans. */
export type FormValue = string | number | boolean;
export type FormValues = Record<string, FormValue>;

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO instant as `<input type="datetime-local">` shows it, in the browser's time zone. */
export function toLocalDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The form's value of an attribute, from a stored value (a new document: the schema's default). */
export function formValue(attribute: AttributeDescription, stored: unknown): FormValue {
  const value = stored === undefined ? attribute.default : stored;
  switch (inputKind(attribute)) {
    case 'boolean':
      return value === true;
    case 'integer':
    case 'decimal':
      return typeof value === 'number' ? value : typeof value === 'string' && value !== '' && !Number.isNaN(Number(value)) ? Number(value) : '';
    case 'json':
      return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
    case 'datetime':
      return typeof value === 'string' ? toLocalDateTime(value) : '';
    case 'time':
      return typeof value === 'string' ? value.slice(0, 5) : '';
    case 'password':
      // Never read back: an empty password field leaves the stored one.
      return '';
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

export function formValues(attributes: AttributeDescription[], document: Record<string, unknown> | null): FormValues {
  const values: FormValues = {};
  for (const attribute of attributes) {
    if (isEditable(attribute)) values[attribute.name] = formValue(attribute, document ? document[attribute.name] : undefined);
  }
  return values;
}

export class JsonFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The API's value of a form value: empty inputs are null, JSON is parsed, times get seconds. */
export function apiValue(attribute: AttributeDescription, value: FormValue): unknown {
  const kind = inputKind(attribute);
  if (kind === 'boolean') return value === true;
  if (value === '' || value === undefined) return null;
  switch (kind) {
    case 'integer':
    case 'decimal':
      return typeof value === 'number' ? value : Number(value);
    case 'json':
      try {
        return JSON.parse(String(value));
      } catch {
        throw new JsonFieldError(attribute.name, `${attribute.name} is not valid JSON`);
      }
    case 'datetime':
      return new Date(String(value)).toISOString();
    case 'time':
      return String(value).length === 5 ? `${value}:00.000` : String(value);
    default:
      return value;
  }
}

/**
 * The `data` of a save: the values of the editable attributes; a password only when one was typed.
 * `changedOnly` keeps the attributes whose value differs from `initial` (an update sends only those).
 */
export function apiData(attributes: AttributeDescription[], values: FormValues, initial?: FormValues): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const attribute of attributes) {
    if (!isEditable(attribute) || !(attribute.name in values)) continue;
    const value = values[attribute.name]!;
    if (inputKind(attribute) === 'password' && value === '') continue;
    if (initial && initial[attribute.name] === value) continue;
    data[attribute.name] = apiValue(attribute, value);
  }
  return data;
}

/** The API's field errors by the attribute they name (`seo.title` for a component's); the first of each. */
export function errorsByField(errors: { path: (string | number)[]; message: string }[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const error of errors) {
    const key = error.path.join('.');
    if (key && !(key in byField)) byField[key] = error.message;
  }
  return byField;
}

/** Strapi's uid generation: the target field's text as a URL slug. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The columns a list shows before the editor chooses: the main field, then the next scalars, up to four. */
export function defaultColumns(attributes: AttributeDescription[], mainField: string | null): string[] {
  const listable = attributes.filter((attribute) => listableAttribute(attribute)).map((attribute) => attribute.name);
  const ordered = mainField ? [mainField, ...listable.filter((name) => name !== mainField)] : listable;
  return ordered.slice(0, 4);
}

/** Scalars shown in a list cell and sortable on the server (not long text, JSON or secrets). */
export function listableAttribute(attribute: AttributeDescription): boolean {
  return ['string', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time', 'datetime', 'timestamp', 'boolean', 'enumeration'].includes(attribute.type);
}
