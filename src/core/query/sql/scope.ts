import { sql, type RawBuilder } from 'kysely';
import type { ContentType } from '../../schema/model.js';
import type { PublicationFilter, Status } from '../types.js';

/**
 * Which version of documents a read sees: its status and publication cohort (for every
 * draft-and-publish type it reaches), and the locales of the documents read (`null`: every one;
 * relations follow their links whatever the locale).
 */
export interface VersionScope {
  status: Status;
  locale: string | string[] | null;
  publication?: PublicationFilter;
}

export const TRUE = sql<boolean>`1 = 1`;
export const FALSE = sql<boolean>`1 = 0`;

export const and = (parts: RawBuilder<boolean>[]): RawBuilder<boolean> =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` and `)})`;

export const or = (parts: RawBuilder<boolean>[]): RawBuilder<boolean> =>
  parts.length === 0 ? FALSE : parts.length === 1 ? parts[0]! : sql<boolean>`(${sql.join(parts, sql` or `)})`;

/**
 * Draft rows have no published_at; types without draft and publish ignore the status. With a
 * publication cohort, only the rows of that cohort (see publicationCondition).
 */
export function statusCondition(
  type: ContentType,
  alias: string,
  status: Status,
  publication?: PublicationFilter,
): RawBuilder<boolean> {
  if (!type.draftAndPublish) return TRUE;
  const own =
    status === 'draft'
      ? sql<boolean>`${sql.ref(`${alias}.published_at`)} is null`
      : sql<boolean>`${sql.ref(`${alias}.published_at`)} is not null`;
  return publication ? and([own, publicationCondition(type, alias, status, publication)]) : own;
}

/**
 * Strapi 5.54's `publicationFilter` cohorts, on a row of `alias` of the given status: whether the
 * same document (in the same locale, or in any locale for the `-document` cohorts) has a version
 * of the other status, and for `modified`/`unmodified` whether its draft was updated after its
 * published version.
 */
function publicationCondition(
  type: ContentType,
  alias: string,
  status: Status,
  mode: PublicationFilter,
): RawBuilder<boolean> {
  const other = `${alias}_pv`;
  const ref = (a: string, column: string) => sql.ref(`${a}.${column}`);
  const sameDocument = sql<boolean>`${ref(other, 'document_id')} = ${ref(alias, 'document_id')}`;
  const sameVersion = type.localized
    ? and([sameDocument, sql<boolean>`${ref(other, 'locale')} = ${ref(alias, 'locale')}`])
    : sameDocument;
  const otherStatus =
    status === 'draft'
      ? sql<boolean>`${ref(other, 'published_at')} is not null`
      : sql<boolean>`${ref(other, 'published_at')} is null`;
  const exists = (pair: RawBuilder<boolean>, extra?: RawBuilder<boolean>) =>
    sql<boolean>`exists (select 1 from ${sql.table(type.table)} as ${sql.id(other)} where ${and([pair, otherStatus, ...(extra ? [extra] : [])])})`;
  const draft = status === 'draft' ? alias : other;
  const published = status === 'draft' ? other : alias;
  const draftNewer = sql<boolean>`${ref(draft, 'updated_at')} > ${ref(published, 'updated_at')}`;
  const draftNotNewer = sql<boolean>`${ref(draft, 'updated_at')} <= ${ref(published, 'updated_at')}`;
  switch (mode) {
    case 'never-published':
      return status === 'published' ? FALSE : sql<boolean>`not ${exists(sameVersion)}`;
    case 'has-published-version':
      return exists(sameVersion);
    case 'modified':
      return exists(sameVersion, draftNewer);
    case 'unmodified':
      return exists(sameVersion, draftNotNewer);
    case 'never-published-document':
      return status === 'published' ? FALSE : sql<boolean>`not ${exists(sameDocument)}`;
    case 'has-published-version-document':
      return exists(sameDocument);
    case 'published-without-draft':
      return status === 'draft' ? FALSE : sql<boolean>`not ${exists(sameVersion)}`;
    case 'published-with-draft':
      return status === 'draft' ? FALSE : exists(sameVersion);
  }
}

/** The rows of one version (status, cohort and locales) of a type. */
export function versionCondition(type: ContentType, alias: string, scope: VersionScope): RawBuilder<boolean> {
  const parts = [statusCondition(type, alias, scope.status, scope.publication)].filter((p) => p !== TRUE);
  if (type.localized && scope.locale !== null) {
    const column = sql.ref(`${alias}.locale`);
    if (typeof scope.locale === 'string') parts.push(sql<boolean>`${column} = ${scope.locale}`);
    else parts.push(scope.locale.length ? sql<boolean>`${column} in (${sql.join(scope.locale)})` : FALSE);
  }
  return and(parts);
}
