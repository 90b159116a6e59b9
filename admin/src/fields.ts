/**
 * From the schema to the edit form and back: which input each attribute gets, the form's values
 * from a document, the API's `data` from the form's values, what an edit view populates, and the
 * API's field errors by field. No React here: the unit tests run it in Node (fields.test.ts).
 */
import { toApiValue, toEditorValue, type BlockElement } from './blocks.ts';
import type { ConfiguredAttribute } from './view-configuration.ts';
import type {
  AttributeDescription,
  ComponentDescription,
  ContentTypeDescription,
  SchemaDescription,
} from './schema.ts';

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
  | 'relation'
  | 'component'
  | 'dynamiczone'
  | 'media'
  /** Strapi's rich text blocks, in a Slate editor (blocks.ts). */
  | 'blocks'
  /** Not edited by this version of the panel: left as stored. */
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
    case 'relation':
    case 'component':
    case 'dynamiczone':
    case 'media':
    case 'blocks':
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

/** A related document as a relation field shows it. */
export interface RelationItem {
  documentId: string;
  label: string;
}

/** A media library file as a media field shows it. */
export interface MediaItem {
  id: number;
  name: string;
  url: string;
  mime: string;
  alternativeText: string | null;
}

export const mediaItem = (file: Record<string, unknown>): MediaItem => ({
  id: Number(file.id),
  name: String(file.name ?? ''),
  url: String(file.url ?? ''),
  mime: String(file.mime ?? ''),
  alternativeText: typeof file.alternativeText === 'string' ? file.alternativeText : null,
});

/**
 * A form value: text inputs hold strings, number inputs numbers or '', switches booleans,
 * relations their documents in order, a component its values (null: none), repeatable components
 * and zones lists of values (a zone's with `__component`; `__key` names an entry for React),
 * blocks the editor's value.
 */
export type FormValue =
  string | number | boolean | null | RelationItem[] | MediaItem[] | BlockElement[] | FormValues | FormValues[];
export interface FormValues {
  [name: string]: FormValue;
}

/** The models a form reaches from its content-type: components and relation targets. */
export interface Models {
  component(uid: string): ComponentDescription | undefined;
  contentType(uid: string): ContentTypeDescription | undefined;
}

export function modelsOf(schema: SchemaDescription): Models {
  const components = new Map(schema.components.map((component) => [component.uid, component]));
  const contentTypes = new Map(schema.contentTypes.map((type) => [type.uid, type]));
  return { component: (uid) => components.get(uid), contentType: (uid) => contentTypes.get(uid) };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO instant as `<input type="datetime-local">` shows it, in the browser's time zone. */
export function toLocalDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

let keys = 0;
/** A key for a list entry (React keeps an entry's inputs across reorders by it). */
export const entryKey = (): string => `e${++keys}`;

const record = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** A related document's label: the target's main field, else its documentId. */
export function relationItem(
  models: Models,
  target: string,
  document: Record<string, unknown>,
  main = models.contentType(target)?.mainField,
): RelationItem {
  const label = main ? document[main] : undefined;
  return {
    documentId: String(document.documentId),
    label: label === undefined || label === null || label === '' ? String(document.documentId) : String(label),
  };
}

/** The field that names a relation's documents: the view's configured one, else its target's main field. */
export const mainFieldOf = (models: Models, attribute: ConfiguredAttribute): string | undefined =>
  attribute.mainField ?? models.contentType(attribute.target!)?.mainField ?? undefined;

/**
 * A stored component's id, kept in its form entry as `__id`: a save sends it back, so that the
 * server updates that component's fields (those the administrator may write) rather than replacing
 * it, which would lose the fields they may not write.
 */
const storedId = (item: unknown): { __id?: number } => {
  const id = record(item)?.id;
  return typeof id === 'number' ? { __id: id } : {};
};

/** Form values without their components' stored ids (`__id`): another locale's, copied into this one. */
export function withoutIds<T extends FormValue>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withoutIds(item as FormValue)) as T;
  const object = record(value);
  if (!object) return value;
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => key !== '__id')
      .map(([key, item]) => [key, withoutIds(item as FormValue)]),
  ) as T;
}

/** The form's value of an attribute, from a stored value (a new document: the schema's default). */
export function formValue(attribute: AttributeDescription, stored: unknown, models: Models): FormValue {
  const value = stored === undefined ? attribute.default : stored;
  switch (inputKind(attribute)) {
    case 'boolean':
      return value === true;
    case 'integer':
    case 'decimal':
      return typeof value === 'number'
        ? value
        : typeof value === 'string' && value !== '' && !Number.isNaN(Number(value))
          ? Number(value)
          : '';
    case 'json':
      return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
    case 'datetime':
      return typeof value === 'string' ? toLocalDateTime(value) : '';
    case 'time':
      return typeof value === 'string' ? value.slice(0, 5) : '';
    case 'blocks':
      return toEditorValue(value);
    case 'password':
      // Never read back: an empty password field leaves the stored one.
      return '';
    case 'relation': {
      const documents = Array.isArray(value) ? value : record(value) ? [value] : [];
      return documents.map((document) =>
        relationItem(models, attribute.target!, document as Record<string, unknown>, mainFieldOf(models, attribute)),
      );
    }
    case 'media': {
      const files = Array.isArray(value) ? value : record(value) ? [value] : [];
      return files.map((file) => mediaItem(file as Record<string, unknown>));
    }
    case 'component': {
      const component = models.component(attribute.component!);
      const entry = (item: unknown): FormValues => ({
        __key: entryKey(),
        ...storedId(item),
        ...formValues(component?.attributes ?? [], record(item), models),
      });
      if (attribute.repeatable) return Array.isArray(value) ? value.map(entry) : [];
      return record(value) ? entry(value) : null;
    }
    case 'dynamiczone':
      return (Array.isArray(value) ? value : []).map((item) => {
        const uid = String(record(item)?.__component ?? '');
        return {
          __component: uid,
          __key: entryKey(),
          ...storedId(item),
          ...formValues(models.component(uid)?.attributes ?? [], record(item), models),
        };
      });
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

export function formValues(
  attributes: AttributeDescription[],
  document: Record<string, unknown> | null,
  models: Models,
): FormValues {
  const values: FormValues = {};
  for (const attribute of attributes) {
    if (isEditable(attribute))
      values[attribute.name] = formValue(attribute, document ? document[attribute.name] : undefined, models);
  }
  return values;
}

/** A new entry of a component (a repeatable's, a zone's), with its defaults. */
export function newEntry(uid: string, models: Models, zone: boolean): FormValues {
  const values = { __key: entryKey(), ...formValues(models.component(uid)?.attributes ?? [], null, models) };
  return zone ? { __component: uid, ...values } : values;
}

export class JsonFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const idOf = (entry: FormValues): { id?: number } => (typeof entry.__id === 'number' ? { id: entry.__id } : {});

/** The API's value of a form value: empty inputs are null, JSON is parsed, times get seconds; a stored component keeps its id. */
export function apiValue(
  attribute: AttributeDescription,
  value: FormValue,
  models: Models,
  path = attribute.name,
): unknown {
  const kind = inputKind(attribute);
  if (kind === 'boolean') return value === true;
  if (kind === 'blocks') return toApiValue(value);
  if (kind === 'relation')
    return { set: (Array.isArray(value) ? (value as RelationItem[]) : []).map((item) => item.documentId) };
  if (kind === 'media') {
    const ids = (Array.isArray(value) ? (value as MediaItem[]) : []).map((file) => file.id);
    return attribute.multiple ? ids : (ids[0] ?? null);
  }
  if (kind === 'component') {
    const attributes = models.component(attribute.component!)?.attributes ?? [];
    if (attribute.repeatable)
      return (Array.isArray(value) ? (value as FormValues[]) : []).map((item, i) => ({
        ...idOf(item),
        ...apiData(attributes, item, models, undefined, `${path}.${i}`),
      }));
    return record(value)
      ? { ...idOf(value as FormValues), ...apiData(attributes, value as FormValues, models, undefined, path) }
      : null;
  }
  if (kind === 'dynamiczone') {
    return (Array.isArray(value) ? (value as FormValues[]) : []).map((item, i) => {
      const uid = String(item.__component);
      return {
        __component: uid,
        ...idOf(item),
        ...apiData(models.component(uid)?.attributes ?? [], item, models, undefined, `${path}.${i}`),
      };
    });
  }
  if (value === '' || value === undefined || value === null) return null;
  switch (kind) {
    case 'integer':
    case 'decimal':
      return typeof value === 'number' ? value : Number(value);
    case 'json':
      try {
        return JSON.parse(String(value));
      } catch {
        throw new JsonFieldError(path, `${attribute.name} is not valid JSON`);
      }
    case 'datetime':
      return new Date(String(value)).toISOString();
    case 'time':
      return String(value).length === 5 ? `${value}:00.000` : String(value);
    default:
      return value;
  }
}

const same = (a: FormValue | undefined, b: FormValue | undefined) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * The `data` of a save: the values of the editable attributes; a password only when one was typed.
 * With `initial`, only the attributes whose value differs from it (an update sends only those).
 */
export function apiData(
  attributes: AttributeDescription[],
  values: FormValues,
  models: Models,
  initial?: FormValues,
  prefix?: string,
): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const attribute of attributes) {
    if (!isEditable(attribute) || !(attribute.name in values)) continue;
    const value = values[attribute.name]!;
    if (inputKind(attribute) === 'password' && value === '') continue;
    if (initial && same(initial[attribute.name], value)) continue;
    data[attribute.name] = apiValue(attribute, value, models, prefix ? `${prefix}.${attribute.name}` : attribute.name);
  }
  return data;
}

type Populate = Record<string, unknown>;

/** What an edit view populates: relations (their main field), media, components and zones, nested. */
export function populateFor(attributes: AttributeDescription[], models: Models, depth = 0): Populate {
  const populate: Populate = {};
  // Components nest a few levels at most; a schema that cycles stops here.
  if (depth > 5) return populate;
  const nested = (uid: string) => {
    const inner = populateFor(models.component(uid)?.attributes ?? [], models, depth + 1);
    return Object.keys(inner).length ? { populate: inner } : true;
  };
  for (const attribute of attributes) {
    switch (attribute.type) {
      case 'relation': {
        const main = mainFieldOf(models, attribute);
        populate[attribute.name] = main ? { fields: [main] } : true;
        break;
      }
      case 'media':
        populate[attribute.name] = true;
        break;
      case 'component':
        populate[attribute.name] = nested(attribute.component!);
        break;
      case 'dynamiczone':
        populate[attribute.name] = {
          on: Object.fromEntries((attribute.components ?? []).map((uid) => [uid, nested(uid)])),
        };
        break;
    }
  }
  return populate;
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
  return [
    'string',
    'email',
    'uid',
    'integer',
    'biginteger',
    'float',
    'decimal',
    'date',
    'time',
    'datetime',
    'timestamp',
    'boolean',
    'enumeration',
  ].includes(attribute.type);
}
