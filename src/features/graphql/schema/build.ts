/**
 * Assembles the executable schema: Shadow CRUD root fields for every exposed content-type,
 * users-permissions fields, then the project's extensions (type definitions, resolvers and
 * resolver configuration) on top.
 */
import {
  extendSchema,
  GraphQLBoolean,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLUnionType,
  Kind,
  parse,
  validateSchema,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLNamedType,
} from 'graphql';
import { PolicyError, ProjectError } from '../../../core/errors.js';
import type { AccessControl } from '../../../api/access.js';
import { FILE_UID, type Schema } from '../../../core/schema/model.js';
import type { GraphqlContext } from '../context.js';
import type {
  Extension,
  ExtensionService,
  Middleware,
  NamedHandlers,
  Policy,
  PolicyHttp,
  Resolver,
  ResolverConfig,
} from '../extension.js';
import type { Operations } from '../resolvers/operations.js';
import { parseScope } from '../resolvers/operations.js';
import { rootFields, type ActionSwitch, type RootFields } from './operations.js';
import type { ModelTypes } from './types.js';

export interface BuildOptions {
  schema: Schema;
  types: ModelTypes;
  operations: Operations;
  shadow: ExtensionService;
  extensions: Extension[];
  access: AccessControl;
  /** Extra root fields (users-permissions). */
  extra?: { query: RootFields; mutation: RootFields };
  /** Policies and middlewares `resolversConfig` names. */
  named?: NamedHandlers;
  /** What policies and middleware factories receive as `strapi`. */
  strapi?: unknown;
}

export function buildGraphqlSchema(options: BuildOptions): GraphQLSchema {
  const { schema, types, operations, shadow } = options;
  const query: RootFields = {};
  const mutation: RootFields = {};
  for (const type of schema.contentTypes.values()) {
    if (!types.isExposed(type.uid) || type.uid === FILE_UID) continue;
    // Built-in types (users, roles) are read as the project's are; their writes are users-permissions' own.
    const actions = type.builtIn ? readsOnly(shadow.type(type.uid)) : shadow.type(type.uid);
    const fields = rootFields(type, types, operations, actions);
    Object.assign(query, fields.query);
    Object.assign(mutation, fields.mutation);
  }
  const generated = new Set([
    ...Object.keys(query).map((k) => `Query.${k}`),
    ...Object.keys(mutation).map((k) => `Mutation.${k}`),
  ]);
  Object.assign(query, options.extra?.query);
  Object.assign(mutation, options.extra?.mutation);

  const models: GraphQLObjectType[] = [];
  if (shadow.enabled) {
    for (const type of schema.contentTypes.values()) if (types.isExposed(type.uid)) models.push(types.modelType(type));
    for (const component of schema.components.values()) models.push(types.modelType(component));
  }
  const extraTypes: GraphQLNamedType[] = [...models];
  if (models.length > 0)
    extraTypes.push(new GraphQLUnionType({ name: 'GenericMorph', types: models, resolveType: () => undefined }));

  let result = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
    types: extraTypes,
  });

  for (const extension of options.extensions) {
    if (extension.types?.length || extension.plugins?.length) {
      throw new ProjectError(
        'GraphQL extensions with code-first `types` or `plugins` (nexus) are not supported; use `typeDefs` and `resolvers`',
        'src/index',
      );
    }
    if (extension.typeDefs) result = extendSchema(result, asExtensions(result, parse(extension.typeDefs)));
  }
  for (const extension of options.extensions) applyResolvers(result, extension);
  const configs = new Map<string, ResolverConfig>();
  for (const extension of options.extensions)
    for (const [key, config] of Object.entries(extension.resolversConfig ?? {}))
      configs.set(key, { ...configs.get(key), ...config });
  for (const [key, config] of configs) applyConfig(result, key, config, !generated.has(key), options);

  result = withoutEmptyRoots(result);
  const errors = validateSchema(result);
  if (errors.length > 0)
    throw new ProjectError(`invalid GraphQL schema: ${errors.map((e) => e.message).join('; ')}`, 'src/index');
  return result;
}

const readsOnly = (actions: ActionSwitch): ActionSwitch => ({
  isActionEnabled: (action) => (action === 'find' || action === 'findOne') && actions.isActionEnabled(action),
});

/** `type Query { ... }` in an extension adds to the existing type, as it does in Strapi. */
function asExtensions(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const definitions = document.definitions.map((definition): DefinitionNode => {
    if (definition.kind === Kind.OBJECT_TYPE_DEFINITION && schema.getType(definition.name.value)) {
      return { ...definition, kind: Kind.OBJECT_TYPE_EXTENSION };
    }
    return definition;
  });
  return { ...document, definitions };
}

function fieldOf(schema: GraphQLSchema, key: string) {
  const [typeNameValue, fieldName] = key.split('.');
  const type = schema.getType(typeNameValue ?? '');
  const field = type instanceof GraphQLObjectType && fieldName ? type.getFields()[fieldName] : undefined;
  if (!field) throw new ProjectError(`GraphQL extension refers to ${key}, which is not in the schema`, 'src/index');
  return field;
}

function applyResolvers(schema: GraphQLSchema, extension: Extension): void {
  for (const [type, fields] of Object.entries(extension.resolvers ?? {})) {
    for (const [name, resolver] of Object.entries(fields)) {
      fieldOf(schema, `${type}.${name}`).resolve = typeof resolver === 'function' ? resolver : resolver.resolve;
    }
  }
}

type ResolvedPolicy = { handler: Policy; config: unknown };

/** The policies of a resolver's config: functions, or names of the project's registry; an unknown name stops start-up. */
function resolvePolicies(
  key: string,
  list: NonNullable<ResolverConfig['policies']>,
  named: NamedHandlers | undefined,
): ResolvedPolicy[] {
  return list.map((item) => {
    if (typeof item === 'function') return { handler: item, config: {} };
    const name = typeof item === 'string' ? item : item?.name;
    const handler = typeof name === 'string' ? named?.policy(name) : undefined;
    if (!handler)
      throw new ProjectError(`GraphQL resolversConfig ${key}: Policy ${String(name)} not found`, 'src/index');
    return { handler, config: typeof item === 'object' ? (item.config ?? {}) : {} };
  });
}

/** The middlewares of a resolver's config: functions, or names (`{ name, options }`) made by the registry's factory. */
function resolveMiddlewares(
  key: string,
  list: NonNullable<ResolverConfig['middlewares']>,
  named: NamedHandlers | undefined,
  strapi: unknown,
): Middleware[] {
  return list.map((item) => {
    if (typeof item === 'function') return item;
    const name = typeof item === 'string' ? item : item?.name;
    const factory = typeof name === 'string' ? named?.middleware(name) : undefined;
    if (!factory)
      throw new ProjectError(`GraphQL resolversConfig ${key}: Middleware ${String(name)} not found`, 'src/index');
    return factory(typeof item === 'object' ? (item.options ?? item.config ?? {}) : {}, { strapi });
  });
}

/**
 * Middlewares, then policies (as Strapi chains them), and (for fields that are not Shadow
 * CRUD's) `auth.scope`, around a resolver.
 */
function applyConfig(
  schema: GraphQLSchema,
  key: string,
  config: ResolverConfig,
  custom: boolean,
  options: Pick<BuildOptions, 'access' | 'named' | 'strapi'>,
): void {
  const field = fieldOf(schema, key);
  const inner: Resolver =
    (field.resolve as Resolver | undefined) ?? ((source) => (source as Record<string, unknown>)?.[field.name]);
  const policies = resolvePolicies(key, config.policies ?? [], options.named);
  let resolve: Resolver = inner;
  if (policies.length > 0) {
    const guarded = resolve;
    resolve = async (parent, args, context: GraphqlContext, info) => {
      // `http` is Strapi's Koa context: the project's when it gave one, else the request as it shows
      // it (`http.request.headers`, `http.headers`, `http.get(name)`).
      const http = (context.koaContext as PolicyHttp | undefined) ?? {
        request: context.request,
        headers: context.request.headers,
        get: (name: string) => context.request.headers[name.toLowerCase()],
      };
      const policyContext = { parent, args, context, info, http, state: context.state };
      for (const { handler, config: policyConfig } of policies) {
        const result = await handler(policyContext, policyConfig, { strapi: options.strapi });
        if (result !== true && result !== undefined) throw new PolicyError();
      }
      return guarded(parent, args, context, info);
    };
  }
  for (const middleware of resolveMiddlewares(key, config.middlewares ?? [], options.named, options.strapi).reverse()) {
    const next = resolve;
    resolve = (parent, args, context, info) => middleware(next, parent, args, context, info);
  }
  const scope = custom && config.auth ? config.auth.scope : [];
  if (scope.length > 0) {
    const scoped = resolve;
    resolve = async (parent, args, context: GraphqlContext, info) => {
      for (const permission of scope) await options.access.authorize(context.request.headers, parseScope(permission));
      return scoped(parent, args, context, info);
    };
  }
  field.resolve = resolve;
}

/** A schema without mutations has no Mutation type; one without queries keeps a placeholder. */
function withoutEmptyRoots(schema: GraphQLSchema): GraphQLSchema {
  const config = schema.toConfig();
  const query = schema.getQueryType();
  const mutation = schema.getMutationType();
  const empty = (type: GraphQLObjectType | null | undefined) => !type || Object.keys(type.getFields()).length === 0;
  if (!empty(mutation) && !empty(query)) return schema;
  return new GraphQLSchema({
    ...config,
    query: empty(query)
      ? new GraphQLObjectType({ name: 'Query', fields: { _empty: { type: GraphQLBoolean } } })
      : query,
    mutation: empty(mutation) ? undefined : mutation,
    types: config.types.filter((type) => type.name !== 'Query' && type.name !== 'Mutation'),
  });
}
