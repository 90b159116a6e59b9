import { createHash } from 'node:crypto';

/** Database identifiers stay under this length on every dialect (MySQL's limit is 64). */
const MAX_IDENTIFIER_LENGTH = 55;

/** `publishDate` -> `publish_date`, `metaTitle` -> `meta_title`, `rich-text` -> `rich_text`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase();
}

/** Shortens a long identifier deterministically: a readable prefix plus a hash of the whole. */
export function identifier(name: string): string {
  if (name.length <= MAX_IDENTIFIER_LENGTH) return name;
  const hash = createHash('sha1').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER_LENGTH - 9)}_${hash}`;
}

export const linkTableName = (ownerTable: string, attribute: string): string =>
  identifier(`${ownerTable}_${snakeCase(attribute)}_lnk`);

export const componentLinkTableName = (ownerTable: string): string => identifier(`${ownerTable}_cmps`);

export const indexName = (table: string, columns: string[], suffix = 'idx'): string =>
  identifier(`${table}_${columns.join('_')}_${suffix}`);
