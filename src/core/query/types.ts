/**
 * The typed query: what a request's query string (or a GraphQL call, or project code) asks of the
 * document service, after every name has been checked against the schema. Nothing here is SQL.
 */
import type { ComponentAttribute, Model, RelationAttribute, ScalarAttribute, ScalarType } from '../schema/model.js';

export const COMPARISON_OPERATORS = [
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$null',
  '$notNull',
  '$between',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** A column a filter or sort can touch: an attribute's, or one of the document columns. */
export interface FieldRef {
  /** Attribute name as the client wrote it (`publishDate`, `documentId`). */
  name: string;
  column: string;
  type: ScalarType | 'id';
  attribute?: ScalarAttribute;
}

export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode }
  | { kind: 'compare'; field: FieldRef; operator: ComparisonOperator; value: unknown }
  /** Holds when some related document (of the request's status and locale) matches `filter`. */
  | { kind: 'relation'; attribute: RelationAttribute; filter: FilterNode }
  /** Holds when some component value matches `filter`. */
  | { kind: 'component'; attribute: ComponentAttribute; filter: FilterNode }
  /**
   * Holds when the administrator the row's creator column names (`created_by_id`,
   * `updated_by_id`: a type's `createdBy`, `updatedBy`) matches `filter` (on core/schema/creators.ts's model).
   */
  | { kind: 'creator'; column: string; filter: FilterNode };

export interface SortItem {
  /** Relations and components walked to reach the field (`author.name` has `[author]`). */
  through: (RelationAttribute | ComponentAttribute)[];
  /**
   * `createdBy.firstname`: the column of the row reached (`created_by_id`) naming the administrator
   * whose `field` (on core/schema/creators.ts's model) is sorted on.
   */
  creator?: string;
  field: FieldRef;
  direction: 'asc' | 'desc';
}

export type Pagination =
  | { kind: 'page'; page: number; pageSize: number; withCount: boolean }
  | { kind: 'offset'; start: number; limit: number; withCount: boolean };

export interface PopulateNode {
  /** Selected scalar attributes; undefined means all. */
  fields?: string[];
  filters?: FilterNode;
  sort?: SortItem[];
  populate?: PopulateTree;
  /** Dynamic zones, detailed strategy: per component uid. */
  on?: Record<string, PopulateNode>;
  /** Count only (`populate[tags][count]=true`). */
  count?: boolean;
  /**
   * At most this many values per owner, the first in order: what a GraphQL nested page can show
   * (`PER_OWNER_LIMIT`; REST reads every one). Relations, media and repeatable components.
   */
  limit?: number;
}

/** Attribute name to what to populate below it. */
export type PopulateTree = Record<string, PopulateNode>;

export type Status = 'published' | 'draft';

/**
 * Strapi 5.54's `publicationFilter` cohorts: which versions of draft-and-publish documents a read
 * keeps, beside `status` (the legacy `hasPublishedVersion=true|false` names two of them).
 */
export const PUBLICATION_FILTERS = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
] as const;
export type PublicationFilter = (typeof PUBLICATION_FILTERS)[number];

export interface FindOneQuery {
  fields?: string[];
  populate: PopulateTree;
  status: Status;
  /** Resolved locale code; ignored for types that are not localized. */
  locale: string;
  /**
   * Reads only: the locales of the documents read when not just `locale`: several
   * (`locale[0]=en&locale[1]=fr`), or every one (`*`: `locale=*`, or `filters` naming `locale` at
   * their top, which replaces the locale lookup as in Strapi).
   */
  locales?: string[] | '*';
  /** Reads only (a single document too, as in Strapi: a document that does not match is a 404). */
  filters?: FilterNode;
  /** `_q`: text that one of the searchable columns contains. */
  search?: string;
  sort?: SortItem[];
  /** Applies to the documents read and to the draft-and-publish types populated below them. */
  publication?: PublicationFilter;
  /**
   * Only the documents these administrators created (`created_by_id`): an administrator role's
   * creator conditions. Set from CallerOptions.createdBy, never from a request's parameters.
   */
  createdBy?: number[];
  /**
   * Only the documents whose rows a row's relation does not link yet, those of `except` (row ids)
   * kept either way: the content manager's list of the relations one may add. Set from
   * CallerOptions.unlinkedFrom, never from a request's parameters.
   */
  unlinkedFrom?: UnlinkedFrom;
}

/**
 * A row's relation (the content manager's relation lists): the row (its id, and for a
 * content-type its document and locale) and the attribute.
 */
export interface RelationOf {
  model: Model;
  attribute: RelationAttribute;
  rowId: number;
  documentId?: string;
  locale?: string | null;
}

export interface UnlinkedFrom {
  relation: RelationOf;
  except?: number[];
}

export interface FindQuery extends FindOneQuery {
  sort: SortItem[];
  pagination: Pagination;
}
