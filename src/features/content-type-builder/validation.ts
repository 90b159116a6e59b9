/**
 * What `POST /content-type-builder/update-schema` accepts: Strapi 5.54's own zod schema
 * (`controllers/validation/schema.js`), rule for rule, so that a batch Strapi refuses is refused
 * here with the same first message (`400 {"error": "<message>"}`).
 */
import { z } from 'zod';
import type { ProjectModels } from './models.js';
import {
  draftAndPublishBlockedMessage,
  draftAndPublishReservedNames,
  isReservedAttributeName,
  isReservedModelName,
  snakeCase,
  startsWithANumber,
} from './strings.js';

const NAME_REGEX = /^[A-Za-z][_0-9A-Za-z]*$/;
const COLLECTION_NAME_REGEX = /^[A-Za-z][-_0-9A-Za-z]*$/;
const CATEGORY_NAME_REGEX = /^[A-Za-z][-_0-9A-Za-z]*$/;
const ICON_REGEX = /^[A-Za-z0-9][-A-Za-z0-9]*$/;
const KEBAB_BASE_REGEX = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VALID_UID_TARGETS = ['string', 'text'];
const STRAPI_USER = 'admin::user';
const STRAPI_USER_RELATIONS = ['oneToOne', 'oneToMany'];

type Ctx = z.RefinementCtx;
type Loose = Record<string, unknown>;
type AttributeInput = { action?: string; name: string; properties?: Loose };

const isNil = (value: unknown): value is null | undefined => value === null || value === undefined;
const isNumber = (value: unknown): value is number => typeof value === 'number';

const uniqueAttributeName = (attributes: AttributeInput[], ctx: Ctx) => {
  const names = new Set(attributes.map((attribute) => snakeCase(attribute.name)));
  if (names.size !== attributes.length) ctx.addIssue({ code: 'custom', message: 'Attributes must have unique names' });
};

const verifyUidTargetField = (attributes: AttributeInput[], ctx: Ctx) => {
  for (const attribute of attributes) {
    const { properties, action } = attribute;
    if (!properties) continue;
    if (properties.type === 'uid' && properties.targetField) {
      const target = attributes.find((other) => other.name === properties.targetField);
      if (!target) {
        // On update the target is dropped later instead (a rename).
        if (action === 'create') ctx.addIssue({ code: 'custom', message: 'Target does not exist' });
      } else if (!VALID_UID_TARGETS.includes(String(target.properties?.type))) {
        ctx.addIssue({ code: 'custom', message: 'Invalid target type' });
      }
    }
  }
};

const verifySingularAndPluralNames = (value: Loose, ctx: Ctx) => {
  if (value.action !== 'create') return;
  if (value.singularName === value.pluralName)
    ctx.addIssue({ code: 'custom', message: 'Singular and plural names must be different', path: ['singularName'] });
};

const maxLengthGreaterThanMinLength = (value: Loose, ctx: Ctx) => {
  if (isNumber(value.maxLength) && isNumber(value.minLength) && value.maxLength < value.minLength)
    ctx.addIssue({ code: 'custom', message: 'maxLength must be greater or equal to minLength', path: ['maxLength'] });
};
const maxGreaterThanMin = (value: Loose, ctx: Ctx) => {
  if (isNumber(value.max) && isNumber(value.min) && value.max < value.min)
    ctx.addIssue({ code: 'custom', message: 'max must be greater or equal to min', path: ['max'] });
};
const checkUserTarget = (value: Loose, ctx: Ctx) => {
  if (value.type !== 'relation' || value.target === undefined || value.relation === undefined) return;
  if (
    value.target === STRAPI_USER &&
    (!STRAPI_USER_RELATIONS.includes(String(value.relation)) || value.targetAttribute !== undefined)
  )
    ctx.addIssue({
      code: 'custom',
      path: ['relation'],
      message: `Relations to ${STRAPI_USER} must be one of the following values: ${STRAPI_USER_RELATIONS.join(', ')} without targetAttribute`,
    });
};
const uidRefinement = (value: Loose, ctx: Ctx) => {
  if (!isNil(value.targetField) && !isNil(value.default))
    ctx.addIssue({
      code: 'custom',
      message: 'Cannot define a default UID if the targetField is set',
      path: ['default'],
    });
};
const enumRefinement = (value: Loose, ctx: Ctx) => {
  if (value.type === 'enumeration' && !isNil(value.default) && !isNil(value.enum)) {
    if (value.default === '' || !(value.enum as unknown[]).some((item) => item === value.default))
      ctx.addIssue({ code: 'custom', message: 'Default value must be one of the enum values', path: ['default'] });
  }
};

const conditionSchema = z.object({ visible: z.record(z.string(), z.array(z.any())) });
const conditions = z.preprocess((value) => value, conditionSchema.optional());
const basePropertiesSchema = z.object({
  type: z.enum([
    'string',
    'text',
    'richtext',
    'blocks',
    'json',
    'enumeration',
    'password',
    'email',
    'integer',
    'biginteger',
    'float',
    'decimal',
    'time',
    'datetime',
    'date',
    'timestamp',
    'boolean',
    'component',
    'uid',
    'customField',
    'media',
    'relation',
    'dynamiczone',
  ]),
  configurable: z.boolean().nullish(),
  private: z.boolean().nullish(),
  searchable: z.boolean().optional(),
  pluginOptions: z.record(z.string(), z.unknown()).optional(),
  conditions,
});
const maxLengthSchema = z.number().int().positive().optional();
const minLengthSchema = z.number().int().positive().optional();
const requiredSchema = z.boolean().optional();
const uniqueSchema = z.boolean().optional();

const baseRelationSchema = z.object({
  type: z.literal('relation'),
  relation: z.enum([
    'oneToOne',
    'oneToMany',
    'manyToOne',
    'manyToMany',
    'morphOne',
    'morphMany',
    'morphToOne',
    'morphToMany',
  ]),
  configurable: z.boolean().nullish(),
  required: requiredSchema,
  private: z.boolean().nullish(),
  pluginOptions: z.record(z.string(), z.unknown()).optional(),
  conditions,
});
const withTarget = (relation: string) =>
  baseRelationSchema.extend({
    relation: z.literal(relation),
    target: z.string(),
    targetAttribute: z.string().nullish(),
  });
const oneToOneSchema = withTarget('oneToOne');
const oneWaySchema = baseRelationSchema.extend({ relation: z.literal('oneToOne'), target: z.string() });
const oneToManySchema = withTarget('oneToMany');
const manyWaySchema = baseRelationSchema.extend({ relation: z.literal('oneToMany'), target: z.string() });
const manyToOneSchema = withTarget('manyToOne');
const manyToManySchema = withTarget('manyToMany');
const morphOneSchema = withTarget('morphOne');
const morphManySchema = withTarget('morphMany');
const morphToOneSchema = baseRelationSchema.extend({ relation: z.literal('morphToOne') });
const morphToManySchema = baseRelationSchema.extend({ relation: z.literal('morphToMany') });

type Meta = { modelType: 'contentType'; kind: 'singleType' | 'collectionType' } | { modelType: 'component' };

const relationSchemaFor = (meta: Meta) => {
  if (meta.modelType === 'component') return z.discriminatedUnion('relation', [oneWaySchema, manyWaySchema]);
  if (meta.kind === 'singleType')
    return z.discriminatedUnion('relation', [
      oneToOneSchema,
      oneToManySchema,
      morphOneSchema,
      morphManySchema,
      morphToOneSchema,
      morphToManySchema,
    ]);
  return z.discriminatedUnion('relation', [
    oneToOneSchema,
    oneToManySchema,
    manyToOneSchema,
    manyToManySchema,
    morphOneSchema,
    morphManySchema,
    morphToOneSchema,
    morphToManySchema,
  ]);
};

const validRegex = (value: string | undefined) => {
  if (value === undefined || value === '') return true;
  try {
    return !!new RegExp(value);
  } catch {
    return false;
  }
};

const richTextSchema = basePropertiesSchema.extend({
  type: z.literal('richtext'),
  required: requiredSchema,
  minLength: minLengthSchema,
  maxLength: maxLengthSchema,
  default: z.string().optional(),
});
const blocksSchema = basePropertiesSchema.extend({ type: z.literal('blocks'), required: requiredSchema });
const jsonSchema = basePropertiesSchema.extend({
  type: z.literal('json'),
  required: requiredSchema,
  default: z
    .unknown()
    .optional()
    .refine((value) => {
      if (value === undefined || typeof value === 'number' || value === null || typeof value === 'object') return true;
      try {
        JSON.parse(value as string);
        return true;
      } catch {
        return false;
      }
    }),
});
const enumerationSchema = basePropertiesSchema.extend({
  type: z.literal('enumeration'),
  required: requiredSchema,
  default: z.string().optional(),
  enumName: z
    .string()
    .optional()
    .refine((value) => value === '' || NAME_REGEX.test(value as string), 'Invalid enum name'),
  enum: z
    .array(z.string().refine((value) => value === '' || !startsWithANumber(value)))
    .min(1)
    .refine((values) => new Set(values).size === values.length),
});
const textSchema = basePropertiesSchema.extend({
  type: z.literal('text'),
  default: z.string().nullish(),
  minLength: minLengthSchema,
  maxLength: maxLengthSchema,
  required: requiredSchema,
  unique: uniqueSchema,
  regex: z.string().optional().refine(validRegex, 'Invalid regular expression pattern'),
});
const stringSchema = textSchema.extend({ type: z.literal('string') });
const passwordSchema = basePropertiesSchema.extend({
  type: z.literal('password'),
  required: requiredSchema,
  minLength: minLengthSchema,
  maxLength: maxLengthSchema,
});
const emailSchema = basePropertiesSchema.extend({
  type: z.literal('email'),
  required: requiredSchema,
  minLength: minLengthSchema,
  maxLength: maxLengthSchema,
  default: z.string().email().optional(),
  unique: uniqueSchema,
});
const integerSchema = basePropertiesSchema.extend({
  type: z.literal('integer'),
  required: requiredSchema,
  default: z.number().int().optional(),
  unique: uniqueSchema,
  min: z.number().int().optional(),
  max: z.number().int().optional(),
});
const bigIntegerSchema = basePropertiesSchema.extend({
  type: z.literal('biginteger'),
  required: requiredSchema,
  unique: uniqueSchema,
  default: z.string().regex(/^\d*$/).nullish(),
  min: z.string().regex(/^\d*$/).nullish(),
  max: z.string().regex(/^\d*$/).nullish(),
});
const numberSchema = (type: 'float' | 'decimal') =>
  basePropertiesSchema.extend({
    type: z.literal(type),
    required: requiredSchema,
    unique: uniqueSchema,
    default: z.number().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  });
const timeSchema = basePropertiesSchema.extend({
  type: z.literal('time'),
  required: requiredSchema,
  unique: uniqueSchema,
  default: z.string().optional(),
});
const dateSchema = timeSchema.extend({ type: z.literal('date') });
const dateTimeSchema = timeSchema.extend({ type: z.literal('datetime') });
const timeStampSchema = basePropertiesSchema.extend({ type: z.literal('timestamp') });
const booleanSchema = basePropertiesSchema.extend({
  type: z.literal('boolean'),
  required: requiredSchema,
  default: z.boolean().optional(),
});
const componentSchema = basePropertiesSchema.extend({
  type: z.literal('component'),
  component: z.string(),
  repeatable: z.boolean().optional(),
  required: requiredSchema,
  min: z.number().optional(),
  max: z.number().optional(),
});
const dynamicZoneSchema = basePropertiesSchema.extend({
  type: z.literal('dynamiczone'),
  components: z.array(z.string()).nonempty(),
  required: requiredSchema,
  min: z.number().optional(),
  max: z.number().optional(),
});
const mediaSchema = basePropertiesSchema.extend({
  type: z.literal('media'),
  multiple: z.boolean().optional(),
  required: requiredSchema,
  allowedTypes: z
    .array(z.enum(['images', 'videos', 'files', 'audios']))
    .nonempty()
    .optional(),
});
const uidSchema = basePropertiesSchema.extend({
  type: z.literal('uid'),
  targetField: z.string().nullish(),
  required: requiredSchema,
  default: z.string().nullish(),
  minLength: minLengthSchema,
  maxLength: maxLengthSchema,
  options: z
    .object({
      separator: z.string().optional(),
      lowercase: z.boolean().optional(),
      decamelize: z.boolean().optional(),
      customReplacements: z.array(z.array(z.string()).length(2)).optional(),
      preserveLeadingUnderscore: z.boolean().optional(),
    })
    .optional(),
  regex: z.string().optional().refine(validRegex, 'Invalid regular expression pattern'),
});
const customFieldSchema = basePropertiesSchema.extend({ type: z.literal('customField'), customField: z.string() });

const attributePropertiesSchema = (meta: Meta) => {
  const options = [
    mediaSchema,
    textSchema,
    stringSchema,
    richTextSchema,
    blocksSchema,
    jsonSchema,
    enumerationSchema,
    passwordSchema,
    emailSchema,
    integerSchema,
    bigIntegerSchema,
    numberSchema('float'),
    numberSchema('decimal'),
    timeSchema,
    dateSchema,
    dateTimeSchema,
    timeStampSchema,
    booleanSchema,
    componentSchema,
    customFieldSchema.passthrough(),
    relationSchemaFor(meta),
  ] as const;
  if (meta.modelType === 'component')
    return z
      .union(options)
      .superRefine(enumRefinement as never)
      .superRefine(checkUserTarget as never)
      .superRefine(maxGreaterThanMin as never)
      .superRefine(maxLengthGreaterThanMinLength as never);
  return z
    .union([...options, uidSchema, dynamicZoneSchema])
    .superRefine(enumRefinement as never)
    .superRefine(checkUserTarget as never)
    .superRefine(uidRefinement as never)
    .superRefine(maxGreaterThanMin as never)
    .superRefine(maxLengthGreaterThanMinLength as never);
};

const createAttributeSchema = (meta: Meta) =>
  z.object({
    action: z.literal('create'),
    name: z
      .string()
      .regex(NAME_REGEX)
      .refine((value) => !isReservedAttributeName(value), 'Attribute name is reserved'),
    properties: attributePropertiesSchema(meta),
  });
const updateAttributeSchema = (meta: Meta) =>
  z.object({ action: z.literal('update'), name: z.string(), properties: attributePropertiesSchema(meta) });
const deleteAttributeSchema = z.object({ action: z.literal('delete'), name: z.string() });

const uidSchemaOf = z.custom<string>((value) => typeof value === 'string' && value.length > 0);
const categorySchema = z.string().min(1).regex(CATEGORY_NAME_REGEX);

const baseComponentSchema = z.object({
  uid: uidSchemaOf,
  displayName: z.string().min(1),
  icon: z.string().regex(ICON_REGEX).optional(),
  description: z.string().optional(),
  category: categorySchema,
  pluginOptions: z.record(z.string(), z.unknown()).optional(),
});
const componentMeta: Meta = { modelType: 'component' };
const createComponentSchema = baseComponentSchema.extend({
  action: z.literal('create'),
  config: z.record(z.string(), z.unknown()).optional().default({}),
  attributes: z.array(createAttributeSchema(componentMeta)).superRefine(uniqueAttributeName),
});
const updateComponentSchema = baseComponentSchema.extend({
  action: z.literal('update'),
  category: categorySchema.optional(),
  attributes: z
    .array(
      z.discriminatedUnion('action', [
        createAttributeSchema(componentMeta),
        updateAttributeSchema(componentMeta),
        deleteAttributeSchema,
      ]),
    )
    .superRefine(uniqueAttributeName),
});
const deleteComponentSchema = z.object({ action: z.literal('delete'), uid: uidSchemaOf });

const baseContentTypeSchema = z.object({
  uid: uidSchemaOf,
  displayName: z.string().min(1),
  description: z.string().optional(),
  draftAndPublish: z.boolean(),
  options: z.record(z.string(), z.unknown()).optional().default({}),
  pluginOptions: z.record(z.string(), z.unknown()).optional().default({}),
  kind: z.enum(['singleType', 'collectionType']).optional(),
});
const kebabName = z
  .string()
  .min(1)
  .regex(KEBAB_BASE_REGEX, 'Must be kebab case')
  .refine((value) => !isReservedModelName(value), 'Model name is reserved');
const baseCreateContentTypeSchema = baseContentTypeSchema.extend({
  action: z.literal('create'),
  plugin: z.string().min(1).optional(),
  collectionName: z.string().regex(COLLECTION_NAME_REGEX).optional(),
  singularName: kebabName,
  pluralName: kebabName,
  config: z.record(z.string(), z.unknown()).optional(),
});
const typeMeta = (kind: 'singleType' | 'collectionType'): Meta => ({ modelType: 'contentType', kind });
const createTypeSchema = (kind: 'singleType' | 'collectionType') =>
  baseCreateContentTypeSchema.extend({
    kind: z.literal(kind),
    attributes: z
      .array(createAttributeSchema(typeMeta(kind)))
      .superRefine(uniqueAttributeName)
      .superRefine(verifyUidTargetField as never),
  });
const baseUpdateContentTypeSchema = baseContentTypeSchema.extend({ action: z.literal('update') });
const updateSingleTypeSchema = baseUpdateContentTypeSchema.extend({
  kind: z.literal('singleType').optional(),
  attributes: z
    .array(
      z.discriminatedUnion('action', [
        createAttributeSchema(typeMeta('singleType')),
        updateAttributeSchema(typeMeta('singleType')),
        deleteAttributeSchema,
      ]),
    )
    .superRefine(uniqueAttributeName)
    .superRefine(verifyUidTargetField as never),
});
const updateCollectionTypeSchema = baseUpdateContentTypeSchema.extend({
  kind: z.literal('collectionType').optional(),
  attributes: z
    .array(
      z.union([
        createAttributeSchema(typeMeta('collectionType')),
        updateAttributeSchema(typeMeta('collectionType')),
        deleteAttributeSchema,
      ]),
    )
    .superRefine(uniqueAttributeName)
    .superRefine(verifyUidTargetField as never),
});
const deleteContentTypeSchema = z.object({ action: z.literal('delete'), uid: uidSchemaOf });

/** An attribute of a batch: created, updated (its new properties) or deleted. */
export interface AttributeChange {
  action: 'create' | 'update' | 'delete';
  name: string;
  properties?: Loose;
}
export interface ContentTypeChange extends Loose {
  action: 'create' | 'update' | 'delete';
  uid: string;
  attributes: AttributeChange[];
}
export interface ComponentChange extends Loose {
  action: 'create' | 'update' | 'delete';
  uid: string;
  attributes: AttributeChange[];
}
export interface SchemaChange {
  components: ComponentChange[];
  contentTypes: ContentTypeChange[];
}

/** The batch schema, over the project's models as they are (draft-and-publish names look at existing attributes). */
function updateSchemaInput(models: ProjectModels) {
  const effectiveAttributeNames = (type: Loose): string[] => {
    const attributes = (type.attributes ?? []) as AttributeInput[];
    if (type.action === 'create')
      return attributes.filter((attribute) => attribute.action !== 'delete').map((attribute) => attribute.name);
    if (type.action !== 'update' || !type.uid) return [];
    const existing = models.contentTypes.get(String(type.uid));
    const names = new Set(existing ? Object.keys(existing.schema.attributes) : []);
    for (const attribute of attributes) {
      if (attribute.action === 'delete') names.delete(attribute.name);
      else if (attribute.action === 'create') names.add(attribute.name);
    }
    return [...names];
  };
  const verifyDraftAndPublish = (type: Loose, ctx: Ctx) => {
    if (type.action === 'delete' || !type.draftAndPublish) return;
    const reserved = draftAndPublishReservedNames(effectiveAttributeNames(type));
    if (reserved.length > 0)
      ctx.addIssue({ code: 'custom', message: draftAndPublishBlockedMessage(reserved), path: ['draftAndPublish'] });
  };
  const schemaSchema = z.object({
    components: z
      .array(z.union([createComponentSchema, updateComponentSchema, deleteComponentSchema]))
      .optional()
      .default([]),
    contentTypes: z
      .array(
        z
          .union([
            createTypeSchema('singleType'),
            createTypeSchema('collectionType'),
            updateSingleTypeSchema,
            updateCollectionTypeSchema,
            deleteContentTypeSchema,
          ])
          .superRefine(verifySingularAndPluralNames as never)
          .superRefine(verifyDraftAndPublish as never),
      )
      .optional()
      .default([]),
  });
  return z.object(
    { data: schemaSchema },
    {
      error: (issue) =>
        issue.input === undefined ? 'Schema is required' : 'Invalid schema, expected an object with a data property',
    },
  );
}

/** The batch, or the first problem's message (what Strapi answers as `{"error": message}`). */
export function parseUpdateSchema(
  body: unknown,
  models: ProjectModels,
): { ok: true; data: SchemaChange } | { ok: false; message: string; issues: { path: string[]; message: string }[] } {
  const result = updateSchemaInput(models).safeParse(body);
  if (!result.success)
    return {
      ok: false,
      message: result.error.issues[0]?.message ?? 'Validation error',
      issues: result.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })),
    };
  return { ok: true, data: result.data.data as unknown as SchemaChange };
}
