/**
 * A change of a view configuration (view-configuration.ts) checked as Strapi 5.54's
 * `modelConfiguration` yup schema checks it: strict (unknown keys refused), every error collected,
 * answered as Strapi answers them.
 */
import { BadRequestError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { Model, Schema } from '../../core/schema/model.js';
import {
  ADMIN_USER,
  cmAttributes,
  isEditable,
  isListable,
  type CmAttribute,
  type EditMetadata,
  type ListMetadata,
  type Metadata,
  type ViewConfiguration,
  type ViewSettings,
} from './view-configuration.js';

type Data = Record<string, unknown>;

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
