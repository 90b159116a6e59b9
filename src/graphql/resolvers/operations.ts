/**
 * The root resolvers of Shadow CRUD: the REST pipeline for GraphQL (access -> the REST query
 * parsers -> the document service). Each returns plain documents; the schema's types present
 * them in the configured shape.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { RestConfig } from '../../config/load.js';
import type { CallerOptions, DocumentContext } from '../../documents/context.js';
import type { Document } from '../../documents/rows.js';
import type { DocumentService } from '../../documents/service.js';
import { NotFoundError } from '../../errors.js';
import { parseFindOneQuery, parseFindQuery, type ParseOptions } from '../../query/parse/index.js';
import type { AccessControl, Permission } from '../../access/index.js';
import type { ContentType } from '../../schema/model.js';
import type { GraphqlContext } from '../context.js';
import type { Resolver, ResolverConfig } from '../extension.js';
import type { FindResult, Shape } from '../schema/types.js';
import { toRestBody, toRestFilters } from './args.js';
import type { SelectionReader } from './selection.js';

type Args = Record<string, unknown>;

export interface OperationDeps {
  service: DocumentService;
  context: DocumentContext;
  rest: RestConfig;
  access: AccessControl;
  shape: Shape;
  amountLimit: number;
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

export class Operations {
  constructor(private readonly deps: OperationDeps) {}

  /** Authorizes a root field as REST would, unless its resolver config says otherwise. */
  async caller(ctx: GraphqlContext, key: string, permission: Permission): Promise<CallerOptions> {
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

  private parseOptions(caller: CallerOptions): ParseOptions {
    const { rest } = this.deps;
    const { i18n, canRead } = this.deps.context;
    const maxLimit = this.deps.amountLimit;
    return { rest: { ...rest, maxLimit, defaultLimit: Math.min(rest.defaultLimit, maxLimit) }, i18n, canRead: caller.canRead ?? canRead };
  }

  private readQuery(info: GraphQLResolveInfo, type: ContentType, path: string[], status: unknown, locale: unknown) {
    const { fields, populate } = this.deps.selection.read(info, type, path);
    return { fields, populate, status, locale };
  }

  find(type: ContentType, key: string, path: string[], count: string | null): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'find' });
      const pagination = Object.fromEntries(Object.entries((args.pagination ?? {}) as Args).filter(([, v]) => v !== null && v !== undefined));
      const raw = {
        ...this.readQuery(info, type, path, args.publicationState ?? args.status, args.locale),
        filters: args.filters ? toRestFilters(this.deps.context.schema, type, args.filters as Args, this.deps.shape) : undefined,
        sort: Array.isArray(args.sort) && args.sort.length > 0 ? args.sort : undefined,
        pagination: { ...pagination, withCount: count !== null && this.deps.selection.selects(info, count) },
      };
      const query = parseFindQuery(this.deps.context.schema, type, raw, this.parseOptions(caller));
      const { results, pagination: meta } = await this.deps.service.findMany(type, query, caller);
      return { results, pagination: pageMeta(meta as unknown as Record<string, number>, results.length) } satisfies FindResult;
    };
  }

  findOne(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'findOne' });
      const documentId = args.documentId ?? args.id;
      if (typeof documentId !== 'string' || documentId === '') return null;
      const raw = this.readQuery(info, type, path, args.publicationState ?? args.status, args.locale);
      const query = parseFindOneQuery(this.deps.context.schema, type, raw, this.parseOptions(caller));
      return this.deps.service.findOne(type, documentId, query, caller);
    };
  }

  findSingle(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'find' });
      const raw = this.readQuery(info, type, path, args.publicationState ?? args.status, args.locale);
      return this.deps.service.findSingle(type, parseFindOneQuery(this.deps.context.schema, type, raw, this.parseOptions(caller)), caller);
    };
  }

  /** `status` (flat shape), or `publishedAt: null` in the data (specification shape): a draft. */
  private writeStatus(args: Args): unknown {
    if (args.status !== undefined) return args.status;
    return (args.data as Args | undefined)?.publishedAt === null ? 'draft' : undefined;
  }

  private async write(type: ContentType, key: string, action: 'create' | 'update', ctx: GraphqlContext, args: Args, info: GraphQLResolveInfo, path: string[]) {
    const caller = await this.caller(ctx, key, { uid: type.uid, action });
    const raw = this.readQuery(info, type, path, this.writeStatus(args), args.locale);
    const back = { query: parseFindOneQuery(this.deps.context.schema, type, raw, this.parseOptions(caller)), caller };
    const body = toRestBody(this.deps.context.schema, type, (args.data ?? {}) as Args, this.deps.componentUids);
    return { back, body };
  }

  create(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const { back, body } = await this.write(type, key, 'create', ctx, args, info, path);
      return this.deps.service.create(type, body, back);
    };
  }

  update(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const { back, body } = await this.write(type, key, 'update', ctx, args, info, path);
      return this.deps.service.update(type, String(args.documentId ?? args.id), body, back);
    };
  }

  upsertSingle(type: ContentType, key: string, path: string[]): Resolver {
    return async (_source, args, ctx, info) => {
      const { back, body } = await this.write(type, key, 'update', ctx, args, info, path);
      return this.deps.service.upsertSingle(type, body, back);
    };
  }

  /** Deletes a document; answers what it was (specification shape) or its documentId (flat). */
  delete(type: ContentType, key: string, path: string[] | null): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'delete' });
      const documentId = String(args.documentId ?? args.id);
      const locale = typeof args.locale === 'string' ? args.locale : undefined;
      const before = path ? await this.current(type, documentId, info, path, locale, caller) : null;
      await this.deps.service.delete(type, documentId, locale);
      return before ?? { documentId };
    };
  }

  deleteSingle(type: ContentType, key: string, path: string[] | null): Resolver {
    return async (_source, args, ctx, info) => {
      const caller = await this.caller(ctx, key, { uid: type.uid, action: 'delete' });
      const locale = typeof args.locale === 'string' ? args.locale : undefined;
      const before = path ? await this.current(type, null, info, path, locale, caller) : null;
      if (!(await this.deps.service.deleteSingle(type, locale))) throw new NotFoundError(`No ${type.singularName} found`);
      return before ?? { documentId: '' };
    };
  }

  /** The document as it is before a deletion: published, else its draft. */
  private async current(type: ContentType, documentId: string | null, info: GraphQLResolveInfo, path: string[], locale: string | undefined, caller: CallerOptions) {
    const read = async (status: string): Promise<Document | null> => {
      const query = parseFindOneQuery(this.deps.context.schema, type, this.readQuery(info, type, path, status, locale), this.parseOptions(caller));
      return documentId === null ? this.deps.service.findSingle(type, query, caller) : this.deps.service.findOne(type, documentId, query, caller);
    };
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
