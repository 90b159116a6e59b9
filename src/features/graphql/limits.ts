/**
 * Spec 8's limits as validation rules, so that a refused operation never executes: the depth of
 * nested fields, and the items an operation's root fields ask for at their first level: the sum,
 * over root lists (aliases and fragments included), of their page sizes (capped at `amountLimit`;
 * a variable counts as `amountLimit`; no `pagination`, the default page size). 1,000 aliases of a
 * page of 100 are refused here. Lists below them are not guessed: a dynamic zone of eight
 * component kinds with nested lists would be estimated far above what it holds. What the operation
 * actually reads, at every level, is counted while it executes against the same `costLimit` (the
 * operation's ReadBudget, which no statement reads past), as REST counts it.
 */
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  GraphQLList,
  isCompositeType,
  isObjectType,
  Kind,
  type ASTVisitor,
  type GraphQLCompositeType,
  type GraphQLField,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';

const isIntrospection = (name: string) => name.startsWith('__');

/**
 * The root fields of each operation, aliases and fragments included (introspection aside): more
 * than `limit` is refused before anything runs. A single document costs little, but thousands of
 * aliases of one cost seconds (issue 31: 5,000 aliased `article(id)` took 5.6-7.1 s).
 */
export function rootFieldsRule(limit: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      let count = 0;
      const walk = (set: SelectionSetNode, seen: Set<string>) => {
        for (const selection of set.selections) {
          if (count > limit) return;
          if (selection.kind === Kind.FIELD) {
            if (!isIntrospection(selection.name.value)) count += 1;
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            walk(selection.selectionSet, seen);
          } else if (!seen.has(selection.name.value)) {
            const fragment = context.getFragment(selection.name.value);
            if (fragment) walk(fragment.selectionSet, new Set([...seen, selection.name.value]));
          }
        }
      };
      walk(operation.selectionSet, new Set());
      if (count > limit) {
        context.reportError(
          new GraphQLError(
            `Operation has more than ${limit} root fields (maxRootFields), aliases included; split it into several requests`,
            { nodes: [operation] },
          ),
        );
      }
    },
  });
}

/**
 * graphql-depth-limit's rule, which Strapi 5.54 runs: root fields are at depth 0, their sub-fields
 * at 1, ...; each selection past `limit` is reported, in its words (an anonymous operation is
 * `''`), and not walked further. Introspection fields are not walked.
 */
export function depthLimitRule(limit: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const message = `'${operation.name?.value ?? ''}' exceeds maximum operation depth of ${limit}`;
      const walk = (set: SelectionSetNode, depth: number, seen: Set<string>) => {
        for (const selection of set.selections) {
          if (depth > limit) {
            context.reportError(new GraphQLError(message, { nodes: [selection] }));
          } else if (selection.kind === Kind.FIELD) {
            if (selection.selectionSet && !isIntrospection(selection.name.value))
              walk(selection.selectionSet, depth + 1, seen);
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            walk(selection.selectionSet, depth, seen);
          } else if (!seen.has(selection.name.value)) {
            const fragment = context.getFragment(selection.name.value);
            if (fragment) walk(fragment.selectionSet, depth, new Set([...seen, selection.name.value]));
          }
        }
      };
      walk(operation.selectionSet, 0, new Set());
    },
  });
}

function intArg(value: ValueNode | undefined): number | undefined {
  return value?.kind === Kind.INT ? Number(value.value) : undefined;
}

/** The page size a field's `pagination` argument asks for (variables count as the maximum). */
function pageSizeOf(
  field: { arguments?: readonly { name: { value: string }; value: ValueNode }[] },
  fallback: number,
  amountLimit: number,
): number {
  const pagination = field.arguments?.find((arg) => arg.name.value === 'pagination')?.value;
  if (!pagination) return fallback;
  if (pagination.kind !== Kind.OBJECT) return amountLimit;
  const get = (name: string) => pagination.fields.find((f) => f.name.value === name)?.value;
  const size = intArg(get('pageSize')) ?? intArg(get('limit'));
  if (size === undefined) return get('pageSize') || get('limit') ? amountLimit : fallback;
  return size < 0 ? amountLimit : Math.min(size, amountLimit);
}

export function costLimitRule(options: {
  costLimit: number;
  amountLimit: number;
  defaultLimit: number;
}): ValidationRule {
  const { costLimit, amountLimit, defaultLimit } = options;
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation: OperationDefinitionNode) {
      const schema = context.getSchema();
      const root =
        operation.operation === 'mutation'
          ? schema.getMutationType()
          : operation.operation === 'subscription'
            ? schema.getSubscriptionType()
            : schema.getQueryType();
      if (!root) return;
      let cost = 0;
      // `pending`: below a root list field, its page size (undefined at the root).
      const walk = (
        set: SelectionSetNode,
        parent: GraphQLCompositeType,
        pending: number | undefined,
        seen: Set<string>,
      ) => {
        for (const selection of set.selections) {
          if (cost > costLimit) return;
          if (selection.kind === Kind.FIELD) {
            const name = selection.name.value;
            if (isIntrospection(name) || !isObjectType(parent)) continue;
            const field: GraphQLField<unknown, unknown> | undefined = parent.getFields()[name];
            if (!field) continue;
            const atRoot = pending === undefined;
            // Single documents and project fields ask for no page: they are counted while executing.
            if (atRoot && !field.args.some((arg) => arg.name === 'pagination')) continue;
            const size = atRoot ? pageSizeOf(selection, defaultLimit, amountLimit) : pending;
            if (getNullableType(field.type) instanceof GraphQLList) {
              // The root field's page (flat: the field itself; `data`, `nodes` in its envelope);
              // what lies below it is counted while executing.
              cost += size;
              continue;
            }
            const named = getNamedType(field.type);
            if (selection.selectionSet && isCompositeType(named)) walk(selection.selectionSet, named, size, seen);
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
            if (condition && isCompositeType(condition)) walk(selection.selectionSet, condition, pending, seen);
          } else if (!seen.has(selection.name.value)) {
            const fragment = context.getFragment(selection.name.value);
            const condition = fragment && schema.getType(fragment.typeCondition.name.value);
            if (fragment && condition && isCompositeType(condition))
              walk(fragment.selectionSet, condition, pending, new Set([...seen, selection.name.value]));
          }
        }
      };
      walk(operation.selectionSet, root, undefined, new Set());
      if (cost > costLimit) {
        context.reportError(
          new GraphQLError(
            `Operation is too costly: its root fields ask for more than ${costLimit} items (costLimit); ask for smaller pages or fewer aliases`,
            { nodes: [operation] },
          ),
        );
      }
    },
  });
}
