/**
 * Names as Strapi 5.54's Content-Type Builder derives them (`@strapi/utils` strings and
 * content-types): the same libraries (lodash's word splitting, @sindresorhus/slugify 1.1,
 * pluralize), so that a uid, folder or table name Vellum writes is the one Strapi would.
 */
import camelCase from 'lodash/camelCase.js';
import snakeCase from 'lodash/snakeCase.js';
import upperFirst from 'lodash/upperFirst.js';
import pluralize from 'pluralize';
import slugify from '@sindresorhus/slugify';

export { snakeCase };

/** `Rich text` -> `rich-text` (uids, folder and file names). */
export const nameToSlug = (name: string): string => slugify(name, { separator: '-' });
/** `Rich text` -> `rich_text` (table names). */
export const nameToCollectionName = (name: string): string => slugify(name, { separator: '_' });
export const startsWithANumber = (value: string): boolean => /^[0-9]/.test(value);
export const plural = (word: string): string => pluralize(word);

/** A content-type's globalId (`Article`), a plugin's prefixed (`UsersPermissionsUser`). */
export const contentTypeGlobalId = (singularName: string, plugin?: string): string =>
  upperFirst(camelCase(plugin ? `${plugin}-${singularName}` : singularName));
export const componentGlobalId = (uid: string): string => upperFirst(camelCase(`component_${uid}`));

// Strapi's reserved names, in snake case; `*` ends a prefix (`strapi*` refuses `strapi_foo`).
const RESERVED_ATTRIBUTE_NAMES = [
  'id',
  'document_id',
  'created_at',
  'updated_at',
  'published_at',
  'created_by_id',
  'updated_by_id',
  'created_by',
  'updated_by',
  'entry_id',
  'localizations',
  'meta',
  'locale',
  '__component',
  '__contentType',
  'strapi*',
  '_strapi*',
  '__strapi*',
];
/** Only with draft and publish: `status` is the REST and Document Service parameter. */
const RESERVED_ATTRIBUTE_NAMES_DRAFT_PUBLISH = ['status'];
const RESERVED_MODEL_NAMES = [
  'boolean',
  'date',
  'date_time',
  'time',
  'upload',
  'document',
  'then',
  'strapi*',
  '_strapi*',
  '__strapi*',
];

const matches = (snake: string, list: string[]): boolean =>
  list.includes(snake) ||
  list.filter((entry) => entry.endsWith('*')).some((entry) => snake.startsWith(entry.slice(0, -1)));

export const isReservedAttributeName = (name: string): boolean =>
  matches(snakeCase(name), RESERVED_ATTRIBUTE_NAMES) ||
  matches(snakeCase(name), RESERVED_ATTRIBUTE_NAMES_DRAFT_PUBLISH);
export const isReservedModelName = (name: string): boolean => matches(snakeCase(name), RESERVED_MODEL_NAMES);
export const draftAndPublishReservedNames = (names: string[]): string[] =>
  names.filter((name) => matches(snakeCase(name), RESERVED_ATTRIBUTE_NAMES_DRAFT_PUBLISH));
export const draftAndPublishBlockedMessage = (names: string[]): string =>
  `Cannot enable draft and publish while the following attribute names are reserved: ${names.join(', ')}. Rename them or remove them first.`;

/** `GET /content-type-builder/reserved-names`. */
export const reservedNames = () => ({
  models: [...RESERVED_MODEL_NAMES],
  attributes: [...RESERVED_ATTRIBUTE_NAMES, ...RESERVED_ATTRIBUTE_NAMES_DRAFT_PUBLISH],
});
