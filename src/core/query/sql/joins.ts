import { sql, type RawBuilder } from 'kysely';
import type { ContentType, Model, RelationAttribute, Schema } from '../../schema/model.js';
import { and, statusCondition, type VersionScope } from './scope.js';

/** Fresh table aliases for nested subqueries (`t1`, `t2`, ...), unique within one statement. */
export class Aliases {
  private next = 0;
  take(prefix = 't'): string {
    this.next += 1;
    return `${prefix}${this.next}`;
  }
}

export interface RelatedRows {
  from: RawBuilder<unknown>;
  /** Ties the link rows to the row `alias`. */
  where: RawBuilder<boolean>;
  target: string;
  link: string;
  targetType: ContentType;
  /** When `where` is one column equality: `alias.column = linkColumn` (for `column in (select ...)`). */
  key?: { column: string; linkColumn: string };
}

/**
 * Whether a filter from rows of `model` through a relation matches any version of its targets.
 * Strapi links a row of a type without draft and publish to the draft and the published rows of a
 * target that has both, and its filters join every linked row: a badge whose holder has only a
 * draft is found by the holder's name whatever the status read (checked on Strapi 5.54).
 * Populating still shows the version of the status read.
 */
export const anyTargetVersion = (model: Model): boolean => model.modelType === 'contentType' && !model.draftAndPublish;

/**
 * The rows related to `alias` through a relation attribute, as `from ... where ...` parts: the
 * caller adds what it selects and any extra condition on `target` (the related rows' alias).
 * Owner side: link rows of the owner row, joined to the target version the scope asks for (in the
 * locale the link names). Inverse side: link rows naming the document, joined to owner rows.
 */
export function relatedRows(
  schema: Schema,
  model: Model,
  alias: string,
  attribute: RelationAttribute,
  scope: VersionScope,
  aliases: Aliases,
  /** Every version of the targets, not the scope's: see `anyTargetVersion`. */
  anyVersion = false,
): RelatedRows {
  const link = aliases.take('l');
  const target = aliases.take('t');
  const targetType = schema.contentTypes.get(attribute.target)!;
  const version = anyVersion ? [] : [statusCondition(targetType, target, scope.status, scope.publication)];
  const table = attribute.link.table;
  if (attribute.owner) {
    const localeJoin = targetType.localized
      ? sql<boolean>`${sql.ref(`${target}.locale`)} = ${sql.ref(`${link}.target_locale`)}`
      : undefined;
    return {
      from: sql`${sql.table(table)} as ${sql.id(link)} join ${sql.table(targetType.table)} as ${sql.id(target)} on ${and(
        [
          sql<boolean>`${sql.ref(`${target}.document_id`)} = ${sql.ref(`${link}.target_document_id`)}`,
          ...(localeJoin ? [localeJoin] : []),
          ...version,
        ],
      )}`,
      where: sql<boolean>`${sql.ref(`${link}.entity_id`)} = ${sql.ref(`${alias}.id`)}`,
      target,
      link,
      targetType,
      key: { column: 'id', linkColumn: `${link}.entity_id` },
    };
  }
  const self = model as ContentType;
  const conditions = [sql<boolean>`${sql.ref(`${link}.target_document_id`)} = ${sql.ref(`${alias}.document_id`)}`];
  if (self.localized)
    conditions.push(sql<boolean>`${sql.ref(`${link}.target_locale`)} = ${sql.ref(`${alias}.locale`)}`);
  // The link names the owner's row, in the locale that was linked (not the request's).
  const ownerConditions = [sql<boolean>`${sql.ref(`${target}.id`)} = ${sql.ref(`${link}.entity_id`)}`, ...version];
  return {
    from: sql`${sql.table(table)} as ${sql.id(link)} join ${sql.table(targetType.table)} as ${sql.id(target)} on ${and(ownerConditions)}`,
    where: and(conditions),
    target,
    link,
    targetType,
    key: self.localized ? undefined : { column: 'document_id', linkColumn: `${link}.target_document_id` },
  };
}
