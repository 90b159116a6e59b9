/**
 * The query parameters of the content API (docs/rest.md "Query parameters"), under Strapi 5.54's
 * names and in its order, with what Vellum (and Strapi) really take: `sort=title:desc`, `fields`
 * as a comma list, `populate` as an object, filters on relations and `$or`, `pagination[limit]=-1`.
 */
import { PUBLICATION_FILTERS } from '../../core/query/types.js';
import { isHidden, type ContentType, type Model } from '../../core/schema/model.js';
import type { JsonSchema, Parameter } from './spec.js';

/** A query parameter, marked as Strapi marks its own: its brackets are qs's. */
export const query = (name: string, schema: JsonSchema, description?: string): Parameter => ({
  name,
  in: 'query',
  required: false,
  ...(description ? { description } : {}),
  schema,
  'x-strapi-serialize': 'querystring',
});

export const pathParameter = (name: string, description?: string, schema: JsonSchema = { type: 'string' }) => ({
  name,
  in: 'path' as const,
  required: true,
  ...(description ? { description } : {}),
  schema,
});

/** The attributes `fields` may name: scalars, the system dates, and `locale` on localized types. */
function fieldNames(model: Model): string[] {
  const names = Object.values(model.attributes)
    .filter((attribute) => attribute.kind === 'scalar' && !isHidden(attribute))
    .map((attribute) => attribute.name);
  if (model.modelType === 'component') return names;
  names.push('createdAt', 'updatedAt', 'publishedAt');
  if (model.localized) names.push('locale');
  return names;
}

/** What `populate` may name at the first level: relations, media, components, zones (and `localizations`). */
function populatable(model: Model): string[] {
  const names = Object.values(model.attributes)
    .filter((attribute) => attribute.kind !== 'scalar' && !isHidden(attribute))
    .map((attribute) => attribute.name);
  if (model.modelType === 'contentType' && model.localized) names.push('localizations');
  return names;
}

export const fields = (model: Model): Parameter =>
  query(
    'fields',
    {
      anyOf: [
        { type: 'array', items: { type: 'string', enum: fieldNames(model) } },
        { type: 'string', description: 'One field, a comma list (title,slug), or * for every field' },
      ],
    },
    'The fields to answer (id and documentId always are); relations, media, components and zones are chosen with populate',
  );

export const filters = (): Parameter => ({
  ...query(
    'filters',
    { type: 'object', additionalProperties: true },
    'filters[<field>][<operator>]=<value>: $eq, $ne, $lt, $contains, $in, $null, ... and the groups $and, $or, $not; relations and components by nesting (filters[author][name][$eq]=Ann)',
  ),
  style: 'deepObject',
  explode: true,
});

const SORT_ITEM = { type: 'string', description: 'field, field:asc, field:desc, relation.field:desc' };
const DIRECTION = { type: 'string', enum: ['asc', 'desc'] };
const SORT_OBJECT = {
  type: 'object',
  additionalProperties: { anyOf: [DIRECTION, { type: 'object', additionalProperties: true }] },
};

export const sort = (): Parameter =>
  query(
    'sort',
    { anyOf: [SORT_ITEM, { type: 'array', items: SORT_ITEM }, SORT_OBJECT, { type: 'array', items: SORT_OBJECT }] },
    'Sort the result: title, title:desc, title:asc,views:desc, sort[0]=title, sort[title]=desc',
  );

export const populate = (model: Model): Parameter => {
  const names = populatable(model);
  return query(
    'populate',
    {
      anyOf: [
        { type: 'string', description: '*, one attribute, a comma list or a dot path (seo.shareImage)' },
        { type: 'array', items: { type: 'string' } },
        {
          type: 'object',
          additionalProperties: true,
          description: 'populate[author][fields][0]=name, populate[tags][filters]..., populate[blocks][on]...',
        },
      ],
    },
    names.length
      ? `Relations, media, components and zones to answer (none by default): ${names.join(', ')}`
      : 'Nothing to populate on this type',
  );
};

export const searchQuery = (): Parameter =>
  query('_q', { type: 'string' }, 'A text searched in the searchable text attributes');

/** Strapi's four `pagination[...]` parameters and `withCount`, by page or by offset (not both). */
export const pagination = (): Parameter[] => [
  query('pagination[withCount]', { type: 'boolean' }, 'Include total (and pageCount) in meta.pagination'),
  query('pagination[page]', { type: 'integer', minimum: 1 }, 'Page number (1-based)'),
  query('pagination[pageSize]', { type: 'integer', minimum: 1 }, 'Entries per page (at most api.rest maxLimit)'),
  query('pagination[start]', { type: 'integer', minimum: 0 }, 'Entries to skip'),
  query(
    'pagination[limit]',
    { type: 'integer', minimum: -1 },
    'Entries to answer (-1: the most api.rest maxLimit allows)',
  ),
];

export const locale = (): Parameter =>
  query('locale', { type: 'string' }, 'A locale code (default: the default locale); * on a delete: every locale');

/** Strapi 5.54's draft-and-publish parameters (a type without draft and publish ignores them). */
const publication = (): Parameter[] => [
  query(
    'status',
    { type: 'string', enum: ['draft', 'published'] },
    'Read (or write) the draft or the published version (default: published)',
  ),
  query(
    'publicationFilter',
    {
      type: 'string',
      enum: [...PUBLICATION_FILTERS],
    },
    'Documents of one publication cohort, per version (or per document: -document)',
  ),
  query(
    'hasPublishedVersion',
    { anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }] },
    'Deprecated (publicationFilter): documents with, or without, a published version',
  ),
];

/** The parameters a content-type adds to each of its routes: `locale` if localized, then the publication ones. */
export const typeParameters = (type: ContentType): Parameter[] => [
  ...(type.localized ? [locale()] : []),
  ...(type.draftAndPublish ? publication() : []),
];
