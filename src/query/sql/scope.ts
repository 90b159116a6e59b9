import { sql, type RawBuilder } from 'kysely';
import type { ContentType } from '../../schema/model.js';
import type { Status } from '../types.js';

/** Which version of documents a read sees: its status, and its locale (null for types without i18n). */
export interface VersionScope {
  status: Status;
  locale: string | null;
}

export const TRUE = sql<boolean>`1 = 1`;
export const FALSE = sql<boolean>`1 = 0`;

export const and = (parts: RawBuilder<boolean>[]): RawBuilder<boolean> =>
  parts.length === 0 ? TRUE : parts.length === 1 ? parts[0]! : (sql<boolean>`(${sql.join(parts, sql` and `)})`);

export const or = (parts: RawBuilder<boolean>[]): RawBuilder<boolean> =>
  parts.length === 0 ? FALSE : parts.length === 1 ? parts[0]! : (sql<boolean>`(${sql.join(parts, sql` or `)})`);

/** Draft rows have no published_at; types without draft and publish ignore the status. */
export function statusCondition(type: ContentType, alias: string, status: Status): RawBuilder<boolean> {
  if (!type.draftAndPublish) return TRUE;
  return status === 'draft'
    ? sql<boolean>`${sql.ref(`${alias}.published_at`)} is null`
    : sql<boolean>`${sql.ref(`${alias}.published_at`)} is not null`;
}

/** The rows of one version (status and locale) of a type. */
export function versionCondition(type: ContentType, alias: string, scope: VersionScope): RawBuilder<boolean> {
  const parts = [statusCondition(type, alias, scope.status)].filter((p) => p !== TRUE);
  if (type.localized) parts.push(sql<boolean>`${sql.ref(`${alias}.locale`)} = ${scope.locale}`);
  return and(parts);
}
