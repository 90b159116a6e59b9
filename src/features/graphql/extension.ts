/**
 * The GraphQL extension service (docs/graphql.md "GraphQL extensions"; `strapi.plugin('graphql').service('extension')`):
 * Shadow CRUD switches per content-type, action and field, and `use()` extensions with extra
 * type definitions, resolvers and per-resolver configuration.
 */
import type { GraphQLFieldResolver, GraphQLResolveInfo } from 'graphql';
import type { GraphqlContext } from './context.js';

type Action = 'find' | 'findOne' | 'create' | 'update' | 'delete';
const QUERY_ACTIONS: Action[] = ['find', 'findOne'];
const MUTATION_ACTIONS: Action[] = ['create', 'update', 'delete'];

export type Resolver = GraphQLFieldResolver<unknown, GraphqlContext, Record<string, unknown>>;

/** A policy's `http`: the project's Koa context, else the request as it shows it. */
export interface PolicyHttp {
  request: unknown;
  headers: GraphqlContext['request']['headers'];
  get(name: string): unknown;
}

interface PolicyContext {
  parent: unknown;
  args: Record<string, unknown>;
  context: GraphqlContext;
  info: GraphQLResolveInfo;
  /** Strapi's Koa context (`http.request.headers`, `http.headers`, `http.get(name)`). */
  http: PolicyHttp;
  state: Record<string, unknown>;
}
/** A policy, as Strapi calls it: anything but `true` or `undefined` refuses (403). */
export type Policy = (context: PolicyContext, config: unknown, extra: { strapi: unknown }) => unknown;
export type Middleware = (
  next: Resolver,
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphqlContext,
  info: GraphQLResolveInfo,
) => unknown;
/** A policy or middleware of `resolversConfig`: a function, a registered name, or `{ name, config }` (`options` for middlewares). */
type Named<T> = T | string | { name: string; config?: unknown; options?: unknown };

export interface ResolverConfig {
  auth?: false | { scope: string[] };
  policies?: Named<Policy>[];
  middlewares?: Named<Middleware>[];
}

/**
 * The project's registered policies and middlewares by name (`global::is-owner`,
 * `api::article.is-owner`, `plugin::users-permissions.isAuthenticated`), as its routes name
 * them: the same registry, given by the layer that loads project code.
 */
export interface NamedHandlers {
  policy(name: string): Policy | undefined;
  /** A middleware factory `(config, { strapi })` making the resolver middleware. */
  middleware(name: string): ((config: unknown, extra: { strapi: unknown }) => Middleware) | undefined;
}

export interface Extension {
  typeDefs?: string;
  resolvers?: Record<string, Record<string, Resolver | { resolve: Resolver }>>;
  /** `Query.articles`, `Article.title`... */
  resolversConfig?: Record<string, ResolverConfig>;
  /** Code-first builder types and plugins (nexus): not supported, refused at start. */
  types?: unknown[];
  plugins?: unknown[];
}

export type ExtensionFactory = (context: { strapi: unknown; nexus?: unknown; typeRegistry?: unknown }) => Extension;

class FieldSwitches {
  input = true;
  output = true;
  filters = true;

  disable(): this {
    this.input = this.output = this.filters = false;
    return this;
  }
  disableOutput(): this {
    this.output = false;
    return this;
  }
  disableInput(): this {
    this.input = false;
    return this;
  }
  disableFilters(): this {
    this.filters = false;
    return this;
  }
  isEnabled(): boolean {
    return this.input || this.output || this.filters;
  }
  isDisabled(): boolean {
    return !this.isEnabled();
  }
  hasInputEnabled(): boolean {
    return this.input;
  }
  hasOutputEnabled(): boolean {
    return this.output;
  }
  hasFiltersEnabled(): boolean {
    return this.filters;
  }
}

class TypeSwitches {
  private enabled = true;
  private readonly disabledActions = new Set<Action>();
  private readonly fields = new Map<string, FieldSwitches>();

  disable(): this {
    this.enabled = false;
    return this;
  }
  disableQueries(): this {
    return this.disableActions(QUERY_ACTIONS);
  }
  disableMutations(): this {
    return this.disableActions(MUTATION_ACTIONS);
  }
  disableAction(action: Action): this {
    this.disabledActions.add(action);
    return this;
  }
  disableActions(actions: Action[]): this {
    for (const action of actions) this.disableAction(action);
    return this;
  }
  field(name: string): FieldSwitches {
    let field = this.fields.get(name);
    if (!field) this.fields.set(name, (field = new FieldSwitches()));
    return field;
  }
  isEnabled(): boolean {
    return this.enabled;
  }
  isDisabled(): boolean {
    return !this.enabled;
  }
  areQueriesEnabled(): boolean {
    return this.enabled && QUERY_ACTIONS.some((a) => !this.disabledActions.has(a));
  }
  areQueriesDisabled(): boolean {
    return !this.areQueriesEnabled();
  }
  areMutationsEnabled(): boolean {
    return this.enabled && MUTATION_ACTIONS.some((a) => !this.disabledActions.has(a));
  }
  areMutationsDisabled(): boolean {
    return !this.areMutationsEnabled();
  }
  isActionEnabled(action: Action): boolean {
    return this.enabled && !this.disabledActions.has(action);
  }
  isActionDisabled(action: Action): boolean {
    return !this.isActionEnabled(action);
  }
}

/** What the schema builder asks: read-only views over the switches. */
export interface ShadowCrud {
  enabled: boolean;
  type(uid: string): Pick<TypeSwitches, 'isEnabled' | 'isActionEnabled'>;
  field(uid: string, name: string): Pick<FieldSwitches, 'hasInputEnabled' | 'hasOutputEnabled' | 'hasFiltersEnabled'>;
}

export class ExtensionService implements ShadowCrud {
  private readonly types = new Map<string, TypeSwitches>();
  private readonly registered: (Extension | ExtensionFactory)[] = [];
  /** Where `resolversConfig` finds the policies and middlewares it names (none until project code is loaded). */
  named?: NamedHandlers;

  constructor(public enabled = true) {}

  shadowCRUD(uid: string): TypeSwitches {
    let type = this.types.get(uid);
    if (!type) this.types.set(uid, (type = new TypeSwitches()));
    return type;
  }

  use(extension: Extension | ExtensionFactory): this {
    this.registered.push(extension);
    return this;
  }

  type(uid: string): TypeSwitches {
    return this.shadowCRUD(uid);
  }

  field(uid: string, name: string): FieldSwitches {
    return this.shadowCRUD(uid).field(name);
  }

  /** Whether project code has used the service (an extension, a Shadow CRUD switch). */
  customized(): boolean {
    return this.registered.length > 0 || this.types.size > 0;
  }

  /** Every extension, factories called with the given context. */
  resolve(context: Parameters<ExtensionFactory>[0]): Extension[] {
    return this.registered.map((entry) => (typeof entry === 'function' ? entry(context) : entry));
  }
}
