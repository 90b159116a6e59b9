/** The custom scalars of Strapi's schema. Values pass through as the document service gives them. */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literal(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((value) => literal(value, variables));
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literal(field.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[node.name.value];
  }
}

export const JSONScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'The `JSON` scalar type represents JSON values as specified by ECMA-404.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literal,
});

/** Dates as ISO text; a `timestamp` (REST answers its milliseconds as digits) too. */
function serializeDate(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return new Date(Number(value)).toISOString();
  return value;
}

function stringScalar(name: string, description: string, pattern?: RegExp): GraphQLScalarType {
  const check = (value: unknown): unknown => {
    if (typeof value !== 'string' || (pattern && !pattern.test(value)))
      throw new GraphQLError(`${name} cannot represent ${JSON.stringify(value)}`);
    return value;
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: serializeDate,
    parseValue: check,
    parseLiteral: (node) => check(node.kind === Kind.STRING ? node.value : undefined),
  });
}

export const DateTimeScalar = stringScalar(
  'DateTime',
  'A date-time string at UTC, such as 2007-12-03T10:15:30Z.',
  /^\d{4}-\d{2}-\d{2}T/,
);
export const DateScalar = stringScalar('Date', 'A date string, such as 2007-12-03.', /^\d{4}-\d{2}-\d{2}$/);
export const TimeScalar = stringScalar(
  'Time',
  'A time string with format HH:mm:ss.SSS',
  /^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/,
);
export const LocaleScalar = stringScalar('I18NLocaleCode', 'A string used to identify an i18n locale');

/** 64-bit integers: strings in JSON (spec: biginteger is a string), digits accepted in input. */
export const LongScalar = new GraphQLScalarType({
  name: 'Long',
  description: 'The `BigInt` scalar type represents non-fractional signed whole numeric values.',
  serialize: (value) => (typeof value === 'bigint' ? value.toString() : value),
  parseValue: (value) => {
    // A JSON number beyond 2^53 was rounded by the JSON parser: refused rather than stored wrong.
    if (
      (typeof value === 'string' && /^-?\d+$/.test(value)) ||
      (typeof value === 'number' && Number.isSafeInteger(value))
    )
      return String(value);
    throw new GraphQLError(`Long cannot represent ${JSON.stringify(value)}`);
  },
  parseLiteral: (node) => {
    if (node.kind === Kind.INT || (node.kind === Kind.STRING && /^-?\d+$/.test(node.value))) return node.value;
    throw new GraphQLError('Long must be an integer');
  },
});
