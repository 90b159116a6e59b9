/**
 * The draft as one `POST /content-type-builder/update-schema` batch, built as Strapi 5.54's
 * builder screens build it (`stateToRequestData`, and the i18n plugin's
 * `mutateCTBContentTypeSchema`): each new, changed or removed model; a changed one with its whole
 * attribute list in order (new ones `create`, removed ones `delete`, the rest `update`), each
 * attribute's properties without empty values. Strapi's screens also send keys the API ignores
 * (status, modelName, globalId...); they are left out here.
 */
import type {
  AttributeChange,
  ComponentChange,
  ContentTypeChange,
  UpdateSchemaBody,
} from '../../../src/features/content-type-builder/contract.ts';
import type { Draft, DraftAttribute, DraftComponent, DraftContentType, Status } from './draft.ts';

/** The attribute types the i18n plugin offers to localize. */
export const LOCALIZABLE_TYPES = new Set([
  'biginteger',
  'boolean',
  'component',
  'date',
  'datetime',
  'decimal',
  'dynamiczone',
  'email',
  'enumeration',
  'float',
  'integer',
  'json',
  'media',
  'password',
  'richtext',
  'blocks',
  'string',
  'text',
  'time',
]);

const SENT: readonly Status[] = ['NEW', 'CHANGED', 'REMOVED'];

/** Strapi's `removeNullKeys`: no null, undefined, empty list or empty object at the top. */
function withoutEmpty(properties: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(properties).filter(([, value]) => {
      if (Array.isArray(value)) return value.length > 0;
      if (typeof value === 'object' && value !== null) return Object.keys(value).length > 0;
      return value !== null && value !== undefined;
    }),
  );
}

function attributeChange(attribute: DraftAttribute): AttributeChange {
  if (attribute.status === 'REMOVED') return { action: 'delete', name: attribute.name };
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { status, name, ...properties } = attribute;
  return { action: attribute.status === 'NEW' ? 'create' : 'update', name, properties: withoutEmpty(properties) };
}

const isLocalized = (pluginOptions: Record<string, unknown> | undefined): boolean | undefined => {
  const i18n = pluginOptions?.i18n as { localized?: unknown } | undefined;
  return i18n && 'localized' in i18n ? i18n.localized === true : undefined;
};

/**
 * The i18n plugin's change of a saved type whose localization changed: made localized, every
 * attribute it may localize becomes localized; made not localized, i18n leaves the type and its attributes.
 */
function localization(type: DraftContentType, initial: Draft['initial']): DraftContentType {
  const previous = initial.contentTypes[type.uid];
  const next = isLocalized(type.pluginOptions);
  if (!previous || next === undefined) return type;
  if (next && isLocalized(previous.pluginOptions)) return type;
  if (next)
    return {
      ...type,
      attributes: type.attributes.map((attribute) =>
        LOCALIZABLE_TYPES.has(attribute.type)
          ? {
              ...attribute,
              pluginOptions: { ...(attribute.pluginOptions as object | undefined), i18n: { localized: true } },
            }
          : attribute,
      ),
    };
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { i18n, ...pluginOptions } = type.pluginOptions ?? {};
  return {
    ...type,
    pluginOptions,
    attributes: type.attributes.map((attribute) => {
      if (!attribute.pluginOptions) return attribute;
      // eslint-disable-next-line @typescript-eslint/no-unused-vars
      const { i18n, ...rest } = attribute.pluginOptions as Record<string, unknown>;
      return { ...attribute, pluginOptions: rest };
    }),
  };
}

function contentTypeChange(type: DraftContentType): ContentTypeChange {
  if (type.status === 'REMOVED') return { action: 'delete', uid: type.uid };
  const isNew = type.status === 'NEW';
  return {
    action: isNew ? 'create' : 'update',
    uid: type.uid,
    kind: type.kind,
    displayName: type.info.displayName,
    ...(isNew ? { singularName: type.info.singularName, pluralName: type.info.pluralName } : {}),
    ...(type.info.description !== undefined ? { description: type.info.description } : {}),
    draftAndPublish: type.options.draftAndPublish === true,
    ...(type.pluginOptions && Object.keys(type.pluginOptions).length > 0 ? { pluginOptions: type.pluginOptions } : {}),
    attributes: type.attributes.map(attributeChange),
  };
}

function componentChange(component: DraftComponent): ComponentChange {
  if (component.status === 'REMOVED') return { action: 'delete', uid: component.uid };
  const { displayName, icon, description } = component.info;
  return {
    action: component.status === 'NEW' ? 'create' : 'update',
    uid: component.uid,
    category: component.category,
    displayName,
    ...(icon ? { icon } : {}),
    ...(description !== undefined ? { description } : {}),
    attributes: component.attributes.map(attributeChange),
  };
}

export function toBatch(draft: Draft): UpdateSchemaBody {
  return {
    data: {
      components: Object.values(draft.components)
        .filter((component) => SENT.includes(component.status))
        .map(componentChange),
      contentTypes: Object.values(draft.contentTypes)
        .filter((type) => SENT.includes(type.status))
        .map((type) => contentTypeChange(localization(type, draft.initial))),
    },
  };
}
