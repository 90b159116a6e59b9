/**
 * The schema as the admin panel reads it (`GET /admin/content-types`): each content-type and
 * component with its attributes in declaration order, in the words of the schema files (Strapi's
 * `type`, `required`, `enum`, `targetField`, ...), and the main field lists and relation pickers
 * show. Built-in types (users, media files) have screens of their own and are left out.
 */
import type { Attribute, Component, ContentType, Schema } from '../../core/schema/model.js';

export interface AttributeDescription {
  name: string;
  type: string;
  required: boolean;
  localized: boolean;
  unique?: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  enum?: string[];
  targetField?: string;
  relation?: string;
  target?: string;
  toMany?: boolean;
  component?: string;
  repeatable?: boolean;
  components?: string[];
  multiple?: boolean;
  allowedTypes?: string[] | null;
}

export interface ModelDescription {
  uid: string;
  displayName: string;
  attributes: AttributeDescription[];
  /** The attribute that names a document in lists and pickers: the first string (else uid, email), else none. */
  mainField: string | null;
}

export interface ContentTypeDescription extends ModelDescription {
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
  /** Strapi's name: false for a type with `pluginOptions['content-manager'].visible: false` (kept out of the navigation). */
  isDisplayed: boolean;
}

export interface ComponentDescription extends ModelDescription {
  category: string;
}

export interface SchemaDescription {
  contentTypes: ContentTypeDescription[];
  components: ComponentDescription[];
}

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

function describeAttribute(attribute: Attribute): AttributeDescription {
  const base = { name: attribute.name, required: attribute.required, localized: attribute.localized };
  switch (attribute.kind) {
    case 'scalar':
      return defined({
        ...base,
        type: attribute.type,
        unique: attribute.unique || undefined,
        default: attribute.default,
        min: attribute.min,
        max: attribute.max,
        minLength: attribute.minLength,
        maxLength: attribute.maxLength,
        regex: attribute.regex?.source,
        enum: attribute.enum,
        targetField: attribute.targetField,
      });
    case 'relation':
      return {
        ...base,
        type: 'relation',
        relation: attribute.relation,
        target: attribute.target,
        toMany: attribute.toMany,
      };
    case 'component':
      return defined({
        ...base,
        type: 'component',
        component: attribute.component,
        repeatable: attribute.repeatable,
        min: attribute.min,
        max: attribute.max,
      });
    case 'dynamiczone':
      return defined({
        ...base,
        type: 'dynamiczone',
        components: attribute.components,
        min: attribute.min,
        max: attribute.max,
      });
    case 'media':
      return { ...base, type: 'media', multiple: attribute.multiple, allowedTypes: attribute.allowedTypes };
  }
}

function describeModel(model: ContentType | Component): ModelDescription {
  const attributes = Object.values(model.attributes).filter(
    (attribute) => !(attribute.private && !(attribute.kind === 'scalar' && attribute.type === 'password')),
  );
  const scalarOf = (...types: string[]) =>
    attributes.find((attribute) => attribute.kind === 'scalar' && types.includes(attribute.type));
  const main = scalarOf('string') ?? scalarOf('uid', 'email');
  return {
    uid: model.uid,
    displayName: model.displayName,
    attributes: attributes.map(describeAttribute),
    mainField: main?.name ?? null,
  };
}

export function describeSchema(schema: Schema): SchemaDescription {
  const contentTypes = [...schema.contentTypes.values()]
    .filter((type) => !type.builtIn)
    .map((type) => ({
      ...describeModel(type),
      kind: type.kind,
      singularName: type.singularName,
      pluralName: type.pluralName,
      draftAndPublish: type.draftAndPublish,
      localized: type.localized,
      isDisplayed: type.managerVisible,
    }));
  const components = [...schema.components.values()].map((component) => ({
    ...describeModel(component),
    category: component.category,
  }));
  return { contentTypes, components };
}
