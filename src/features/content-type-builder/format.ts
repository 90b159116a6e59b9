/**
 * The builder's reads, in Strapi 5.54's shapes: `GET /schema` (every model with its attributes as a
 * list), `GET /content-types[/:uid]` and `GET /components[/:uid]` (attributes as an object, media
 * and relations with their defaults spelled out).
 */
import type { Attributes, ComponentFile, ContentTypeFile, Json, ProjectModels, RawSchema } from './models.js';
import { componentGlobalIdOf, globalIdOf, kindOf, loadedOptions } from './models.js';

/** Strapi's own types the builder lists but does not offer for editing. */
const HIDDEN_TYPES = new Set([
  'plugin::upload.file',
  'plugin::upload.folder',
  'plugin::i18n.locale',
  'plugin::users-permissions.permission',
  'plugin::users-permissions.role',
]);

const NON_VISIBLE = new Set(['id', 'documentId', 'publishedAt', 'createdAt', 'updatedAt']);

export const isContentTypeVisible = (type: ContentTypeFile): boolean => {
  const option = (type.schema.pluginOptions?.['content-type-builder'] as Json | undefined)?.visible;
  if (option !== undefined) return option === true;
  return !HIDDEN_TYPES.has(type.uid);
};

function restrictRelationsTo(type: ContentTypeFile): string[] | null {
  if (type.uid === 'admin::user') return ['oneWay', 'manyWay'];
  if (type.uid.startsWith('strapi::') || type.uid === 'plugin::upload.file' || !isContentTypeVisible(type)) return [];
  return null;
}

/** Attribute names the builder shows (Strapi's `getVisibleAttributes`). */
const visibleAttributeNames = (schema: RawSchema): string[] =>
  Object.keys(schema.attributes).filter(
    (name) => !NON_VISIBLE.has(name) && (schema.attributes[name] as Json).visible !== false,
  );
/** `/content-types` and `/components`: media and relations with their flags spelled out. */
function formatAttribute(attribute: Json): Json {
  const { configurable, required, autoPopulate, pluginOptions } = attribute;
  if (attribute.type === 'media')
    return {
      type: 'media',
      multiple: !!attribute.multiple,
      required: !!required,
      configurable: configurable === false ? false : undefined,
      private: !!attribute.private,
      allowedTypes: attribute.allowedTypes,
      pluginOptions,
    };
  if (attribute.type === 'relation')
    return {
      ...attribute,
      type: 'relation',
      target: attribute.target,
      targetAttribute: attribute.inversedBy || attribute.mappedBy || null,
      configurable: configurable === false ? false : undefined,
      required: !!required,
      private: !!attribute.private,
      pluginOptions,
      autoPopulate,
    };
  return attribute;
}

function formatAttributes(schema: RawSchema): Attributes {
  return Object.fromEntries(
    visibleAttributeNames(schema).map((name) => [name, formatAttribute(schema.attributes[name] as Json)]),
  );
}

/** `/schema`: the attribute as written, a relation with its `targetAttribute`, and its name. */
function schemaAttributes(schema: RawSchema): Json[] {
  return visibleAttributeNames(schema).map((name) => {
    const attribute = schema.attributes[name] as Json;
    const formatted =
      attribute.type === 'relation'
        ? {
            ...attribute,
            targetAttribute: attribute.inversedBy || attribute.mappedBy || null,
            ...(attribute.conditions ? { conditions: attribute.conditions } : {}),
          }
        : attribute;
    return { ...formatted, name };
  });
}

export function formatContentType(type: ContentTypeFile): Json {
  const { schema } = type;
  const info = schema.info;
  return {
    uid: type.uid,
    plugin: type.plugin,
    apiID: type.modelName,
    schema: {
      ...{ draftAndPublish: false, ...loadedOptions(schema) },
      displayName: info.displayName,
      singularName: info.singularName,
      pluralName: info.pluralName,
      description: info.description ?? '',
      pluginOptions: schema.pluginOptions,
      kind: kindOf(schema),
      collectionName: schema.collectionName,
      attributes: formatAttributes(schema),
      visible: isContentTypeVisible(type),
      restrictRelationsTo: restrictRelationsTo(type),
    },
  };
}

export function formatComponent(component: ComponentFile): Json {
  const { schema } = component;
  return {
    uid: component.uid,
    category: component.category,
    apiId: component.modelName,
    schema: {
      displayName: schema.info.displayName,
      description: schema.info.description ?? '',
      icon: schema.info.icon,
      connection: schema.connection,
      collectionName: schema.collectionName,
      pluginOptions: schema.pluginOptions,
      attributes: formatAttributes(schema),
    },
  };
}

/** `GET /content-type-builder/schema`. */
export function describeSchema(models: ProjectModels): Json {
  const contentTypes: Record<string, Json> = {};
  for (const type of models.contentTypes.values()) {
    const { schema } = type;
    contentTypes[type.uid] = {
      uid: type.uid,
      modelName: type.modelName,
      kind: kindOf(schema),
      globalId: globalIdOf(type),
      options: loadedOptions(schema),
      pluginOptions: schema.pluginOptions,
      plugin: type.plugin,
      collectionName: schema.collectionName,
      info: schema.info,
      modelType: 'contentType',
      attributes: schemaAttributes(schema),
      visible: isContentTypeVisible(type),
      restrictRelationsTo: restrictRelationsTo(type),
    };
  }
  const components: Record<string, Json> = {};
  for (const component of models.components.values()) {
    components[component.uid] = {
      uid: component.uid,
      modelName: component.modelName,
      globalId: componentGlobalIdOf(component),
      modelType: 'component',
      collectionName: component.schema.collectionName,
      category: component.category,
      info: component.schema.info,
      attributes: schemaAttributes(component.schema),
    };
  }
  return { contentTypes, components };
}
