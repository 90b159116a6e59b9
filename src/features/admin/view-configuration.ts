/**
 * The content manager's view configuration of a type or component, as Strapi 5.54 generates,
 * stores and checks it (its `services/utils/configuration/*`): `settings` (bulkable, filterable,
 * searchable, pageSize, relationOpenMode, mainField, defaultSortBy, defaultSortOrder), `metadatas`
 * (per attribute: `edit` label, description, placeholder, visible, editable, a relation's
 * mainField; `list` label, searchable, sortable) and `layouts` (`list`: the list's columns;
 * `edit`: rows of `{ name, size }` on a 12-column grid). The defaults come from the schema; a
 * stored configuration is brought in line with the schema as it is now (attributes gone dropped,
 * new ones appended), as Strapi's `syncConfiguration` does at its start. A change is checked by
 * view-configuration-check.ts.
 */
import { isPlainObject } from '../../core/objects.js';
import type { Attribute, Model, Schema } from '../../core/schema/model.js';

type Data = Record<string, unknown>;

export interface EditMetadata {
  label?: string;
  description?: string | null;
  placeholder?: string | null;
  visible?: boolean;
  editable?: boolean;
  mainField?: string;
}
export interface ListMetadata {
  label?: string;
  searchable?: boolean;
  sortable?: boolean;
  mainField?: string;
}
export interface Metadata {
  edit: EditMetadata;
  list: ListMetadata;
}
export interface ViewSettings {
  bulkable: boolean;
  filterable: boolean;
  searchable: boolean;
  pageSize: number;
  relationOpenMode?: string;
  mainField: string;
  defaultSortBy: string;
  defaultSortOrder: string;
}
export interface ViewConfiguration {
  settings: ViewSettings;
  metadatas: Record<string, Metadata>;
  layouts: { list: string[]; edit: { name: string; size: number }[][] };
}

/** An attribute as the content manager sees it: Strapi's type names and the fields it adds. */
export interface CmAttribute {
  type: string;
  relation?: string;
  target?: string;
}

/** Strapi's field sizes (its `field-sizes` service): the default width and whether it may change. */
export const FIELD_SIZES: Record<string, { default: number; isResizable: boolean }> = Object.fromEntries([
  ...['dynamiczone', 'component', 'json', 'richtext', 'blocks'].map((t) => [t, { default: 12, isResizable: false }]),
  ...['checkbox', 'boolean', 'date', 'time', 'biginteger', 'decimal', 'float', 'integer', 'number'].map((t) => [
    t,
    { default: 4, isResizable: true },
  ]),
  ...['datetime', 'email', 'enumeration', 'media', 'password', 'relation', 'string', 'text', 'timestamp', 'uid'].map(
    (t) => [t, { default: 6, isResizable: true }],
  ),
]);

const NON_SORTABLES = ['component', 'json', 'media', 'richtext', 'dynamiczone', 'blocks'];
const SORTABLE_RELATIONS = ['oneToOne', 'manyToOne'];
const NON_LISTABLES = ['json', 'password', 'richtext', 'dynamiczone', 'blocks'];
const LISTABLE_RELATIONS = ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'];
const INVISIBLE = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);
const DEFAULT_LIST_LENGTH = 4;
const MAX_ROW_SIZE = 12;
/** The administrators' type, whose default main field is their first name. */
export const ADMIN_USER = { uid: 'admin::user', mainField: 'firstname' };

const typeOf = (attribute: Attribute): CmAttribute => {
  switch (attribute.kind) {
    case 'scalar':
      return { type: attribute.type };
    case 'relation':
      // Strapi's one-way relations are its oneToOne and oneToMany without an inverse.
      return {
        type: 'relation',
        relation:
          attribute.relation === 'oneWay'
            ? 'oneToOne'
            : attribute.relation === 'manyWay'
              ? 'oneToMany'
              : attribute.relation,
        target: attribute.target,
      };
    default:
      return { type: attribute.kind };
  }
};

/**
 * The attributes in the order Strapi's content manager lists them: `id`, the schema's, then a
 * content-type's timestamps and creator fields (`publishedAt`, `locale` and `localizations` are
 * not among them).
 */
export function cmAttributes(model: Model): [string, CmAttribute][] {
  const own = Object.values(model.attributes)
    .filter((attribute) => !(attribute.kind === 'relation' && attribute.target.startsWith('admin::')))
    .map((attribute): [string, CmAttribute] => [attribute.name, typeOf(attribute)]);
  const added: [string, CmAttribute][] =
    model.modelType === 'contentType'
      ? [
          ['createdAt', { type: 'datetime' }],
          ['updatedAt', { type: 'datetime' }],
          ['createdBy', { type: 'relation', relation: 'oneToOne', target: ADMIN_USER.uid }],
          ['updatedBy', { type: 'relation', relation: 'oneToOne', target: ADMIN_USER.uid }],
        ]
      : [];
  return [['id', { type: 'integer' }], ...own, ...added];
}

export const isListable = (attribute: CmAttribute | undefined) =>
  attribute !== undefined &&
  !NON_LISTABLES.includes(attribute.type) &&
  !(attribute.type === 'relation' && !LISTABLE_RELATIONS.includes(attribute.relation!));
const isSortable = (model: Model, name: string, attribute: CmAttribute | undefined) =>
  attribute !== undefined &&
  !(model.modelType === 'component' && name === 'id') &&
  !NON_SORTABLES.includes(attribute.type) &&
  !(attribute.type === 'relation' && !SORTABLE_RELATIONS.includes(attribute.relation!));
export const isEditable = (name: string, attribute: CmAttribute | undefined) =>
  attribute !== undefined && !INVISIBLE.has(name);

/**
 * Strapi's default main field: the first `string` attribute, else `id` (a component's
 * `documentId`, a string attribute of every model Strapi's content manager describes).
 */
function defaultMainField(model: Model): string {
  return (
    Object.values(model.attributes).find((a) => a.kind === 'scalar' && a.type === 'string')?.name ??
    (model.modelType === 'component' ? 'documentId' : 'id')
  );
}

/** A relation's default main field, on its target. */
function targetMainField(schema: Schema, target: string): string | undefined {
  if (target === ADMIN_USER.uid) return ADMIN_USER.mainField;
  const model = schema.contentTypes.get(target);
  return model ? defaultMainField(model) : undefined;
}

function defaultConfiguration(schema: Schema, model: Model): ViewConfiguration {
  const attributes = cmAttributes(model);
  const mainField = defaultMainField(model);
  const metadatas: Record<string, Metadata> = {};
  for (const [name, attribute] of attributes) {
    if (name === 'id') {
      metadatas.id = { edit: {}, list: { label: 'id', searchable: true, sortable: true } };
      continue;
    }
    const edit: EditMetadata = {
      label: name,
      description: '',
      placeholder: '',
      visible: !INVISIBLE.has(name),
      editable: true,
    };
    if (attribute.type === 'relation') {
      const main = targetMainField(schema, attribute.target!);
      if (main) edit.mainField = main;
    }
    const sortable = isSortable(model, name, attribute);
    metadatas[name] = { edit, list: { label: name, searchable: sortable, sortable } };
  }
  metadatas.documentId = DOCUMENT_ID_METADATA;
  return {
    settings: {
      bulkable: true,
      filterable: true,
      searchable: true,
      pageSize: 10,
      relationOpenMode: 'modal',
      mainField,
      defaultSortBy: mainField,
      defaultSortOrder: 'ASC',
    },
    metadatas,
    layouts: {
      list: attributes
        .filter(([, a]) => isListable(a))
        .map(([name]) => name)
        .slice(0, DEFAULT_LIST_LENGTH),
      edit: appendToEdit(
        [],
        attributes.filter(([name, a]) => isEditable(name, a)),
      ),
    },
  };
}

function appendToEdit(layout: { name: string; size: number }[][], added: [string, CmAttribute][]) {
  if (added.length === 0) return layout;
  let row = Math.max(layout.length - 1, 0);
  layout[row] ??= [];
  for (const [name, attribute] of added) {
    const size = FIELD_SIZES[attribute.type]?.default ?? 6;
    if (layout[row]!.reduce((sum, el) => sum + el.size, 0) + size > MAX_ROW_SIZE) layout[(row += 1)] = [];
    layout[row]!.push({ name, size });
  }
  return layout;
}

const isEmpty = (value: unknown) => !isPlainObject(value) || Object.keys(value).length === 0;

/** A stored configuration brought in line with the schema as it is now (Strapi's `syncConfiguration`). */
export function syncConfiguration(schema: Schema, model: Model, stored: Data | null): ViewConfiguration {
  const defaults = defaultConfiguration(schema, model);
  if (!stored) return defaults;
  const attributes = new Map(cmAttributes(model));
  const sortable = (name: string) =>
    name === defaults.settings.mainField || isSortable(model, name, attributes.get(name));
  const settings = isEmpty(stored.settings)
    ? defaults.settings
    : (() => {
        const given = stored.settings as ViewSettings;
        const main = given.mainField ?? defaults.settings.mainField;
        const sortBy = given.defaultSortBy ?? defaults.settings.mainField;
        return {
          ...given,
          mainField: sortable(main) ? main : defaults.settings.mainField,
          defaultSortBy: sortable(sortBy) ? sortBy : defaults.settings.mainField,
        };
      })();
  const storedMetas = isPlainObject(stored.metadatas) ? (stored.metadatas as Record<string, Metadata>) : {};
  const metadatas: Record<string, Metadata> = {};
  for (const [name, meta] of Object.entries(defaults.metadatas)) {
    const given = storedMetas[name];
    const merged: Metadata = {
      edit: { ...meta.edit, ...(isPlainObject(given?.edit) ? given.edit : {}) },
      list: { ...meta.list, ...(isPlainObject(given?.list) ? given.list : {}) },
    };
    if (merged.list.sortable && !sortable(name)) merged.list.sortable = false;
    if (merged.list.searchable && !sortable(name)) merged.list.searchable = false;
    metadatas[name] = merged;
  }
  const layouts = isEmpty(stored.layouts) ? defaults.layouts : syncLayouts(stored, attributes, storedMetas);
  return { settings, metadatas, layouts };
}

function syncLayouts(
  stored: Data,
  attributes: Map<string, CmAttribute>,
  storedMetas: Record<string, Metadata>,
): ViewConfiguration['layouts'] {
  const given = stored.layouts as { list?: unknown; edit?: unknown };
  let list = (Array.isArray(given.list) ? given.list : []).filter(
    (name): name is string => typeof name === 'string' && isListable(attributes.get(name)),
  );
  let edit: { name: string; size: number }[][] = [];
  const reappend: [string, CmAttribute][] = [];
  for (const row of Array.isArray(given.edit) ? given.edit : []) {
    const kept: { name: string; size: number }[] = [];
    for (const el of Array.isArray(row) ? row : []) {
      const { name, size } = (el ?? {}) as { name?: unknown; size?: unknown };
      const attribute = typeof name === 'string' ? attributes.get(name) : undefined;
      if (typeof name !== 'string' || !attribute || !isEditable(name, attribute)) continue;
      const field = FIELD_SIZES[attribute.type] ?? { default: 6, isResizable: true };
      if (typeof size !== 'number' || (!field.isResizable && size !== field.default) || size > MAX_ROW_SIZE) {
        reappend.push([name, attribute]);
        continue;
      }
      kept.push({ name, size });
    }
    if (kept.length) edit.push(kept);
  }
  edit = appendToEdit(edit, reappend);
  const added = [...attributes].filter(([name]) => !(name in storedMetas));
  if (list.length < DEFAULT_LIST_LENGTH)
    list = [...new Set([...list, ...added.filter(([, a]) => isListable(a)).map(([name]) => name)])].slice(
      0,
      DEFAULT_LIST_LENGTH,
    );
  edit = appendToEdit(
    edit,
    added.filter(([name, a]) => isEditable(name, a)),
  );
  const defaults = {
    list: [...attributes]
      .filter(([, a]) => isListable(a))
      .map(([name]) => name)
      .slice(0, DEFAULT_LIST_LENGTH),
  };
  return {
    list: list.length ? list : defaults.list,
    edit: edit.length
      ? edit
      : appendToEdit(
          [],
          [...attributes].filter(([name, a]) => isEditable(name, a)),
        ),
  };
}

const DOCUMENT_ID_METADATA: Metadata = { edit: {}, list: { label: 'documentId', searchable: true, sortable: true } };

/**
 * A content-type's configuration as Strapi answers it: each relation's main field on its list
 * metadata too, and (on a read) `documentId`'s metadata.
 */
export function presented(configuration: ViewConfiguration, withDocumentId: boolean): ViewConfiguration {
  const metadatas: Record<string, Metadata> = {};
  for (const [name, meta] of Object.entries(configuration.metadatas))
    metadatas[name] =
      meta.edit.mainField === undefined ? meta : { ...meta, list: { ...meta.list, mainField: meta.edit.mainField } };
  if (withDocumentId) metadatas.documentId = DOCUMENT_ID_METADATA;
  return { ...configuration, metadatas };
}
