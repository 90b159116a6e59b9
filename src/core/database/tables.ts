import { FILE_UID, type ContentType, type Model, type ScalarType, type Schema } from '../schema/model.js';
import { indexName } from '../schema/naming.js';

/** The storage type of a column, independent of the dialect. */
export type ColumnType =
  | 'id'
  | 'string'
  | 'text'
  | 'json'
  | 'integer'
  | 'bigint'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'time'
  | 'datetime';

export interface ColumnSpec {
  name: string;
  type: ColumnType;
  notNull?: boolean;
}

interface IndexSpec {
  name: string;
  columns: string[];
  unique?: boolean;
}

/**
 * A unique attribute of a content-type, enforced by the database as Strapi scopes uniqueness: among
 * published versions, per locale for localized types. Each dialect builds its index
 * (`Dialect.createUniqueIndex`): a partial index on SQLite and PostgreSQL, a hidden generated column
 * on MariaDB (which has no partial indexes).
 */
export interface UniqueSpec {
  /** The index's name. */
  name: string;
  table: string;
  column: string;
  type: ColumnType;
  localized: boolean;
  /** The attribute, as error details name it. */
  attribute: string;
}

export interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  indexes: IndexSpec[];
  uniques?: UniqueSpec[];
  /**
   * Indexes earlier versions or starts created on this table and the plan no longer has (a
   * localized type's single-column indexes; a type whose i18n was turned off, its per-locale
   * ones): synchronizeSchema drops them where they exist, so that writes stop paying for them.
   */
  superseded?: string[];
  /**
   * The change counter (`vellum_changes`, changes.ts) that every insert, update and delete of this
   * table bumps, in the write's transaction: its model's table for the tables of content-types and
   * components, their component links and the relation links they own; the file type's for media
   * links. Absent: writes to the table change no content read.
   */
  changeGroup?: string;
}

/** Column types a unique index can hold (json and blocks values are not compared). */
const UNIQUE_INDEXABLE = new Set<ColumnType>([
  'string',
  'text',
  'integer',
  'bigint',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
]);

/** A value that tells whether a unique index still has the definition the schema asks for. */
export const uniqueSignature = (spec: UniqueSpec): string =>
  `${spec.table}|${spec.column}|${spec.type}|${spec.localized ? 'locale' : '-'}|published`;

const SCALAR_COLUMN_TYPES: Record<ScalarType, ColumnType> = {
  string: 'string',
  text: 'text',
  richtext: 'text',
  blocks: 'json',
  enumeration: 'string',
  email: 'string',
  password: 'string',
  uid: 'string',
  date: 'date',
  time: 'time',
  datetime: 'datetime',
  timestamp: 'datetime',
  integer: 'integer',
  biginteger: 'bigint',
  float: 'float',
  decimal: 'decimal',
  boolean: 'boolean',
  json: 'json',
};

export const columnTypeOf = (type: ScalarType): ColumnType => SCALAR_COLUMN_TYPES[type];

/** Column types an index can help: filters and sorts on them should not scan. */
const INDEXABLE = new Set<ColumnType>([
  'string',
  'integer',
  'bigint',
  'float',
  'decimal',
  'boolean',
  'date',
  'time',
  'datetime',
]);

/** Columns every content-type table has, before its attributes. */
const DOCUMENT_COLUMNS: ColumnSpec[] = [
  { name: 'id', type: 'id' },
  { name: 'document_id', type: 'string', notNull: true },
  { name: 'locale', type: 'string' },
  { name: 'published_at', type: 'datetime' },
  { name: 'created_at', type: 'datetime' },
  { name: 'updated_at', type: 'datetime' },
  { name: 'created_by_id', type: 'integer' },
  { name: 'updated_by_id', type: 'integer' },
];

export const MEDIA_LINK_TABLE = 'files_related_mph';
/** The change counters (changes.ts): one row per change group. */
export const CHANGES_TABLE = 'vellum_changes';
const changesTable: TableSpec = {
  name: CHANGES_TABLE,
  columns: [
    { name: 'id', type: 'id' },
    { name: 'name', type: 'string', notNull: true },
    { name: 'version', type: 'bigint', notNull: true },
  ],
  indexes: [{ name: indexName(CHANGES_TABLE, ['name']), columns: ['name'], unique: true }],
};
export const META_TABLE = 'vellum_meta';

/**
 * A content-type's indexes, as they are with i18n on (`localized`) or off: a type whose i18n is
 * turned on or off between starts has the other set's indexes superseded (dropped at start).
 */
function contentTypeIndexes(model: ContentType, localized: boolean): IndexSpec[] {
  const table = model.table;
  const indexes: IndexSpec[] = [];
  indexes.push({
    name: indexName(table, ['document_id', 'locale', 'published_at']),
    columns: ['document_id', 'locale', 'published_at'],
  });
  // Every list reads one version (locale, status): counts walk the first index, id-ordered pages
  // (the default sort) the second, both without touching the wide rows.
  indexes.push({
    name: indexName(table, ['locale', 'published_at', 'id']),
    columns: ['locale', 'published_at', 'id'],
  });
  indexes.push({
    name: indexName(table, ['locale', 'id', 'published_at']),
    columns: ['locale', 'id', 'published_at'],
  });
  // Sites sort by createdAt and updatedAt as often as by their own fields: the same walk in
  // order (page 11 of 50 by createdAt:desc over 1,500 articles on SQLite: 0.66 -> 0.13 ms).
  for (const column of ['created_at', 'updated_at']) {
    const columns = localized ? ['locale', column, 'published_at'] : [column, 'published_at'];
    indexes.push({ name: indexName(table, columns), columns });
  }
  // The home page's lists read the last edited drafts and the last published versions of every
  // locale at once (docs/admin-panel.md "Home page"): a walk of an index from its end, stopped
  // after four matches, whatever the table holds. By updated_at then published_at (the drafts
  // for PostgreSQL, whose plans do not walk `published_at is null` in updated_at's order; every
  // row of a type without draft and publish), and by published_at then updated_at (the published
  // versions; the drafts for SQLite and MariaDB). Unlocalized tables have the first already.
  const walks = [
    ...(localized ? [['updated_at', 'published_at']] : []),
    ...(model.draftAndPublish ? [['published_at', 'updated_at']] : []),
  ];
  for (const columns of walks) indexes.push({ name: indexName(table, columns), columns });
  for (const attribute of model.scalars) {
    const type = columnTypeOf(attribute.type);
    if (!INDEXABLE.has(type) || attribute.type === 'password') continue;
    // A localized type's lists read one locale: sorted by this column, the page walks this
    // index in order and stops after the page, without touching the wide rows (page 37 of
    // 1,360 articles sorted by title on SQLite: 1.1 -> 0.28 ms; an equality filter with its
    // count: 0.33 -> 0.11 ms). Every read of a localized type names its locale, so that index
    // serves where the column's own would: a localized type has only it (seven fewer index
    // entries per article row written; docs/performance.md, the writes of issue 36).
    const columns = localized ? ['locale', attribute.column, 'published_at'] : [attribute.column];
    indexes.push({ name: indexName(table, columns), columns });
  }
  return indexes;
}

function modelTable(model: Model): TableSpec {
  const table = model.table;
  const columns: ColumnSpec[] =
    model.modelType === 'contentType' ? [...DOCUMENT_COLUMNS] : [{ name: 'id', type: 'id' }];
  const isContentType = model.modelType === 'contentType';
  const indexes: IndexSpec[] = isContentType ? contentTypeIndexes(model, model.localized) : [];
  // The indexes of the type with i18n the other way (an earlier start's, before a toggle) that
  // this plan lacks: a localized type's single-column ones, an unlocalized type's per-locale ones.
  const planned = new Set(indexes.map((index) => index.name));
  const superseded = isContentType
    ? contentTypeIndexes(model, !model.localized)
        .map((index) => index.name)
        .filter((name) => !planned.has(name))
    : [];
  const uniques: UniqueSpec[] = [];
  for (const attribute of model.scalars) {
    const type = columnTypeOf(attribute.type);
    columns.push({ name: attribute.column, type });
    if (isContentType && attribute.unique && UNIQUE_INDEXABLE.has(type) && attribute.type !== 'password') {
      uniques.push({
        name: indexName(table, [attribute.column], 'uq'),
        table,
        column: attribute.column,
        type,
        localized: model.localized,
        attribute: attribute.name,
      });
    }
  }
  return { name: table, columns, indexes, uniques, changeGroup: table, ...(superseded.length ? { superseded } : {}) };
}

function componentLinkTable(model: Model): TableSpec {
  const name = model.componentLinkTable;
  return {
    name,
    changeGroup: model.table,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'entity_id', type: 'integer', notNull: true },
      { name: 'cmp_id', type: 'integer', notNull: true },
      { name: 'component_type', type: 'string', notNull: true },
      { name: 'field', type: 'string', notNull: true },
      { name: 'ord', type: 'float' },
    ],
    indexes: [
      { name: indexName(name, ['entity_id', 'field', 'ord']), columns: ['entity_id', 'field', 'ord'] },
      { name: indexName(name, ['component_type', 'cmp_id']), columns: ['component_type', 'cmp_id'] },
    ],
  };
}

const hasComponents = (model: Model): boolean =>
  Object.values(model.attributes).some((a) => a.kind === 'component' || a.kind === 'dynamiczone');

/** The columns of a link table's index by target. */
const TARGET_INDEX = ['target_document_id', 'target_locale', 'entity_ord', 'entity_id'];

/**
 * Every table, column and index the schema needs, in creation order; `systemTables` are the
 * non-content tables of the layers above (users-and-permissions).
 */
export function planTables(schema: Schema, systemTables: TableSpec[] = []): TableSpec[] {
  const models: Model[] = [...schema.components.values(), ...schema.contentTypes.values()];
  const tables = models.map(modelTable);
  for (const model of models) if (hasComponents(model)) tables.push(componentLinkTable(model));
  for (const link of schema.linkTables) {
    tables.push({
      name: link.table,
      changeGroup: (schema.contentTypes.get(link.ownerUid) ?? schema.components.get(link.ownerUid))?.table,
      columns: [
        { name: 'id', type: 'id' },
        { name: 'entity_id', type: 'integer', notNull: true },
        { name: 'target_document_id', type: 'string', notNull: true },
        { name: 'target_locale', type: 'string' },
        { name: 'target_ord', type: 'float' },
        { name: 'entity_ord', type: 'float' },
      ],
      indexes: [
        { name: indexName(link.table, ['entity_id', 'target_ord']), columns: ['entity_id', 'target_ord'] },
        // The owners of a target (inverse order, relation filters), `entity_id` last so that a
        // relation filter's count finds the owners of the matching targets in the index alone:
        // `filters[author][name][$containsi]=a` over 2,000 articles, its count 1.26 -> 0.71 ms of
        // SQLite (the planner then scans the 50 authors and seeks their links, instead of reading
        // all 3,500 link rows and probing an author per link).
        { name: indexName(link.table, TARGET_INDEX), columns: TARGET_INDEX },
      ],
      // The same index without `entity_id`, made by earlier versions.
      superseded: [indexName(link.table, ['target_document_id', 'target_locale', 'entity_ord'])],
    });
  }
  tables.push({
    name: MEDIA_LINK_TABLE,
    changeGroup: schema.contentTypes.get(FILE_UID)?.table,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'file_id', type: 'integer', notNull: true },
      { name: 'related_id', type: 'integer', notNull: true },
      { name: 'related_type', type: 'string', notNull: true },
      { name: 'field', type: 'string', notNull: true },
      { name: 'ord', type: 'float' },
    ],
    indexes: [
      {
        name: indexName(MEDIA_LINK_TABLE, ['related_id', 'related_type', 'field', 'ord']),
        columns: ['related_id', 'related_type', 'field', 'ord'],
      },
      { name: indexName(MEDIA_LINK_TABLE, ['file_id']), columns: ['file_id'] },
    ],
  });
  tables.push({
    name: META_TABLE,
    columns: [
      { name: 'id', type: 'id' },
      { name: 'name', type: 'string', notNull: true },
      { name: 'value', type: 'text' },
    ],
    indexes: [{ name: indexName(META_TABLE, ['name']), columns: ['name'] }],
  });
  tables.push(changesTable);
  tables.push(...systemTables);
  return tables;
}
