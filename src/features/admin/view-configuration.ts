/**
 * The content manager's view configuration of a type or component, as Strapi 5.54 generates,
 * stores and checks it (its `services/utils/configuration/*`): `settings` (bulkable, filterable,
 * searchable, pageSize, relationOpenMode, mainField, defaultSortBy, defaultSortOrder), `metadatas`
 * (per attribute: `edit` label, description, placeholder, visible, editable, a relation's
 * mainField; `list` label, searchable, sortable) and `layouts` (`list`: the list's columns;
 * `edit`: rows of `{ name, size }` on a 12-column grid). The defaults come from the schema; a
 * stored configuration is brought in line with the schema as it is now (attributes gone dropped,
 * new ones appended), as Strapi's `syncConfiguration` does at its start.
 */
import { BadRequestError } from '../../core/errors.js';
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
interface CmAttribute {
  type: string;
  relation?: string;
  target?: string;
}

/** Strapi's field sizes (its `field-sizes` service): the default width and whether it may change. */
const FIELD_SIZES: Record<string, { default: number; isResizable: boolean }> = Object.fromEntries([
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
const ADMIN_USER = { uid: 'admin::user', mainField: 'firstname' };

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
function cmAttributes(model: Model): [string, CmAttribute][] {
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

const isListable = (attribute: CmAttribute | undefined) =>
  attribute !== undefined &&
  !NON_LISTABLES.includes(attribute.type) &&
  !(attribute.type === 'relation' && !LISTABLE_RELATIONS.includes(attribute.relation!));
const isSortable = (model: Model, name: string, attribute: CmAttribute | undefined) =>
  attribute !== undefined &&
  !(model.modelType === 'component' && name === 'id') &&
  !NON_SORTABLES.includes(attribute.type) &&
  !(attribute.type === 'relation' && !SORTABLE_RELATIONS.includes(attribute.relation!));
const isEditable = (name: string, attribute: CmAttribute | undefined) =>
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

/**
 * A change as Strapi's `modelConfiguration` schema checks it (yup, strict, every error collected):
 * a 400 `BadRequestError` listing yup's messages, as Strapi answers it. Answers the parts given;
 * those left out (or null) stay as they were.
 */
export function checkConfiguration(schema: Schema, model: Model, body: unknown): Partial<ViewConfiguration> {
  if (!isPlainObject(body)) throw invalid(['this must be a `object` type']);
  const attributes = new Map(cmAttributes(model));
  const listable = [...attributes].filter(([, a]) => isListable(a)).map(([name]) => name);
  const errors: string[] = [];
  const fail = (path: string[], message: string) => errors.push(`${path.join('.')} ${message}`);
  const out: Partial<ViewConfiguration> = {};
  const known = (value: Data, path: string[], keys: string[]) => {
    const extra = Object.keys(value).filter((key) => !keys.includes(key));
    if (extra.length) fail(path, `field has unspecified keys: ${extra.join(', ')}`);
  };
  const bool = (value: unknown, path: string[], required = false) => {
    if (value === undefined) {
      if (required) fail(path, 'is a required field');
    } else if (typeof value !== 'boolean') fail(path, 'must be a `boolean` type');
  };
  const text = (value: unknown, path: string[], nullable = false) => {
    if (value !== undefined && typeof value !== 'string' && !(nullable && value === null))
      fail(path, 'must be a `string` type');
  };
  const oneOf = (value: unknown, path: string[], values: string[]) => {
    if (typeof value !== 'string' || !values.includes(value))
      fail(path, `must be one of the following values: ${values.join(', ')}`);
  };
  known(body, [], ['settings', 'metadatas', 'layouts', 'options']);
  if (body.settings != null) {
    const settings = body.settings as Data;
    if (!isPlainObject(settings)) fail(['settings'], 'must be a `object` type');
    else {
      known(
        settings,
        ['settings'],
        [
          'bulkable',
          'filterable',
          'pageSize',
          'searchable',
          'mainField',
          'defaultSortBy',
          'defaultSortOrder',
          'relationOpenMode',
        ],
      );
      for (const key of ['bulkable', 'filterable']) bool(settings[key], ['settings', key], true);
      const size = settings.pageSize;
      if (size === undefined) fail(['settings', 'pageSize'], 'is a required field');
      else if (typeof size !== 'number') fail(['settings', 'pageSize'], 'must be a `number` type');
      else if (!Number.isInteger(size)) fail(['settings', 'pageSize'], 'must be an integer');
      else if (size < 10) fail(['settings', 'pageSize'], 'must be greater than or equal to 10');
      else if (size > 100) fail(['settings', 'pageSize'], 'must be less than or equal to 100');
      bool(settings.searchable, ['settings', 'searchable'], true);
      const main = settings.mainField ?? 'id';
      oneOf(main, ['settings', 'mainField'], [...listable, 'id']);
      const sortBy = settings.defaultSortBy ?? 'id';
      if (typeof sortBy !== 'string' || !(sortBy === 'documentId' || listable.includes(sortBy)))
        fail(['settings', 'defaultSortBy'], 'is not a valid sort attribute');
      const order = settings.defaultSortOrder ?? 'ASC';
      oneOf(order, ['settings', 'defaultSortOrder'], ['ASC', 'DESC']);
      const mode = settings.relationOpenMode ?? 'modal';
      oneOf(mode, ['settings', 'relationOpenMode'], ['modal', 'page', 'newTab']);
      // What was given only: Strapi's schema is strict, its defaults are not filled in.
      const given = [
        'bulkable',
        'filterable',
        'pageSize',
        'searchable',
        'mainField',
        'defaultSortBy',
        'defaultSortOrder',
        'relationOpenMode',
      ];
      out.settings = Object.fromEntries(
        given.filter((key) => settings[key] !== undefined).map((key) => [key, settings[key]]),
      ) as unknown as ViewSettings;
    }
  }

  if (body.metadatas != null) {
    if (!isPlainObject(body.metadatas)) fail(['metadatas'], 'must be a `object` type');
    else {
      const metadatas: Record<string, Metadata> = {};
      // `documentId` is among the attributes Strapi's content manager describes (never listed or edited).
      for (const [name, attribute] of [...attributes, ['documentId', { type: 'string' }] as [string, CmAttribute]]) {
        const given = body.metadatas[name];
        if (given === undefined) continue;
        const path = ['metadatas', name];
        if (!isPlainObject(given)) {
          fail(path, 'must be a `object` type');
          continue;
        }
        known(given, path, ['edit', 'list']);
        if (!isPlainObject(given.edit)) fail([...path, 'edit'], 'is a required field');
        if (!isPlainObject(given.list)) fail([...path, 'list'], 'is a required field');
        if (!isPlainObject(given.edit) || !isPlainObject(given.list)) continue;
        const edit = given.edit;
        const list = given.list;
        known(edit, [...path, 'edit'], ['label', 'description', 'placeholder', 'editable', 'visible', 'mainField']);
        known(list, [...path, 'list'], ['label', 'searchable', 'sortable']);
        text(edit.label, [...path, 'edit', 'label']);
        text(edit.description, [...path, 'edit', 'description'], true);
        text(edit.placeholder, [...path, 'edit', 'placeholder'], true);
        bool(edit.editable, [...path, 'edit', 'editable']);
        bool(edit.visible, [...path, 'edit', 'visible']);
        if (edit.mainField) {
          const target =
            attribute.target === ADMIN_USER.uid
              ? undefined
              : attribute.target && schema.contentTypes.get(attribute.target);
          const allowed = target ? [...cmAttributes(target)].filter(([, a]) => isListable(a)).map(([n]) => n) : null;
          if (typeof edit.mainField !== 'string' || (allowed && ![...allowed, 'id'].includes(edit.mainField)))
            fail(
              [...path, 'edit', 'mainField'],
              `${path.join('.')}.edit.mainField must be one of the following values: ${[...(allowed ?? []), 'id'].join(', ')}`,
            );
        }
        text(list.label, [...path, 'list', 'label']);
        bool(list.searchable, [...path, 'list', 'searchable']);
        bool(list.sortable, [...path, 'list', 'sortable']);
        const pick = (from: Data, keys: string[]) =>
          Object.fromEntries(keys.filter((key) => from[key] !== undefined).map((key) => [key, from[key]]));
        metadatas[name] = {
          edit: pick(edit, ['label', 'description', 'placeholder', 'editable', 'visible', 'mainField']) as EditMetadata,
          list: pick(list, ['label', 'searchable', 'sortable']) as ListMetadata,
        };
      }
      out.metadatas = metadatas;
    }
  }

  if (body.layouts != null) {
    const layouts = body.layouts as Data;
    if (!isPlainObject(layouts)) fail(['layouts'], 'must be a `object` type');
    else {
      const editable = [...attributes].filter(([name, a]) => isEditable(name, a)).map(([name]) => name);
      if (!Array.isArray(layouts.edit)) fail(['layouts', 'edit'], 'is required and must be an array');
      else
        layouts.edit.forEach((row, r) => {
          if (!Array.isArray(row)) return fail([`layouts.edit[${r}]`], 'must be a `array` type');
          row.forEach((el, c) => {
            const at = `layouts.edit[${r}][${c}]`;
            if (!isPlainObject(el)) return fail([at], 'must be a `object` type');
            known(el, [at], ['name', 'size']);
            if (el.name === undefined) fail([at, 'name'], 'is a required field');
            else oneOf(el.name, [at, 'name'], editable);
            const size = el.size;
            if (size === undefined) fail([at, 'size'], 'is a required field');
            else if (typeof size !== 'number') fail([at, 'size'], 'must be a `number` type');
            else if (!Number.isInteger(size)) fail([at, 'size'], 'must be an integer');
            else if (size <= 0) fail([at, 'size'], 'must be a positive number');
          });
        });
      if (!Array.isArray(layouts.list)) fail(['layouts', 'list'], 'is required and must be an array');
      else layouts.list.forEach((name, index) => oneOf(name, [`layouts.list[${index}]`], listable));
      if (Array.isArray(layouts.edit) && Array.isArray(layouts.list))
        out.layouts = {
          list: layouts.list as string[],
          edit: (layouts.edit as Data[][]).map((row) =>
            row.map((el) => ({ name: el.name as string, size: el.size as number })),
          ),
        };
    }
  }
  if (errors.length) throw invalid(errors);
  return out;
}

/** Strapi's refusal of a configuration: `ctx.badRequest(null, { name: 'validationError', errors })`. */
const invalid = (errors: string[]) => new BadRequestError('Bad Request', { name: 'validationError', errors });
