/** Types every generated schema shares: filter inputs per scalar, pagination, publication enums. */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
  type GraphQLScalarType,
} from 'graphql';
import { DateScalar, DateTimeScalar, JSONScalar, LongScalar, TimeScalar } from '../scalars.js';
import { PUBLICATION_FILTERS } from '../../../core/query/types.js';
import type { ScalarType } from '../../../core/schema/model.js';

/** GraphQL operator name -> REST operator (`containsi` -> `$containsi`). */
const FILTER_OPERATORS = [
  'eq',
  'eqi',
  'ne',
  'nei',
  'startsWith',
  'startsWithi',
  'endsWith',
  'endsWithi',
  'contains',
  'notContains',
  'containsi',
  'notContainsi',
  'gt',
  'gte',
  'lt',
  'lte',
  'null',
  'notNull',
  'in',
  'notIn',
  'between',
] as const;
const BOOLEAN_OPERATORS = new Set(['null', 'notNull']);
const LIST_OPERATORS = new Set(['in', 'notIn', 'between']);

function filterInput(name: string, scalar: GraphQLScalarType): GraphQLInputObjectType {
  const type: GraphQLInputObjectType = new GraphQLInputObjectType({
    name,
    fields: () => {
      const fields: GraphQLInputFieldConfigMap = {
        and: { type: new GraphQLList(scalar) },
        or: { type: new GraphQLList(scalar) },
        not: { type },
      };
      for (const op of FILTER_OPERATORS) {
        fields[op] = {
          type: BOOLEAN_OPERATORS.has(op) ? GraphQLBoolean : LIST_OPERATORS.has(op) ? new GraphQLList(scalar) : scalar,
        };
      }
      return fields;
    },
  });
  return type;
}

export const filterInputs = {
  ID: filterInput('IDFilterInput', GraphQLID),
  String: filterInput('StringFilterInput', GraphQLString),
  Boolean: filterInput('BooleanFilterInput', GraphQLBoolean),
  Int: filterInput('IntFilterInput', GraphQLInt),
  Long: filterInput('LongFilterInput', LongScalar),
  Float: filterInput('FloatFilterInput', GraphQLFloat),
  Date: filterInput('DateFilterInput', DateScalar),
  Time: filterInput('TimeFilterInput', TimeScalar),
  DateTime: filterInput('DateTimeFilterInput', DateTimeScalar),
  JSON: filterInput('JSONFilterInput', JSONScalar),
};

/** The GraphQL scalar of an attribute type (enumerations have their own enum types). */
export function scalarOf(type: ScalarType): GraphQLScalarType {
  switch (type) {
    case 'integer':
      return GraphQLInt;
    case 'biginteger':
      return LongScalar;
    case 'float':
    case 'decimal':
      return GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'date':
      return DateScalar;
    case 'time':
      return TimeScalar;
    case 'datetime':
    case 'timestamp':
      return DateTimeScalar;
    case 'json':
    case 'blocks':
      return JSONScalar;
    default:
      return GraphQLString;
  }
}

export function filterInputOf(type: ScalarType | 'id'): GraphQLInputObjectType {
  if (type === 'id') return filterInputs.ID;
  return filterInputs[scalarOf(type).name as keyof typeof filterInputs];
}

const PaginationArg = new GraphQLInputObjectType({
  name: 'PaginationArg',
  fields: {
    page: { type: GraphQLInt },
    pageSize: { type: GraphQLInt },
    start: { type: GraphQLInt },
    limit: { type: GraphQLInt },
  },
});

export const Pagination = new GraphQLObjectType({
  name: 'Pagination',
  fields: {
    total: { type: new GraphQLNonNull(GraphQLInt) },
    page: { type: new GraphQLNonNull(GraphQLInt) },
    pageSize: { type: new GraphQLNonNull(GraphQLInt) },
    pageCount: { type: new GraphQLNonNull(GraphQLInt) },
  },
});

export const ResponseCollectionMeta = new GraphQLObjectType({
  name: 'ResponseCollectionMeta',
  fields: { pagination: { type: new GraphQLNonNull(Pagination) } },
});

export const PublicationState = new GraphQLEnumType({
  name: 'PublicationState',
  values: { LIVE: { value: 'published' }, PREVIEW: { value: 'draft' } },
});

export const PublicationStatus = new GraphQLEnumType({
  name: 'PublicationStatus',
  values: { DRAFT: { value: 'draft' }, PUBLISHED: { value: 'published' } },
});

/** Strapi 5's `publicationFilter` cohorts (flat shape), as REST's `publicationFilter` values. */
export const PublicationFilter = new GraphQLEnumType({
  name: 'PublicationFilter',
  values: Object.fromEntries(PUBLICATION_FILTERS.map((value) => [value.toUpperCase().replaceAll('-', '_'), { value }])),
});

/** The member of every dynamic-zone union for a value whose component is unknown. */
export const ErrorType = new GraphQLObjectType<Record<string, unknown>>({
  name: 'Error',
  fields: {
    code: { type: new GraphQLNonNull(GraphQLString), resolve: () => 'UNKNOWN_COMPONENT' },
    message: { type: GraphQLString, resolve: (value) => `Unknown component ${String(value.__component)}` },
  },
});

export const DeleteMutationResponse = new GraphQLObjectType({
  name: 'DeleteMutationResponse',
  fields: { documentId: { type: new GraphQLNonNull(GraphQLID) } },
});

export const listArgs = (filters: GraphQLInputType) => ({
  filters: { type: filters },
  pagination: { type: PaginationArg, defaultValue: {} },
  sort: { type: new GraphQLList(GraphQLString), defaultValue: [] },
});
