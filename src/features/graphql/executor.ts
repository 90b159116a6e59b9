/**
 * The GraphQL executor: the schema, the validation rules and the documents already validated.
 * Loaded with the first operation (index.ts), not at start: graphql-js and the schema were a fifth
 * of a start's CPU (docs/performance.md "Start-up and memory").
 *
 * It does what Apollo Server does for Strapi 5.54 once a request is read (request.ts): parse,
 * validate, refuse a mutation over GET, pick the operation, execute, format, with Apollo's answers.
 */
import {
  execute,
  getOperationAST,
  Kind,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { GraphqlConfig } from './config.js';
import type { GraphqlContext } from './context.js';
import { formatErrors, messageCleaner, type ErrorOptions, type FormattedResult } from './errors.js';
import type { GraphqlCache } from './cache.js';
import { ExtensionService } from './extension.js';
import { costLimitRule, depthLimitRule, rootFieldsRule } from './limits.js';
import { limitRootConcurrency } from './root-concurrency.js';
import { Operations } from './resolvers/operations.js';
import { SelectionReader } from './resolvers/selection.js';
import { buildGraphqlSchema } from './schema/build.js';
import { ModelTypes } from './schema/types.js';
import { badRequest, GraphqlRequestError, type GraphqlOperation } from './request.js';
import type { GraphqlFieldSource, GraphqlOptions } from './options.js';

/** Documents kept parsed and validated (or their validation errors), by source: mercurius' default. */
const MAX_DOCUMENTS = 1024;

export class GraphqlExecutor {
  private readonly documents = new Map<string, DocumentNode | readonly GraphQLError[]>();
  private readonly rules: readonly ValidationRule[];
  private readonly errorOptions: ErrorOptions;

  constructor(
    readonly schema: GraphQLSchema,
    /** Whether project code resolves or configures fields: then answers are not cached. */
    readonly custom: boolean,
    config: GraphqlConfig,
    defaultLimit: number,
    /** The response cache the answers go to; none when `custom`. */
    readonly cache: GraphqlCache | undefined,
  ) {
    const rules: ValidationRule[] = [
      ...specifiedRules,
      depthLimitRule(config.depthLimit),
      costLimitRule({ costLimit: config.costLimit, amountLimit: config.amountLimit, defaultLimit }),
      rootFieldsRule(config.maxRootFields),
    ];
    if (!config.introspection) rules.push(NoSchemaIntrospectionCustomRule);
    this.rules = rules;
    this.errorOptions = { hideSuggestions: config.hideSuggestions };
  }

  /**
   * Runs an operation: its body, and its status when it has errors (without, the reply keeps the
   * status a resolver gave it: a REST controller's 201). What Apollo refuses before executing
   * (syntax, validation, a mutation over GET, an operation it cannot pick) is answered as Apollo
   * answers it: `{ errors }` without `data`.
   */
  async run(
    operation: GraphqlOperation,
    context: GraphqlContext,
    request: FastifyRequest,
    log: FastifyBaseLogger,
  ): Promise<FormattedResult | { statusCode?: undefined; response: { data: unknown } }> {
    try {
      return await this.execute(operation, context, request, log);
    } catch (error) {
      if (!(error instanceof GraphqlRequestError)) throw error;
      return error.answer(messageCleaner(this.errorOptions));
    }
  }

  private async execute(
    operation: GraphqlOperation,
    context: GraphqlContext,
    request: FastifyRequest,
    log: FastifyBaseLogger,
  ): Promise<FormattedResult | { statusCode?: undefined; response: { data: unknown } }> {
    const document = this.document(operation.query);
    const { operationName } = operation;
    const definition = getOperationAST(document, operationName);
    if (request.method === 'GET' && definition && definition.operation !== 'query')
      throw badRequest(`GET requests only support query operations, not ${definition.operation} operations`, 405, {
        allow: 'POST',
      });
    operation.onValid?.();
    if (this.cache) await this.cache.beforeExecution(request, rootFieldCount(document, operationName));
    const result = await execute({
      schema: this.schema,
      document,
      contextValue: context,
      variableValues: operation.variables,
      operationName,
    });
    // No operation to run (several without a name, an unknown name): graphql-js' first error, as Apollo answers it.
    if (!definition)
      throw new GraphqlRequestError(
        400,
        [{ message: result.errors?.[0]?.message ?? 'Must provide an operation.' }],
        'OPERATION_RESOLUTION_FAILURE',
      );
    if (!result.errors?.length) return { response: { data: result.data } };
    return formatErrors(result, { reply: { log } }, this.errorOptions);
  }

  /** The source parsed and validated, from the documents kept when it was seen before. */
  private document(source: string): DocumentNode {
    const kept = this.documents.get(source);
    if (kept !== undefined) {
      // Least recently used goes first: a hit moves to the end.
      this.documents.delete(source);
      this.documents.set(source, kept);
      if (isErrors(kept)) throw new GraphqlRequestError(400, kept, 'GRAPHQL_VALIDATION_FAILED');
      return kept;
    }
    let document: DocumentNode;
    try {
      document = parse(source);
    } catch (error) {
      throw new GraphqlRequestError(400, [error as GraphQLError], 'GRAPHQL_PARSE_FAILED');
    }
    const errors = validate(this.schema, document, this.rules);
    if (this.documents.size >= MAX_DOCUMENTS) this.documents.delete(this.documents.keys().next().value!);
    this.documents.set(source, errors.length ? errors : document);
    if (errors.length) throw new GraphqlRequestError(400, errors, 'GRAPHQL_VALIDATION_FAILED');
    return document;
  }
}

const isErrors = (kept: DocumentNode | readonly GraphQLError[]): kept is readonly GraphQLError[] => Array.isArray(kept);

/**
 * The executable schema for a configuration, and whether project code resolves or configures
 * fields (resolvers, policies, middlewares may answer from anything: with any, GraphQL answers
 * are not cached).
 */
export function createGraphqlSchema(
  options: GraphqlOptions,
  fieldSource: GraphqlFieldSource | undefined,
  extension: ExtensionService,
): { schema: GraphQLSchema; custom: boolean } {
  const { config, service } = options;
  const shape = config.v4CompatibilityMode ? 'v4' : 'flat';
  extension.enabled = config.shadowCRUD;
  const extensions = extension.resolve({ strapi: options.strapi });
  const custom = extensions.some((e) => e.resolvers !== undefined || e.resolversConfig !== undefined);
  const configs = new Map(extensions.flatMap((e) => Object.entries(e.resolversConfig ?? {})));
  const builtIns = new Set(fieldSource?.exposedBuiltIns(service.schema) ?? []);
  const types = new ModelTypes(service.schema, shape, extension, config.amountLimit, builtIns);
  const maxLimit = config.amountLimit;
  const operations = new Operations({
    service: service.withPageLimits({ maxLimit, defaultLimit: Math.min(options.rest.defaultLimit, maxLimit) }),
    access: options.access,
    shape,
    selection: new SelectionReader(service.schema, shape, config.amountLimit),
    componentUids: types.componentUidsByTypeName(),
    authConfig: (key) => configs.get(key)?.auth,
  });
  const schema = buildGraphqlSchema({
    schema: service.schema,
    types,
    operations,
    shadow: extension,
    extensions,
    access: options.access,
    extra: fieldSource?.fields({ types, operations, schema: service.schema }),
    named: extension.named,
    strapi: options.strapi,
  });
  limitRootConcurrency(schema);
  return { schema, custom };
}

/** The executor for these options, caching its answers in `cache` unless project code resolves fields. */
export async function createExecutor(
  options: GraphqlOptions,
  extension: ExtensionService,
  cache: GraphqlCache | undefined,
): Promise<GraphqlExecutor> {
  const fieldSource = await options.fieldSource?.();
  const { schema, custom } = createGraphqlSchema(options, fieldSource, extension);
  const defaultLimit = Math.min(options.rest.defaultLimit, options.config.amountLimit);
  return new GraphqlExecutor(schema, custom, options.config, defaultLimit, custom ? undefined : cache);
}

/**
 * Root fields of the operation a request runs, `__typename` aside; -1 when it is not a plain query
 * of fields (a mutation, several operations without a name, fragments at the root).
 */
export function rootFieldCount(document: DocumentNode, operationName: string | undefined | null): number {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation || operation.operation !== 'query') return -1;
  let count = 0;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) return -1;
    if (selection.name.value === '__typename') continue;
    if (selection.name.value.startsWith('__')) return -1;
    count += 1;
  }
  return count;
}
