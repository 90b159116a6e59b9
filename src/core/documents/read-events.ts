/**
 * The lifecycle events of a document read (`beforeFindMany`/`afterFindMany`, `...FindOne`,
 * `...Count`), with `event.params` in the query engine's shape, as Strapi's Document Service
 * hands them to the database: `where` (the filters, with the version's `publishedAt` and `locale`
 * and the `documentId`), `select`, `populate`, `orderBy`, `offset`, `limit`. What a `before`
 * handler changes there is read back into the document read's parameters (a handler adding a
 * condition to `where`, a `populate`); `after` handlers get the documents read and may change them.
 */
import { isPlainObject } from '../objects.js';
import type { ContentType } from '../schema/model.js';
import { populateToRest } from './engine/params.js';
import type { LifecycleHooks } from './hooks.js';
import type { DocumentParams } from './params.js';

type Params = Record<string, unknown>;

export interface ReadEvent {
  params: Params;
  /** The params as they were built, to see what the handlers changed. */
  snapshot: string;
}

/** `where` keys the read adds to the filters. */
const VERSION_KEYS = ['publishedAt', 'locale', 'documentId'];

const json = (value: unknown) => JSON.stringify(value ?? null);

/** The event params of a read with these document parameters. */
export function readEvent(
  type: ContentType,
  params: DocumentParams,
  defaultLocale: string,
  page?: { offset: number; limit: number },
): ReadEvent {
  const where: Params = {};
  if (type.draftAndPublish) where.publishedAt = params.status === 'draft' ? { $null: true } : { $notNull: true };
  if (type.localized && params.locale !== '*')
    where.locale = typeof params.locale === 'string' && params.locale !== '' ? params.locale : defaultLocale;
  if (typeof params.documentId === 'string') where.documentId = params.documentId;
  if (isPlainObject(params.filters)) Object.assign(where, params.filters);
  const event: Params = { where };
  const fields =
    typeof params.fields === 'string'
      ? params.fields.split(',')
      : Array.isArray(params.fields)
        ? params.fields
        : undefined;
  if (fields) event.select = ['id', 'documentId', ...fields];
  if (params.populate !== undefined) event.populate = params.populate;
  if (params.sort !== undefined) event.orderBy = params.sort;
  if (page) Object.assign(event, page);
  return { params: event, snapshot: json(event) };
}

/** The document parameters as the `before` handlers left the event's params (the same object when unchanged). */
export function paramsAfter(event: ReadEvent, params: DocumentParams): DocumentParams {
  const after = event.params;
  if (json(after) === event.snapshot) return params;
  const built = JSON.parse(event.snapshot) as Params;
  const next: DocumentParams = { ...params };
  const where = isPlainObject(after.where) ? { ...after.where } : {};
  for (const key of VERSION_KEYS) if (json(where[key]) === json((built.where as Params)[key])) delete where[key];
  next.filters = Object.keys(where).length ? where : undefined;
  if (json(after.select) !== json(built.select)) {
    const select = Array.isArray(after.select)
      ? after.select.filter((name) => name !== 'id' && name !== 'documentId')
      : undefined;
    next.fields = select;
  }
  if (json(after.populate) !== json(built.populate)) next.populate = populateToRest(after.populate);
  if (json(after.orderBy) !== json(built.orderBy)) next.sort = after.orderBy;
  if (json(after.offset) !== json(built.offset) || json(after.limit) !== json(built.limit)) {
    next.pagination = { start: after.offset ?? 0, limit: after.limit ?? -1 };
  }
  return next;
}

/** A read with the events around it: what it reads (`parse` then `read`) and how its event shows it. */
export interface EventfulRead<Q, R> {
  /** The read's query, from the document parameters (again when a `before` handler changed them). */
  parse: (params: DocumentParams) => Q;
  read: (query: Q) => Promise<R>;
  /** The rows a page skips and takes, as the event's `offset` and `limit` (lists only). */
  page?: (query: Q) => { offset: number; limit: number };
  /** What the `after` event's `result` shows (the read's answer itself by default). */
  shown?: (result: R) => unknown;
}

/**
 * Runs a read between its `before<Action>` and `after<Action>` events: the read is parsed first
 * (bad parameters fail before any handler), parsed again when a `before` handler changed the
 * event's params, and the `after` handlers get its result.
 */
export async function aroundRead<Q, R>(
  lifecycles: LifecycleHooks,
  action: 'FindMany' | 'FindOne' | 'Count',
  type: ContentType,
  defaultLocale: string,
  params: DocumentParams,
  how: EventfulRead<Q, R>,
): Promise<R> {
  const query = how.parse(params);
  const event = readEvent(type, params, defaultLocale, how.page?.(query));
  const states = await lifecycles.run(`before${action}`, type, event);
  const changed = paramsAfter(event, params);
  const result = await how.read(changed === params ? query : how.parse(changed));
  const shown = how.shown ? how.shown(result) : result;
  await lifecycles.run(`after${action}`, type, { params: event.params, result: shown }, states);
  return result;
}
