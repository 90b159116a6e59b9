/**
 * The models as Strapi 5.54's content manager formats them (its data-mapper's
 * `toContentManagerModel` and `toDto`), for `GET /content-manager/init`, `/content-types` and
 * `/components`: each schema file's `info`, `options` (with `draftAndPublish`) and `pluginOptions`
 * as written, and its visible attributes as written (a relation with `targetModel` and
 * `relationType`, a custom field with its underlying type), between the `id` and `documentId` and
 * the timestamps and creator fields Strapi's loader adds to every content-type. Read from the files
 * of the running schema, as the builder reads them.
 */
import type { Model, Schema } from '../../core/schema/model.js';
import type { RawSchemaFile } from '../../core/schema/build.js';
import {
  STRAPI_CREATOR_FIELDS,
  STRAPI_TIMESTAMPS,
  strapiLoaderAttributes,
} from '../../core/schema/strapi-attributes.js';
import { kindOf, loadedOptions, readProjectModels, type Attributes, type Json, type RawSchema } from './models.js';

export interface ManagerModels {
  contentTypes: Json[];
  components: Json[];
}

/** Attributes Strapi's content manager never lists among a model's own (`getNonVisibleAttributes`). */
const NOT_LISTED = new Set(['id', 'documentId', 'publishedAt', 'createdAt', 'updatedAt']);
/** A relation as the content manager lists it (`formatAttribute`): its target and kind named again. */
const asRelation = (attribute: Json): Json => ({
  ...attribute,
  type: 'relation',
  targetModel: attribute.target,
  relationType: typeof attribute.relation === 'string' ? attribute.relation : '',
});

/**
 * `resolved` is the model the schema file builds (a custom field's underlying type; a content-type's
 * table and locale for the attributes the loader adds).
 */
function attributesOf(schema: RawSchema, resolved: Model | undefined): Attributes {
  const attributes: Attributes = { id: { type: 'integer' } };
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (NOT_LISTED.has(name) || attribute.visible === false) continue;
    const relation = typeof attribute.relation === 'string' ? attribute.relation : '';
    if (attribute.type === 'relation') {
      // Polymorphic relations are left out (Strapi: "ignore morph until they are handled in the front").
      if (relation.toLowerCase().includes('morph')) continue;
      attributes[name] = asRelation(attribute);
    } else if (attribute.type === 'customField') {
      // Strapi's loader gives a custom field the type of the field it is made of.
      const underlying = resolved?.attributes[name];
      attributes[name] = { ...attribute, type: underlying?.kind === 'scalar' ? underlying.type : attribute.type };
    } else attributes[name] = attribute;
  }
  if (resolved?.modelType === 'contentType') {
    const added = strapiLoaderAttributes(resolved);
    for (const name of STRAPI_TIMESTAMPS) attributes[name] = added[name]!;
    for (const name of STRAPI_CREATOR_FIELDS) attributes[name] = asRelation(added[name]!);
  }
  attributes.documentId = { type: 'string' };
  return attributes;
}

/** Whether the content manager shows a model (`pluginOptions['content-manager'].visible`, true by default). */
const isDisplayed = (schema: RawSchema): boolean =>
  ((schema.pluginOptions?.['content-manager'] as Json | undefined)?.visible ?? true) === true;

/** The users of the content API: the one built-in type the content manager shows, as Strapi's. */
const USER_UID = 'plugin::users-permissions.user';
/** Strapi's plugins hide their other types from the content manager and the builder (media files, roles). */
const HIDDEN = { 'content-manager': { visible: false }, 'content-type-builder': { visible: false } };

/** A built-in type's schema with Strapi's hiding options (Vellum's own schemas of them leave them out). */
const withStrapiOptions = (uid: string, builtIn: boolean, schema: RawSchema): RawSchema =>
  builtIn && uid !== USER_UID && !schema.pluginOptions ? { ...schema, pluginOptions: HIDDEN } : schema;

/** The keys Strapi's `toDto` picks that a model has. */
const present = (entries: [string, unknown][]): Json =>
  Object.fromEntries(entries.filter(([, value]) => value !== undefined));

export function managerModels(projectDir: string, schema: Schema, builtIns: RawSchemaFile[]): ManagerModels {
  const models = readProjectModels(projectDir, schema, builtIns);
  const contentTypes = [...models.contentTypes.values()].map((type) => {
    const resolved = schema.contentTypes.get(type.uid);
    const file = withStrapiOptions(type.uid, resolved?.builtIn === true, type.schema);
    return present([
      ['uid', type.uid],
      ['isDisplayed', isDisplayed(file)],
      ['apiID', type.modelName],
      ['kind', kindOf(file)],
      ['info', file.info],
      ['options', loadedOptions(file)],
      ['pluginOptions', file.pluginOptions],
      ['attributes', attributesOf(file, resolved)],
    ]);
  });
  const components = [...models.components.values()].map((component) =>
    present([
      ['uid', component.uid],
      ['isDisplayed', isDisplayed(component.schema)],
      ['apiID', component.modelName],
      ['category', component.category],
      ['info', component.schema.info],
      ['options', component.schema.options],
      ['pluginOptions', component.schema.pluginOptions],
      ['attributes', attributesOf(component.schema, schema.components.get(component.uid))],
    ]),
  );
  return { contentTypes, components };
}
