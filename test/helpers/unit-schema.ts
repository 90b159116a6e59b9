/**
 * The unit tier's project, in memory: the blog of examples/blog (article, author, category, tag,
 * the global single type, the shared components) plus `item`, a type with one attribute of every
 * scalar type and rule, and the media library's file type. Built with the real `buildSchema`, so
 * parsing, validation and SQL tests see the model a server would, without reading a project.
 */
import type { RestConfig } from '../../src/core/config/load.js';
import { buildSchema, type RawSchemaFile } from '../../src/core/schema/build.js';
import type { Component, ContentType, Schema } from '../../src/core/schema/model.js';

type Attributes = Record<string, Record<string, unknown>>;

const localized = { i18n: { localized: true } };
const shared = { i18n: { localized: false } };

const contentType = (
  uid: string,
  singularName: string,
  pluralName: string,
  attributes: Attributes,
  options: { draftAndPublish?: boolean; localized?: boolean; kind?: string } = {},
): RawSchemaFile => ({
  file: `src/api/${singularName}/content-types/${singularName}/schema.json`,
  uid,
  json: {
    kind: options.kind ?? 'collectionType',
    collectionName: pluralName,
    info: { singularName, pluralName, displayName: singularName },
    options: { draftAndPublish: options.draftAndPublish ?? false },
    ...(options.localized ? { pluginOptions: localized } : {}),
    attributes,
  },
});

const component = (uid: string, attributes: Attributes): RawSchemaFile => ({
  file: `src/components/${uid.replace('.', '/')}.json`,
  uid,
  json: { info: { displayName: uid }, attributes },
});

const CONTENT_TYPES: RawSchemaFile[] = [
  contentType(
    'api::article.article',
    'article',
    'articles',
    {
      title: { type: 'string', required: true, pluginOptions: localized },
      slug: { type: 'uid', targetField: 'title', pluginOptions: localized },
      body: { type: 'richtext', pluginOptions: localized },
      content: { type: 'blocks', pluginOptions: localized },
      views: { type: 'integer', default: 0, pluginOptions: shared },
      rating: { type: 'decimal', pluginOptions: shared },
      featured: { type: 'boolean', default: false, pluginOptions: shared },
      publishDate: { type: 'date', pluginOptions: shared },
      kind: { type: 'enumeration', enum: ['news', 'tutorial', 'opinion'], pluginOptions: shared },
      metadata: { type: 'json', pluginOptions: shared },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'], pluginOptions: shared },
      gallery: { type: 'media', multiple: true, pluginOptions: shared },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'articles' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
      seo: { type: 'component', repeatable: false, component: 'shared.seo', pluginOptions: localized },
      links: { type: 'component', repeatable: true, component: 'shared.link', max: 3, pluginOptions: localized },
      blocks: { type: 'dynamiczone', components: ['shared.quote', 'shared.rich-text'], pluginOptions: localized },
    },
    { draftAndPublish: true, localized: true },
  ),
  contentType('api::author.author', 'author', 'authors', {
    name: { type: 'string', required: true },
    email: { type: 'email', unique: true },
    bio: { type: 'text' },
    secret: { type: 'string', private: true },
    avatar: { type: 'media', multiple: false, allowedTypes: ['images'] },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' },
  }),
  contentType('api::category.category', 'category', 'categories', {
    name: { type: 'string', required: true, unique: true },
    slug: { type: 'uid', targetField: 'name' },
    articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'category' },
  }),
  contentType('api::tag.tag', 'tag', 'tags', {
    name: { type: 'string', required: true },
    articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' },
  }),
  contentType(
    'api::global.global',
    'global',
    'globals',
    { siteName: { type: 'string' }, defaultSeo: { type: 'component', repeatable: false, component: 'shared.seo' } },
    { kind: 'singleType' },
  ),
  contentType('api::item.item', 'item', 'items', {
    name: { type: 'string', minLength: 2, maxLength: 10, regex: '^[a-z ]*$' },
    required: { type: 'string', required: true },
    note: { type: 'text' },
    rich: { type: 'richtext' },
    email: { type: 'email' },
    code: { type: 'uid' },
    password: { type: 'password' },
    level: { type: 'enumeration', enum: ['low', 'high'] },
    count: { type: 'integer', min: 0, max: 100 },
    big: { type: 'biginteger' },
    ratio: { type: 'float' },
    price: { type: 'decimal' },
    active: { type: 'boolean' },
    day: { type: 'date' },
    hour: { type: 'time' },
    at: { type: 'datetime' },
    stamp: { type: 'timestamp' },
    data: { type: 'json' },
    doc: { type: 'blocks' },
    hiddenNote: { type: 'string', private: true },
    unsearched: { type: 'string', searchable: false },
    parts: { type: 'component', repeatable: true, component: 'shared.link', min: 1, max: 2 },
  }),
];

const COMPONENTS: RawSchemaFile[] = [
  component('shared.seo', {
    metaTitle: { type: 'string', required: true },
    metaDescription: { type: 'text' },
    shareImage: { type: 'media', multiple: false },
  }),
  component('shared.link', { label: { type: 'string' }, url: { type: 'string' } }),
  component('shared.quote', { title: { type: 'string' }, body: { type: 'text' } }),
  component('shared.rich-text', { body: { type: 'richtext' } }),
];

/** The media library's file type (as src/features/upload/file-type.ts declares it, reduced to what the tests read). */
const FILE_TYPE: RawSchemaFile = {
  file: '(built-in) upload file',
  uid: 'plugin::upload.file',
  json: {
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string', required: true }, mime: { type: 'string' }, url: { type: 'string' } },
  },
};

export const RAW_CONTENT_TYPES = CONTENT_TYPES;
export const RAW_COMPONENTS = COMPONENTS;

/** A fresh schema (tests may not share a mutable model). */
export function unitSchema(): Schema {
  return buildSchema(CONTENT_TYPES, COMPONENTS, [FILE_TYPE]);
}

export const I18N = { defaultLocale: 'en', locales: ['en', 'fr'] };

/** Strapi's REST defaults (config/load.ts). */
export const REST: RestConfig = {
  prefix: '/api',
  defaultLimit: 25,
  maxLimit: 100,
  withCount: true,
  strictParams: false,
  cache: { maxBytes: 0, holdAfterWriteMs: 0 },
  costLimit: 25000,
  draftAccess: 'editors',
};

export const typeOf = (schema: Schema, uid: string): ContentType => {
  const type = schema.contentTypes.get(uid);
  if (!type) throw new Error(`no content-type ${uid}`);
  return type;
};

export const componentOf = (schema: Schema, uid: string): Component => {
  const found = schema.components.get(uid);
  if (!found) throw new Error(`no component ${uid}`);
  return found;
};
