/**
 * The settings forms of a content-type and a component: their checks, as Strapi 5.54's screens
 * make them (`createContentTypeSchema`, `createComponentSchema`, `canEditContentType`), before the
 * API's own; and a line that says what an attribute is.
 */
import type { BuilderAttribute } from '../../../src/features/content-type-builder/contract.ts';
import { liveAttributes, type ComponentSettings, type ContentTypeSettings, type Draft } from './draft.ts';
import pluralize from 'pluralize';
import {
  CATEGORY_NAME,
  componentUid,
  contentTypeUid,
  ICON_NAME,
  isBidirectional,
  isReservedName,
  KEBAB_CASE,
  relationKindOf,
  sameName,
  type RelationKind,
} from './names.ts';

export type SettingsErrors = Partial<Record<string, string>>;

/** Problems of a type's settings; `editing` is the uid of the type edited (its names are then fixed). */
export function validateContentType(
  values: ContentTypeSettings,
  draft: Draft,
  reservedModels: readonly string[],
  editing?: string,
): SettingsErrors {
  const errors: SettingsErrors = {};
  if (values.displayName.trim() === '') errors.displayName = 'A display name is required';
  else if (isReservedName(values.displayName, reservedModels)) errors.displayName = 'This name is reserved';
  if (editing) {
    const type = draft.contentTypes[editing];
    if (type && type.kind !== values.kind && type.kind === 'collectionType') {
      // Strapi's `canEditContentType`: a single type may not be the many side of a two-way relation.
      const twoWay = liveAttributes(type).filter(
        (attribute) =>
          attribute.type === 'relation' &&
          isBidirectional(relationKindOf(attribute.relation, attribute.targetAttribute)),
      );
      if (twoWay.length > 0)
        errors.kind = `A single type has no two-way relations: remove ${twoWay.map((a) => a.name).join(', ')} first`;
    }
    return errors;
  }
  const others = Object.values(draft.contentTypes).filter((type) => type.status !== 'REMOVED');
  const check = (field: 'singularName' | 'pluralName', other: 'singularName' | 'pluralName') => {
    const name = values[field];
    if (name === '') errors[field] = 'A name is required';
    else if (!KEBAB_CASE.test(name)) errors[field] = 'Lower case letters, digits and dashes (kebab case)';
    else if (isReservedName(name, reservedModels)) errors[field] = 'This name is reserved';
    else if (others.some((type) => sameName(type.info[field], name) || sameName(type.info[other], name)))
      errors[field] = 'Another content-type has this name';
    else if (field === 'pluralName' && others.some((type) => sameName(type.collectionName ?? '', name)))
      errors[field] = "Another content-type's table has this name";
  };
  check('singularName', 'pluralName');
  check('pluralName', 'singularName');
  if (!errors.singularName && !errors.pluralName && sameName(values.singularName, values.pluralName))
    errors.pluralName = 'The plural name must differ from the singular one';
  if (!errors.singularName && draft.contentTypes[contentTypeUid(values.singularName)])
    errors.singularName = `${contentTypeUid(values.singularName)} already exists`;
  return errors;
}

/** Problems of a component's settings; `editing` is the uid of the component edited. */
export function validateComponent(
  values: ComponentSettings,
  draft: Draft,
  reservedModels: readonly string[],
  editing?: string,
): SettingsErrors {
  const errors: SettingsErrors = {};
  if (values.displayName.trim() === '') errors.displayName = 'A display name is required';
  else if (isReservedName(values.displayName, reservedModels)) errors.displayName = 'This name is reserved';
  if (!CATEGORY_NAME.test(values.category.trim())) errors.category = 'Letters, digits, - and _, starting with a letter';
  if (values.icon.trim() !== '' && !ICON_NAME.test(values.icon.trim())) errors.icon = 'Letters, digits and -';
  // A saved component keeps its uid whatever its name; a new one's follows it.
  const saved = editing !== undefined && draft.components[editing]?.status !== 'NEW';
  if (!errors.displayName && !errors.category && !saved) {
    const uid = componentUid(values.category, values.displayName);
    if (uid !== editing && draft.components[uid]) errors.displayName = `${uid} already exists`;
  }
  return errors;
}

const RELATION_LABELS: Record<string, string> = {
  oneWay: 'one way',
  oneToOne: 'one to one',
  oneToMany: 'one to many',
  manyToOne: 'many to one',
  manyToMany: 'many to many',
  manyWay: 'many way',
};
const TYPE_LABELS: Record<string, string> = {
  string: 'Text (short)',
  text: 'Text (long)',
  richtext: 'Rich text (Markdown)',
  blocks: 'Rich text (Blocks)',
  json: 'JSON',
  enumeration: 'Enumeration',
  password: 'Password',
  email: 'Email',
  integer: 'Number (integer)',
  biginteger: 'Number (big integer)',
  float: 'Number (float)',
  decimal: 'Number (decimal)',
  date: 'Date',
  time: 'Time',
  datetime: 'Date and time',
  boolean: 'Boolean',
  uid: 'UID',
};

/** What an attribute is, in a line: `Relation, many to one: Author (its dishes)`. */
export function describeAttribute(attribute: BuilderAttribute, displayNameOf: (uid: string) => string): string {
  switch (attribute.type) {
    case 'relation': {
      const kind = relationKindOf(attribute.relation, attribute.targetAttribute);
      const target = displayNameOf(String(attribute.target));
      const other = isBidirectional(kind) && attribute.targetAttribute ? ` (its ${attribute.targetAttribute})` : '';
      return `Relation, ${RELATION_LABELS[kind]}: ${target}${other}`;
    }
    case 'media':
      return `Media, ${attribute.multiple ? 'multiple' : 'single'}${
        Array.isArray(attribute.allowedTypes) ? `: ${attribute.allowedTypes.join(', ')}` : ''
      }`;
    case 'component':
      return `Component${attribute.repeatable ? ', repeatable' : ''}: ${displayNameOf(String(attribute.component))}`;
    case 'dynamiczone':
      return `Dynamic zone: ${((attribute.components as string[] | undefined) ?? []).map(displayNameOf).join(', ')}`;
    case 'uid':
      return attribute.targetField ? `UID, from ${attribute.targetField}` : 'UID';
    case 'enumeration':
      return `Enumeration: ${((attribute.enum as string[] | undefined) ?? []).join(', ')}`;
    default:
      return TYPE_LABELS[attribute.type] ?? attribute.type;
  }
}

/** A relation kind in words, between two types: `Many to one: Dish has one Author, Author has many Dishes`. */
export function relationSentence(kind: RelationKind, owner: string, target: string): string {
  const [owners, targets] = [pluralize(owner), pluralize(target)];
  switch (kind) {
    case 'oneWay':
      return `One way: ${owner} has one ${target}`;
    case 'oneToOne':
      return `One to one: ${owner} has one ${target}, ${target} has one ${owner}`;
    case 'oneToMany':
      return `One to many: ${owner} has many ${targets}, ${target} has one ${owner}`;
    case 'manyToOne':
      return `Many to one: ${owner} has one ${target}, ${target} has many ${owners}`;
    case 'manyToMany':
      return `Many to many: ${owner} has many ${targets}, ${target} has many ${owners}`;
    case 'manyWay':
      return `Many way: ${owner} has many ${targets}`;
  }
}
