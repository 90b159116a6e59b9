/** The root fields of Shadow CRUD for each content-type, in either shape (docs/graphql.md "Operations per content-type"). */
import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { NotFoundError } from '../../../core/errors.js';
import type { ContentType } from '../../../core/schema/model.js';
import type { GraphqlContext } from '../context.js';
import type { Resolver } from '../extension.js';
import { pluralField, singularField, typeName } from '../naming.js';
import type { Operations } from '../resolvers/operations.js';
import { LocaleScalar } from '../scalars.js';
import { listArgs, PublicationFilter, PublicationState, PublicationStatus } from './common.js';
import type { FindResult, ModelTypes } from './types.js';

type Field = GraphQLFieldConfig<unknown, GraphqlContext>;
export type RootFields = GraphQLFieldConfigMap<unknown, GraphqlContext>;

const V4_DOCUMENT = ['data', 'attributes'];

export interface ActionSwitch {
  isActionEnabled(action: 'find' | 'findOne' | 'create' | 'update' | 'delete'): boolean;
}

/** Wraps a resolver's result (`{data}` in the earlier shape). */
const map =
  (resolve: Resolver, wrap: (value: unknown) => unknown): Resolver =>
  async (...args) =>
    wrap(await resolve(...args));

/**
 * Strapi 5's flat shape answers a write to a document that does not exist without an error, as
 * Strapi 5.54 does: `update<Name>` is null, `delete<Name>` names the documentId it was given.
 */
const whenMissing =
  (resolve: Resolver, answer: (args: Record<string, unknown>) => unknown): Resolver =>
  async (source, args, ctx, info) => {
    try {
      return await resolve(source, args, ctx, info);
    } catch (error) {
      if (error instanceof NotFoundError) return answer(args);
      throw error;
    }
  };

export function rootFields(
  type: ContentType,
  types: ModelTypes,
  ops: Operations,
  actions: ActionSwitch,
): { query: RootFields; mutation: RootFields } {
  const query: RootFields = {};
  const mutation: RootFields = {};
  const v4 = types.shape === 'v4';
  // As docs/graphql.md "Operations per content-type" has it, on every type (always published without draft and publish).
  const readArgs: GraphQLFieldConfigArgumentMap = v4
    ? { publicationState: { type: PublicationState, defaultValue: 'published' } }
    : {
        status: { type: PublicationStatus, defaultValue: 'published' },
        hasPublishedVersion: { type: GraphQLBoolean },
        publicationFilter: { type: PublicationFilter },
      };
  const writeArgs: GraphQLFieldConfigArgumentMap = v4
    ? {}
    : { status: { type: PublicationStatus, defaultValue: 'published' } };
  const localeArg: GraphQLFieldConfigArgumentMap = type.localized ? { locale: { type: LocaleScalar } } : {};
  const data = { data: { type: new GraphQLNonNull(types.dataInput(type)) } };
  const name = typeName(type);
  const document = (resolve: Resolver): Pick<Field, 'type' | 'resolve'> =>
    v4
      ? { type: types.entityResponse(type), resolve: map(resolve, (value) => ({ data: value ?? null })) }
      : { type: types.modelType(type), resolve };
  const path = v4 ? V4_DOCUMENT : [];

  if (type.kind === 'collectionType') {
    const single = singularField(type);
    const plural = pluralField(type);
    if (actions.isActionEnabled('findOne')) {
      const idArg: GraphQLFieldConfigArgumentMap = v4
        ? { id: { type: GraphQLID } }
        : { documentId: { type: new GraphQLNonNull(GraphQLID) }, ...readArgs };
      query[single] = { args: { ...idArg, ...localeArg }, ...document(ops.findOne(type, `Query.${single}`, path)) };
    }
    if (actions.isActionEnabled('find')) {
      const args = { ...listArgs(types.filtersInput(type)), ...readArgs, ...localeArg };
      const key = `Query.${plural}`;
      if (v4)
        query[plural] = {
          args,
          type: types.entityResponseCollection(type),
          resolve: ops.find(type, key, path, 'meta'),
        };
      else {
        const find = ops.find(type, key, path, null);
        query[plural] = {
          args,
          type: new GraphQLNonNull(new GraphQLList(types.modelType(type))),
          resolve: map(find, (result) => (result as FindResult).results),
        };
        query[`${plural}_connection`] = {
          args,
          type: types.entityResponseCollection(type),
          resolve: ops.find(type, `Query.${plural}_connection`, ['nodes'], 'pageInfo'),
        };
      }
    }
    if (actions.isActionEnabled('create')) {
      mutation[`create${name}`] = {
        args: { ...writeArgs, ...data, ...localeArg },
        ...document(ops.create(type, `Mutation.create${name}`, path)),
      };
    }
    if (actions.isActionEnabled('update')) {
      const idArg = { [v4 ? 'id' : 'documentId']: { type: new GraphQLNonNull(GraphQLID) } };
      const update = ops.update(type, `Mutation.update${name}`, path);
      mutation[`update${name}`] = {
        args: { ...idArg, ...writeArgs, ...data, ...localeArg },
        ...document(v4 ? update : whenMissing(update, () => null)),
      };
    }
    if (actions.isActionEnabled('delete')) {
      const idArg = { [v4 ? 'id' : 'documentId']: { type: new GraphQLNonNull(GraphQLID) } };
      const resolve = ops.delete(type, `Mutation.delete${name}`, v4 ? path : null);
      mutation[`delete${name}`] = {
        args: { ...idArg, ...localeArg },
        type: types.deleteResponse(type),
        resolve: v4
          ? map(resolve, (value) => ({ data: value }))
          : whenMissing(resolve, (args) => ({ documentId: String(args.documentId) })),
      };
    }
    return { query, mutation };
  }

  const single = singularField(type);
  if (actions.isActionEnabled('find') || actions.isActionEnabled('findOne')) {
    query[single] = { args: { ...readArgs, ...localeArg }, ...document(ops.findSingle(type, `Query.${single}`, path)) };
  }
  if (actions.isActionEnabled('update')) {
    mutation[`update${name}`] = {
      args: { ...writeArgs, ...data, ...localeArg },
      ...document(ops.upsertSingle(type, `Mutation.update${name}`, path)),
    };
  }
  if (actions.isActionEnabled('delete')) {
    const resolve = ops.deleteSingle(type, `Mutation.delete${name}`, v4 ? path : null);
    mutation[`delete${name}`] = {
      args: localeArg,
      type: types.deleteResponse(type),
      resolve: v4 ? map(resolve, (value) => ({ data: value })) : resolve,
    };
  }
  return { query, mutation };
}
