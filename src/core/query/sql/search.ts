import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../../database/dialect.js';
import { isHidden, type ContentType, type ScalarType } from '../../schema/model.js';
import { or } from './scope.js';

const TEXT_TYPES = new Set<ScalarType>(['string', 'text', 'richtext', 'email', 'uid', 'enumeration']);
const NUMBER_TYPES = new Set<ScalarType>(['integer', 'biginteger', 'float', 'decimal']);

/**
 * `_q` as Strapi searches: the documents where `id`, `documentId`, `locale` or a text attribute
 * (string, text, richtext, email, uid, enumeration) contains the text, ignoring case; when the
 * text reads as a number, numeric attributes too (as text: `_q=4` finds 42). Attributes marked
 * `searchable: false` are left out, and so are private ones (Strapi searches those, which lets a
 * caller probe values it may not read). The text is matched literally: `%` and `_` are no wildcards.
 */
export function searchCondition(dialect: Dialect, type: ContentType, alias: string, text: string): RawBuilder<boolean> {
  const column = (name: string) => sql`${sql.ref(`${alias}.${name}`)}`;
  const numeric = !Number.isNaN(Number(text));
  const texts = [column('document_id'), ...(type.localized ? [column('locale')] : [])];
  const numbers = [column('id')];
  for (const attribute of type.scalars) {
    if (isHidden(attribute) || attribute.searchable === false) continue;
    if (TEXT_TYPES.has(attribute.type)) texts.push(column(attribute.column));
    else if (numeric && NUMBER_TYPES.has(attribute.type)) numbers.push(column(attribute.column));
  }
  const contains = (expression: RawBuilder<unknown>) =>
    dialect.matches(expression, text, { start: false, end: false }, true);
  return or([...texts.map(contains), ...numbers.map((n) => contains(dialect.asText(n)))]);
}
