/**
 * The content API's operations (docs/rest.md "Routes"): per collection type `/<pluralName>` and
 * `/<pluralName>/{id}` (Strapi's parameter name; it is the documentId), Vellum's publication actions
 * below them, per single type `/<singularName>`. Parameters are Strapi 5.54's per action; the
 * answers are what the routes answer: 201 on a create, 204 without a body on a delete (Strapi's
 * document says 200 and a document for both), `meta.pagination` on a list (absent there).
 */
import type { ContentType } from '../../core/schema/model.js';
import { inputName, SHARED } from './models.js';
import {
  fields,
  filters,
  locale,
  pagination,
  pathParameter,
  populate,
  query,
  searchQuery,
  sort,
  typeParameters,
} from './parameters.js';
import { ref, schemaName, type JsonSchema, type Operation, type Parameter, type Response } from './spec.js';

export type ContentAction =
  'find' | 'findOne' | 'create' | 'update' | 'delete' | 'publish' | 'unpublish' | 'discard-draft';

export const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** The failures every route may answer, in the error envelope (Strapi's five, with their words). */
export const ERRORS: Record<string, Response> = Object.fromEntries(
  (
    [
      ['400', 'Bad request'],
      ['401', 'Unauthorized'],
      ['403', 'Forbidden'],
      ['404', 'Not found'],
      ['500', 'Internal server error'],
    ] as const
  ).map(([status, description]) => [status, { description, content: json(ref(SHARED.error)) }]),
);

const envelope = (data: JsonSchema, meta: JsonSchema = { type: 'object' }): JsonSchema => ({
  type: 'object',
  properties: { data, meta },
  required: ['data', 'meta'],
});

/** The API a type belongs to (`api::article.article`: `article`), Strapi's tag and operation prefix. */
export const apiNameOf = (uid: string): string => uid.replace(/^[^:]+::/, '').split('.')[0]!;

const documentId = () => pathParameter('id', 'The documentId');

const SUMMARIES: Record<ContentAction, [collection: string, single?: string]> = {
  find: ['list documents', 'the document'],
  findOne: ['one document'],
  create: ['create a document'],
  update: ['update a document', 'create or update the document'],
  delete: ['delete a document', 'delete the document'],
  publish: ['publish the draft'],
  unpublish: ['unpublish the document'],
  'discard-draft': ["discard the draft's changes"],
};

/** Strapi's parameters of a core route, by action (`@strapi/core`'s content-API route schemas). */
function parametersOf(type: ContentType, action: ContentAction): Parameter[] {
  const single = type.kind === 'singleType';
  const id = single ? [] : [documentId()];
  switch (action) {
    case 'find':
      return single
        ? [fields(type), populate(type), filters(), ...typeParameters(type)]
        : [fields(type), filters(), searchQuery(), ...pagination(), sort(), populate(type), ...typeParameters(type)];
    case 'findOne':
      return [...id, fields(type), populate(type), filters(), sort(), ...typeParameters(type)];
    case 'create':
      return [fields(type), populate(type), ...typeParameters(type)];
    case 'update':
      return [...id, fields(type), populate(type), ...typeParameters(type)];
    case 'delete':
      return single
        ? [fields(type), populate(type), ...typeParameters(type)]
        : [...id, fields(type), populate(type), filters(), ...typeParameters(type)];
    default: {
      // Vellum's publication actions (docs/rest.md "Drafts and publishing").
      const at =
        action === 'discard-draft'
          ? []
          : [
              query(
                'at',
                { type: 'string', format: 'date-time' },
                'Schedule the action for this time instead (202): docs/webhooks-cron.md',
              ),
            ];
      return [...id, fields(type), populate(type), ...(type.localized ? [locale()] : []), ...at];
    }
  }
}

function responsesOf(type: ContentType, action: ContentAction): Record<string, Response> {
  const document = ref(schemaName(type.uid));
  switch (action) {
    case 'find':
      if (type.kind === 'collectionType')
        return {
          '200': {
            description: 'OK',
            content: json(
              envelope(
                { type: 'array', items: document },
                { type: 'object', properties: { pagination: ref(SHARED.pagination) }, required: ['pagination'] },
              ),
            ),
          },
        };
      return { '200': { description: 'OK', content: json(envelope(document)) } };
    case 'create':
      return { '201': { description: 'Created', content: json(envelope(document)) } };
    case 'delete':
      return { '204': { description: 'Deleted (no body)' } };
    case 'publish':
    case 'unpublish':
      return {
        '200': { description: 'OK', content: json(envelope(document)) },
        '202': {
          description: 'Scheduled (with at)',
          content: json(envelope({ type: 'object', description: 'The scheduled action', additionalProperties: true })),
        },
      };
    default:
      return { '200': { description: 'OK', content: json(envelope(document)) } };
  }
}

/** The operation of one content route. */
export function contentOperation(type: ContentType, action: ContentAction, id: string): Operation {
  const [collection, single] = SUMMARIES[action];
  const operation: Operation = {
    operationId: id,
    summary: `${type.displayName}: ${type.kind === 'singleType' ? (single ?? collection) : collection}`,
    tags: [apiNameOf(type.uid)],
    parameters: parametersOf(type, action),
    responses: { ...responsesOf(type, action), ...ERRORS },
  };
  if (action === 'create' || action === 'update')
    operation.requestBody = {
      required: true,
      content: json({ type: 'object', properties: { data: ref(inputName(type.uid)) }, required: ['data'] }),
    };
  return operation;
}

/** The content routes of a type: its OpenAPI path and action by `METHOD path` (the path below the prefix, parameters as `:`). */
export function contentRoutes(type: ContentType): Map<string, { path: string; action: ContentAction }> {
  const routes = new Map<string, { path: string; action: ContentAction }>();
  const add = (method: string, path: string, action: ContentAction) =>
    routes.set(`${method} ${path.replace(/\{[^}]+\}/g, ':')}`, { path, action });
  if (type.kind === 'singleType') {
    const base = `/${type.singularName}`;
    add('GET', base, 'find');
    add('PUT', base, 'update');
    add('DELETE', base, 'delete');
    return routes;
  }
  const base = `/${type.pluralName}`;
  add('GET', base, 'find');
  add('POST', base, 'create');
  add('GET', `${base}/{id}`, 'findOne');
  add('PUT', `${base}/{id}`, 'update');
  add('DELETE', `${base}/{id}`, 'delete');
  for (const action of ['publish', 'unpublish', 'discard-draft'] as const)
    add('POST', `${base}/{id}/actions/${action}`, action);
  return routes;
}
