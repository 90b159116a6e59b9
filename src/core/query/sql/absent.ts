import type { FilterNode } from '../types.js';

/** SQL's three values: true, false, unknown (null). */
type Truth = boolean | null;

const andTruth = (values: Truth[]): Truth => (values.includes(false) ? false : values.includes(null) ? null : true);
const orTruth = (values: Truth[]): Truth => (values.includes(true) ? true : values.includes(null) ? null : false);

/**
 * What a filter on related rows says when there are no related rows. Strapi filters through a
 * relation (or a component) with a LEFT JOIN, so a document without related rows is tested once
 * against a row of NULLs: `filters[category][id][$null]=true` finds the documents without a
 * category, `filters[tags][name][$null]=true` those without tags as well as those with a nameless
 * tag. This evaluates `node` on such a row, with compileFilter's meaning of each operator.
 */
export function holdsWithoutRows(node: FilterNode): boolean {
  return truthOnNulls(node) === true;
}

function truthOnNulls(node: FilterNode): Truth {
  switch (node.kind) {
    case 'and':
      return andTruth(node.children.map(truthOnNulls));
    case 'or':
      return orTruth(node.children.map(truthOnNulls));
    case 'not':
      // compileFilter's NOT treats unknown as false before negating.
      return truthOnNulls(node.child) !== true;
    case 'relation':
    case 'component':
    case 'creator':
      // The rows below a missing row are missing too.
      return truthOnNulls(node.filter);
    case 'compare':
      switch (node.operator) {
        case '$null':
          return node.value === true;
        case '$notNull':
          return node.value !== true;
        case '$eq':
          return node.value === null ? true : null;
        case '$ne':
          return node.value === null ? false : null;
        case '$in':
          return (node.value as unknown[]).length === 0 ? false : null;
        case '$notIn':
          return (node.value as unknown[]).length === 0 ? true : null;
        default:
          return null;
      }
  }
}
