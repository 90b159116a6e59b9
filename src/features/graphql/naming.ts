/**
 * Strapi's GraphQL names (Shadow CRUD): `api::article.article` is `Article`, queried as `article`
 * and `articles`; component `shared.rich-text` is `ComponentSharedRichText`.
 */
import {
  FILE_UID,
  type Component,
  type ContentType,
  type Model,
  type ScalarAttribute,
} from '../../core/schema/model.js';

const words = (text: string): string[] => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const upperFirst = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const pascalCase = (text: string): string => words(text).map(upperFirst).join('');
const camelCase = (text: string): string => {
  const pascal = pascalCase(text);
  return pascal.charAt(0).toLowerCase() + pascal.slice(1);
};

/** A plugin's content-type is named after its plugin, as Strapi names it: `plugin::users-permissions.user` is `UsersPermissionsUser`. */
const qualifiedName = (type: ContentType): string => {
  const plugin = /^plugin::([^.]+)\./.exec(type.uid)?.[1];
  return plugin === undefined ? type.singularName : `${plugin} ${type.singularName}`;
};

export function typeName(model: Model): string {
  if (model.modelType === 'component') return componentTypeName(model);
  if (model.uid === FILE_UID) return 'UploadFile';
  return pascalCase(qualifiedName(model));
}

function componentTypeName(component: Component): string {
  const name = component.uid.slice(component.uid.indexOf('.') + 1);
  return `Component${pascalCase(component.category)}${pascalCase(name)}`;
}

export const singularField = (type: ContentType): string => camelCase(qualifiedName(type));
export const pluralField = (type: ContentType): string =>
  camelCase(qualifiedName(type).replace(/[^ ]+$/, type.pluralName));

/** `ENUM_ARTICLE_KIND`, or `ENUM_COMPONENTSHAREDX_FIELD` for a component's. */
export const enumTypeName = (model: Model, attribute: ScalarAttribute): string =>
  `ENUM_${typeName(model).toUpperCase()}_${attribute.name.toUpperCase()}`;

/** A valid GraphQL enum value for a stored value (`in progress` -> `in_progress`). */
export const enumValueName = (value: string): string => {
  const name = value.replace(/[^_A-Za-z0-9]/g, '_');
  return /^[_A-Za-z]/.test(name) ? name : `_${name}`;
};

export const zoneTypeName = (model: Model, attribute: string): string =>
  `${typeName(model)}${pascalCase(attribute)}DynamicZone`;
