/**
 * The root resolvers of Shadow CRUD: the REST pipeline for GraphQL (access -> the arguments as
 * REST's raw parameters -> the document service, which parses them). Each returns plain
 * documents; the schema's types present them in the configured shape.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { CallerOptions, Document, DocumentParams, DocumentService } from '../../../core/documents/service.js';
import type { AccessControl, Permission } from '../../../api/access.js';
import type { ContentType } from '../../../core/schema/model.js';
import type { GraphqlContext } from '../context.js';
import type { Resolver, ResolverConfig } from '../extension.js';
import type { FindResult, Shape } from '../schema/types.js';
import { toRestBody, toRestFilters } from './args.js';
import type { SelectionReader } from './selection.js';
import { isPlainObject } from '../../../core/objects.js';

type Args = Record<string, unknown>;

export interface OperationDeps {
  /** The document service with GraphQL's page limits (`amountLimit`). */
  service: DocumentService;
  access: AccessControl;
  shape: Shape;
  selection: SelectionReader;
  componentUids: Map<string, string>;
  /** `auth` of `resolversConfig[key]` (e.g. `Query.articles`). */
  authConfig(key: string): ResolverConfig['auth'] | undefined;
}

/** `api::article.article.find` -> uid and action. */
export function parseScope(scope: string): Permission {
  const dot = scope.lastIndexOf('.');
  return { uid: scope.slice(0, dot), action: scope.slice(dot + 1) };
}

/**
 * `publicationState: PREVIEW` is the earlier format's "drafts and published" (docs/graphql.md, the earlier shape):
 * there, a document published once has a `publishedAt`, so `publishedAt: { null: true }` finds the
 * documents never published and `notNull` the others. Vellum reads the drafts in PREVIEW, whose
 * rows all have a null `publishedAt`: a top-level filter on it asks which documents have a
 * published version instead.
 */
function previewFilters(args: Args): {
  filters?: Args;
  publicationFilter?: 'never-published-document' | 'has-published-version-document';
} {
  const filters = args.filters as Args | undefined;
  if (args.publicationState !== 'draft' || !filters || !isPlainObject(filters.publishedAt)) return { filters };
  const { publishedAt, ...rest } = filters;
  const condition = publishedAt as Args;
  const keys = Object.keys(condition);
  if (keys.length !== 1 || typeof condition[keys[0]!] !== 'boolean' || !['null', 'notNull'].includes(keys[0]!))
    return { filters };
  const never = (keys[0] === 'null') === condition[keys[0]!];
  return { filters: rest, publicationFilter: never ? 'never-published-document' : 'has-published-version-document' };
}

export class Operations {
  constructor(private readonly deps: OperationDeps) {}

  /**
   * Authorizes a root field as REST would, unless its resolver config says otherwise. Its reads
   * spend from the operation's budget (`costLimit`).
   */
  async caller(ctx: GraphqlContext, key: string, permission: Permission): Promise<CallerOptions> {
    const caller = await this.authorize(ctx, key, permission);
    // Marked, not copied (as REST marks rawJson): authorize answers a new object every time.
    caller.budget = ctx.budget;
    if (ctx.reads) this.note(ctx.reads, key, permission, caller);
    return caller;
  }

  /**
   * A root field's part in the response cache (features/graphql/cache.ts): a Shadow CRUD read authorized as
   * REST's is noted (its permission, the caller's scope, what it reads); anything else (a write, a
   * resolver config's own auth, a type whose reads project code changes) keeps the answer out.
   */
  private note(
    reads: NonNullable<GraphqlContext['reads']>,
    key: string,
    permission: Permission,
    caller: CallerOptions & { cacheScope?: string },
  ): void {
    const read = permission.action === 'find' || permission.action === 'findOne';
    if (
      !read ||
      this.deps.authConfig(key) !== undefined ||
      !caller.cacheScope ||
      !this.deps.service.of(permission.uid).cacheable
    ) {
      reads.cacheable = false;
      return;
    }
    reads.permissions.push(permission);
    reads.scopes.add(caller.cacheScope);
    caller.dependsOn = reads.dependsOn;
  }

  private async authorize(ctx: GraphqlContext, key: string, permission: Permission): Promise<CallerOptions> {
    const auth = this.deps.authConfig(key);
    if (auth === false) return {};
    const headers = ctx.request.headers;
    if (auth?.scope) {
      let caller: CallerOptions = {};
      for (const scope of auth.scope) caller = await this.deps.access.authorize(headers, parseScope(scope));
      return caller;
    }
    return this.deps.access.authorize(headers, permission);
  }

  private readQuery(
    info: GraphQLResolveInfo,
    type: ContentType,
    path: string[],
    status: unknown,
    locale: unknown,
    args: Args = {},
  ): DocumentParams {
    const { fields, populate } = this.deps.selection.read(info, type, path);
    // Strapi 5's publication cohorts (flat shape), as REST's parameters of the same names.
    return {
      fields,
      populate,
      status,
      locale,
      publicationFilter: args.publicationFilter,
      hasPublishedVersion: args.hasPublishedVersion,
    };
  }

  find(type: ContentType, key: string, path: string[], count: string | null): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'find' });
      const pagination = Object.fromEntries(
        Object.entries((args.pagination ?? {}) as Args).filter(([, v]) => v !== null && v !== undefined),
      );
      const { filters, publicationFilter } = previewFilters(args);
      const raw = {
        ...this.readQuery(info, type, path, args.publicationState ?? args.status, args.locale, args),
        filters: filters ? toRestFilters(this.deps.service.schema, type, filters, this.deps.shape) : undefined,
        // The earlier format's PREVIEW with a publishedAt filter (earlier shape only).
        ...(publicationFilter ? { publicationFilter } : {}),
        sort: Array.isArray(args.sort) && args.sort.length > 0 ? args.sort : undefined,
        pagination: { ...pagination, withCount: count !== null && this.deps.selection.selects(info, count) },
      };
      const { results, pagination: meta } = await this.deps.service.of(type).findMany(raw, caller);
      return {
        results,
        pagination: pageMeta(meta as unknown as Record<string, number>, results.length),
      } satisfies FindResult;
    };
  }

  findOne(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'findOne' });
      const documentId = args.documentId ?? args.id;
      if (typeof documentId !== 'string' || documentId === '') return null;
      const raw = this.readQuery(info, type, path, args.publicationState ?? args.status, args.locale, args);
      return this.deps.service.of(type).findVersion({ ...raw, documentId }, caller);
    };
  }

  /** A document as the selection at `path` asks for it, read for `caller` (after a write of another module's). */
  read(
    type: ContentType,
    documentId: string,
    info: GraphQLResolveInfo,
    path: string[],
    caller: CallerOptions,
  ): Promise<Document | null> {
    return this.deps.service
      .of(type)
      .findVersion({ ...this.readQuery(info, type, path, undefined, undefined), documentId }, caller);
  }

  findSingle(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'find' });
      return this.deps.service
        .of(type)
        .findVersion(this.readQuery(info, type, path, args.publicationState ?? args.status, args.locale, args), caller);
    };
  }

  /** `status` (flat shape), or `publishedAt: null` in the data (earlier shape): a draft. */
  private writeStatus(args: Args): unknown {
    if (args.status !== undefined) return args.status;
    return (args.data as Args | undefined)?.publishedAt === null ? 'draft' : undefined;
  }

  private async write(
    type: ContentType,
    key: string,
    action: 'create' | 'update',
    ctx: GraphqlContext,
    args: Args,
    info: GraphQLResolveInfo,
    path: string[],
  ) {
    const caller = await this.caller(ctx, key, { uid: type.uid, action });
    const params = this.readQuery(info, type, path, this.writeStatus(args), args.locale);
    const data = toRestBody(this.deps.service.schema, type, (args.data ?? {}) as Args, this.deps.componentUids);
    return { params: { ...params, data }, caller };
  }

  create(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const { params, caller } = await this.write(type, key, 'create', ctx, args, info, path);
      return this.deps.service.of(type).create(params, caller);
    };
  }

  update(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const { params, caller } = await this.write(type, key, 'update', ctx, args, info, path);
      return this.deps.service.of(type).update({ ...params, documentId: String(args.documentId ?? args.id) }, caller);
    };
  }

  upsertSingle(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const { params, caller } = await this.write(type, key, 'update', ctx, args, info, path);
      return this.deps.service.of(type).update(params, caller);
    };
  }

  /** Deletes a document; answers what it was (earlier shape) or its documentId (flat). */
  delete(type: ContentType, key: string, path: string[] | null): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'delete' });
      const documentId = String(args.documentId ?? args.id);
      const locale = typeof args.locale === 'string' ? args.locale : undefined;
      const before = path ? await this.current(type, documentId, info, path, locale, caller) : null;
      await this.deps.service.of(type).delete({ documentId, locale }, caller);
      return before ?? { documentId };
    };
  }

  deleteSingle(type: ContentType, key: string, path: string[] | null): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'delete' });
      const locale = typeof args.locale === 'string' ? args.locale : undefined;
      const before = path ? await this.current(type, undefined, info, path, locale, caller) : null;
      await this.deps.service.of(type).delete({ locale }, caller);
      return before ?? { documentId: '' };
    };
  }

  /** The document as it is before a deletion: published, else its draft. */
  private async current(
    type: ContentType,
    documentId: string | undefined,
    info: GraphQLResolveInfo,
    path: string[],
    locale: string | undefined,
    caller: CallerOptions,
  ) {
    const read = (status: string): Promise<Document | null> =>
      this.deps.service
        .of(type)
        .findVersion({ ...this.readQuery(info, type, path, status, locale), documentId }, caller);
    return (await read('published')) ?? (type.draftAndPublish ? read('draft') : null);
  }
}

/** GraphQL's `Pagination` is page-based; offset pagination is presented as pages of `limit`. */
function pageMeta(meta: Record<string, number>, count: number): Record<string, number> {
  const pageSize = meta.pageSize ?? meta.limit ?? count;
  const page = meta.page ?? (pageSize > 0 ? Math.floor((meta.start ?? 0) / pageSize) + 1 : 1);
  const total = meta.total ?? count;
  return { page, pageSize, total, pageCount: meta.pageCount ?? (pageSize > 0 ? Math.ceil(total / pageSize) : 0) };
}
