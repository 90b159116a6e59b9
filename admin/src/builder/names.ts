/**
 * Names as Strapi 5.54's builder screens derive them (its `nameToSlug`, `createUid`,
 * `createComponentUid`, pluralize and lodash's snake case), so that a type made here gets the
 * uid, folder and API names Strapi's screens would give it; and the checks its forms make.
 */
import slugify from '@sindresorhus/slugify';
import snakeCase from 'lodash/snakeCase.js';
import pluralize from 'pluralize';

/** `Blog post` -> `blog-post`. */
export const nameToSlug = (name: string): string => slugify(name, { separator: '-' });

/** A content-type's names from its display name: `Blog post` -> `blog-post` and `blog-posts`. */
export function namesOf(displayName: string): { singularName: string; pluralName: string } {
  const singularName = nameToSlug(displayName);
  let pluralName = singularName;
  try {
    pluralName = pluralize(singularName, 2);
  } catch {
    // Strapi's screen keeps the singular when pluralize throws.
  }
  return { singularName, pluralName };
}

export const contentTypeUid = (singularName: string): string => `api::${singularName}.${singularName}`;
/** `kitchen` and `Cutting board` -> `kitchen.cutting-board`. */
export const componentUid = (category: string, displayName: string): string =>
  `${nameToSlug(category)}.${nameToSlug(displayName)}`;

export const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const ATTRIBUTE_NAME = /^[A-Za-z][_0-9A-Za-z]*$/;
export const CATEGORY_NAME = /^[A-Za-z][-_0-9A-Za-z]*$/;
export const ICON_NAME = /^[A-Za-z0-9][-A-Za-z0-9]*$/;

/** The names compare as Strapi compares them: in snake case (`blogPost` is `blog_post`). */
export const sameName = (a: string, b: string): boolean => snakeCase(a) === snakeCase(b);

/** Whether `name` is one of the reserved names (`GET /reserved-names`: snake case, `*` ends a prefix). */
export function isReservedName(name: string, reserved: readonly string[]): boolean {
  const snake = snakeCase(name);
  return reserved.some((entry) => (entry.endsWith('*') ? snake.startsWith(entry.slice(0, -1)) : snake === entry));
}

export type RelationKind = 'oneWay' | 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany' | 'manyWay';
export const RELATION_KINDS: readonly RelationKind[] = [
  'oneWay',
  'oneToOne',
  'oneToMany',
  'manyToOne',
  'manyToMany',
  'manyWay',
];

/** Strapi's `getRelationType`: a one-to-one without the other side is one way, a one-to-many many way. */
export function relationKindOf(relation: unknown, targetAttribute: unknown): RelationKind {
  const oneSided = targetAttribute === undefined || targetAttribute === null || targetAttribute === '';
  if (relation === 'oneToOne' && oneSided) return 'oneWay';
  if (relation === 'oneToMany' && oneSided) return 'manyWay';
  return (RELATION_KINDS as readonly unknown[]).includes(relation) ? (relation as RelationKind) : 'oneWay';
}

/** The `relation` a kind is written as. */
export const relationOf = (kind: RelationKind): string =>
  kind === 'oneWay' ? 'oneToOne' : kind === 'manyWay' ? 'oneToMany' : kind;
export const isBidirectional = (kind: RelationKind): boolean => kind !== 'oneWay' && kind !== 'manyWay';
/** The other side's relation: a many-to-one is a one-to-many seen from its target. */
export const oppositeRelation = (relation: string): string =>
  relation === 'manyToOne' ? 'oneToMany' : relation === 'oneToMany' ? 'manyToOne' : relation;

/** Strapi's suggestion for a relation's name: the target's name, plural when this side holds many. */
export const relationName = (targetDisplayName: string, kind: RelationKind): string =>
  pluralize(snakeCase(nameToSlug(targetDisplayName)), ['manyToMany', 'oneToMany', 'manyWay'].includes(kind) ? 2 : 1);
/** ...and for the other side's: this type's name, plural when the other side holds many. */
export const targetAttributeName = (ownDisplayName: string, kind: RelationKind): string =>
  pluralize(snakeCase(nameToSlug(ownDisplayName)), ['manyToMany', 'manyToOne'].includes(kind) ? 2 : 1);
