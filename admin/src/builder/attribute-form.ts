/**
 * An attribute's form: the kinds Strapi 5.54's builder offers, the options each type has (its
 * `baseForm` and `advancedForm`), the form's values from an attribute and the attribute from the
 * values, and the checks the form makes before the API's own.
 */
import type { BuilderAttribute } from '../../../src/features/content-type-builder/contract.ts';
import { LOCALIZABLE_TYPES } from './batch.ts';
import {
  ATTRIBUTE_NAME,
  CATEGORY_NAME,
  componentUid,
  ICON_NAME,
  isBidirectional,
  isReservedName,
  relationKindOf,
  RELATION_KINDS,
  relationOf,
  sameName,
  type RelationKind,
} from './names.ts';

/** The choices of the "add a field" step, in Strapi's order. */
export type AttributeKind =
  | 'text'
  | 'boolean'
  | 'blocks'
  | 'json'
  | 'number'
  | 'email'
  | 'date'
  | 'password'
  | 'media'
  | 'enumeration'
  | 'relation'
  | 'uid'
  | 'richtext'
  | 'component'
  | 'dynamiczone';

export interface KindChoice {
  kind: AttributeKind;
  label: string;
  description: string;
  /** The types the kind writes; the first for a new field. */
  types: string[];
  /** Offered to content-types only (not in components). */
  contentTypesOnly?: boolean;
}

export const KINDS: readonly KindChoice[] = [
  {
    kind: 'text',
    label: 'Text',
    description: 'Short or long text, like a title or a description',
    types: ['string', 'text'],
  },
  { kind: 'boolean', label: 'Boolean', description: 'Yes or no, true or false', types: ['boolean'] },
  { kind: 'blocks', label: 'Rich text (Blocks)', description: 'Rich text as JSON blocks', types: ['blocks'] },
  { kind: 'json', label: 'JSON', description: 'Data in JSON format', types: ['json'] },
  {
    kind: 'number',
    label: 'Number',
    description: 'Integers, big integers, decimals',
    types: ['integer', 'biginteger', 'decimal', 'float'],
  },
  { kind: 'email', label: 'Email', description: 'An email address, checked', types: ['email'] },
  { kind: 'date', label: 'Date', description: 'A date, a time, or both', types: ['date', 'datetime', 'time'] },
  { kind: 'password', label: 'Password', description: 'A password, stored hashed', types: ['password'] },
  { kind: 'media', label: 'Media', description: 'Files: images, videos, audio...', types: ['media'] },
  { kind: 'enumeration', label: 'Enumeration', description: 'One value of a list', types: ['enumeration'] },
  { kind: 'relation', label: 'Relation', description: 'Links to entries of a content-type', types: ['relation'] },
  {
    kind: 'uid',
    label: 'UID',
    description: 'A unique identifier, like a slug',
    types: ['uid'],
    contentTypesOnly: true,
  },
  { kind: 'richtext', label: 'Rich text (Markdown)', description: 'Text in Markdown', types: ['richtext'] },
  { kind: 'component', label: 'Component', description: 'A group of fields, single or repeated', types: ['component'] },
  {
    kind: 'dynamiczone',
    label: 'Dynamic zone',
    description: 'A list of components of several kinds',
    types: ['dynamiczone'],
    contentTypesOnly: true,
  },
];

export const kindOfType = (type: string): AttributeKind =>
  KINDS.find((choice) => choice.types.includes(type))?.kind ?? 'text';
export const kindChoice = (kind: AttributeKind): KindChoice => KINDS.find((choice) => choice.kind === kind)!;

export type OptionName =
  'default' | 'regex' | 'required' | 'unique' | 'private' | 'minLength' | 'maxLength' | 'min' | 'max';

/** The options of each type (Strapi's advanced form; min and max of a component when repeatable). */
const TEXT_OPTIONS: OptionName[] = ['default', 'regex', 'required', 'unique', 'maxLength', 'minLength', 'private'];
const NUMBER_OPTIONS: OptionName[] = ['default', 'required', 'unique', 'max', 'min', 'private'];
const DATE_OPTIONS: OptionName[] = ['default', 'required', 'unique', 'private'];
const OPTIONS: Record<string, OptionName[]> = {
  string: TEXT_OPTIONS,
  text: TEXT_OPTIONS,
  richtext: ['default', 'required', 'maxLength', 'minLength', 'private'],
  blocks: ['required', 'private'],
  json: ['required', 'private'],
  enumeration: ['default', 'required', 'private'],
  password: ['required', 'maxLength', 'minLength', 'private'],
  email: ['default', 'required', 'unique', 'maxLength', 'minLength', 'private'],
  integer: NUMBER_OPTIONS,
  biginteger: NUMBER_OPTIONS,
  decimal: NUMBER_OPTIONS,
  float: NUMBER_OPTIONS,
  date: DATE_OPTIONS,
  datetime: DATE_OPTIONS,
  time: DATE_OPTIONS,
  boolean: ['default', 'required', 'private'],
  uid: ['default', 'required', 'maxLength', 'minLength', 'private', 'regex'],
  media: ['required', 'private'],
  relation: ['required', 'private'],
  component: ['required', 'private'],
  dynamiczone: ['required', 'max', 'min'],
};

export function optionsOf(values: Pick<AttributeFormValues, 'type' | 'repeatable'>): OptionName[] {
  if (values.type === 'component' && values.repeatable) return ['required', 'private', 'min', 'max'];
  return OPTIONS[values.type] ?? [];
}

/**
 * The relation kinds an attribute may be (the API's rules): from a component one-sided only, from a
 * single type no many-to-one or many-to-many; a target may restrict them (`restrictRelationsTo`).
 */
export function relationKindsFor(
  context: Pick<AttributeContext, 'modelType' | 'ownerKind'>,
  restrictRelationsTo: readonly string[] | null = null,
): RelationKind[] {
  const kinds: RelationKind[] =
    context.modelType === 'component'
      ? ['oneWay', 'manyWay']
      : context.ownerKind === 'singleType'
        ? ['oneWay', 'oneToOne', 'oneToMany', 'manyWay']
        : [...RELATION_KINDS];
  return restrictRelationsTo ? kinds.filter((kind) => restrictRelationsTo.includes(kind)) : kinds;
}

export const ALLOWED_TYPES = ['images', 'videos', 'audios', 'files'] as const;

/** Where the attribute goes: what its form offers and checks depends on it. */
export interface AttributeContext {
  modelType: 'contentType' | 'component';
  ownerUid: string;
  ownerKind?: 'collectionType' | 'singleType';
  /** The edited attribute's name (none for a new one). */
  originalName?: string;
  /** The owner is a localized content-type: its attributes may each be localized. */
  localized: boolean;
  /** The owner's other attributes (the edited one left out). */
  otherAttributes: BuilderAttribute[];
  reservedAttributeNames: readonly string[];
  /** The attributes of each content-type by uid (a relation's other side must be free there). */
  attributesOf: (uid: string) => BuilderAttribute[] | undefined;
  /** Component uids already in the draft (a new component's uid must be free). */
  componentUids: readonly string[];
}

export interface NewComponentValues {
  displayName: string;
  category: string;
  icon: string;
}

/** The form's values: text inputs as strings ('' is none), so that a cleared field is no option. */
export interface AttributeFormValues {
  kind: AttributeKind;
  type: string;
  name: string;
  required: boolean;
  unique: boolean;
  private: boolean;
  localized: boolean;
  default: string;
  regex: string;
  minLength: string;
  maxLength: string;
  min: string;
  max: string;
  /** Enumeration values, one a line. */
  enum: string;
  targetField: string;
  multiple: boolean;
  allowedTypes: string[];
  relation: RelationKind;
  target: string;
  targetAttribute: string;
  /** A component attribute: an existing component, or a new one made with it. */
  componentSource: 'existing' | 'new';
  component: string;
  newComponent: NewComponentValues;
  repeatable: boolean;
  components: string[];
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** The values of a new field of a kind (Strapi's starting values: media multiple of every type, a one-way relation...). */
export function newAttributeValues(
  kind: AttributeKind,
  context: Pick<AttributeContext, 'localized'>,
): AttributeFormValues {
  return {
    kind,
    type: kindChoice(kind).types[0]!,
    name: '',
    required: false,
    unique: false,
    private: false,
    localized: context.localized,
    default: '',
    regex: '',
    minLength: '',
    maxLength: '',
    min: '',
    max: '',
    enum: '',
    targetField: '',
    multiple: true,
    // Strapi's starting list, in its order (the order ticked is kept).
    allowedTypes: ['images', 'files', 'videos', 'audios'],
    relation: 'oneWay',
    target: '',
    targetAttribute: '',
    componentSource: 'existing',
    component: '',
    newComponent: { displayName: '', category: '', icon: '' },
    repeatable: kind === 'component',
    components: [],
  };
}

export function valuesOf(
  attribute: BuilderAttribute,
  context: Pick<AttributeContext, 'localized'>,
): AttributeFormValues {
  const base = newAttributeValues(kindOfType(attribute.type), context);
  const i18n = (attribute.pluginOptions as { i18n?: { localized?: unknown } } | undefined)?.i18n;
  const defaultValue = attribute.default;
  return {
    ...base,
    type: attribute.type,
    name: attribute.name,
    required: attribute.required === true,
    unique: attribute.unique === true,
    private: attribute.private === true,
    localized: context.localized && i18n?.localized === true,
    default:
      typeof defaultValue === 'object' && defaultValue !== null ? JSON.stringify(defaultValue) : text(defaultValue),
    regex: text(attribute.regex),
    minLength: text(attribute.minLength),
    maxLength: text(attribute.maxLength),
    min: text(attribute.min),
    max: text(attribute.max),
    enum: Array.isArray(attribute.enum) ? attribute.enum.join('\n') : '',
    targetField: text(attribute.targetField),
    multiple: attribute.multiple === true,
    allowedTypes: Array.isArray(attribute.allowedTypes) ? (attribute.allowedTypes as string[]) : [],
    relation: relationKindOf(attribute.relation, attribute.targetAttribute),
    target: text(attribute.target),
    targetAttribute: text(attribute.targetAttribute),
    component: text(attribute.component),
    repeatable: attribute.repeatable === true,
    components: Array.isArray(attribute.components) ? (attribute.components as string[]) : [],
  };
}

export const enumValues = (values: Pick<AttributeFormValues, 'enum'>): string[] =>
  values.enum
    .split('\n')
    .map((value) => value.trim())
    .filter((value) => value !== '');

/** The keys this form writes: an edited attribute keeps the others (`configurable`, `conditions`, ...) as they were. */
const FORM_KEYS = new Set([
  'type',
  'name',
  'required',
  'unique',
  'private',
  'default',
  'regex',
  'minLength',
  'maxLength',
  'min',
  'max',
  'enum',
  'targetField',
  'multiple',
  'allowedTypes',
  'relation',
  'target',
  'targetAttribute',
  'inversedBy',
  'mappedBy',
  'component',
  'repeatable',
  'components',
]);

function defaultValue(values: AttributeFormValues): unknown {
  const raw = values.default.trim();
  if (raw === '') return undefined;
  switch (values.type) {
    case 'integer':
    case 'float':
    case 'decimal':
      return Number(raw);
    case 'boolean':
      return raw === 'true';
    case 'datetime':
      // A datetime input's local time, as the instant it is.
      return Number.isNaN(Date.parse(raw)) ? raw : new Date(raw).toISOString();
    default:
      return values.default;
  }
}

const numberOrUndefined = (value: string, asString = false): number | string | undefined => {
  if (value.trim() === '') return undefined;
  return asString ? value.trim() : Number(value);
};

/**
 * The attribute the values make, its keys in Strapi's order (type, then the type's own, then its
 * options); `original` is the attribute edited, whose keys the form does not write are kept.
 */
export function attributeOf(
  values: AttributeFormValues,
  context: Pick<AttributeContext, 'localized' | 'modelType'>,
  original?: BuilderAttribute,
): BuilderAttribute {
  const kept = Object.fromEntries(Object.entries(original ?? {}).filter(([key]) => !FORM_KEYS.has(key)));
  const own: Record<string, unknown> = {};
  switch (values.type) {
    case 'enumeration':
      own.enum = enumValues(values);
      break;
    case 'uid':
      if (values.targetField) own.targetField = values.targetField;
      break;
    case 'media':
      own.multiple = values.multiple;
      if (values.allowedTypes.length > 0) own.allowedTypes = [...new Set(values.allowedTypes)];
      break;
    case 'relation':
      own.relation = relationOf(values.relation);
      own.target = values.target;
      if (isBidirectional(values.relation)) own.targetAttribute = values.targetAttribute.trim();
      break;
    case 'component':
      own.component =
        values.componentSource === 'new'
          ? componentUid(values.newComponent.category, values.newComponent.displayName)
          : values.component;
      own.repeatable = values.repeatable;
      break;
    case 'dynamiczone':
      own.components = values.components;
      break;
  }
  const options: Record<string, unknown> = {};
  const biginteger = values.type === 'biginteger';
  for (const option of optionsOf(values)) {
    if (option === 'required' || option === 'unique' || option === 'private') {
      // A flag is written when on, or when the edited attribute had it (`required: false` stays).
      if (values[option] || (original && option in original)) options[option] = values[option];
    } else if (option === 'default') {
      // A uid attached to a field has no default (the API refuses both).
      if (!(values.type === 'uid' && values.targetField)) options.default = defaultValue(values);
    } else if (option === 'regex') {
      if (values.regex !== '') options.regex = values.regex;
    } else {
      options[option] = numberOrUndefined(values[option], biginteger && (option === 'min' || option === 'max'));
    }
  }
  const pluginOptions = { ...(original?.pluginOptions as Record<string, unknown> | undefined) };
  if (context.localized && context.modelType === 'contentType' && values.type !== 'relation') {
    // The i18n plugin starts a new field of a localized type localized (a uid too, though it has
    // no checkbox); the checkbox then says, and on an edit it is written once on or once set.
    const checkbox = LOCALIZABLE_TYPES.has(values.type);
    if (!original) pluginOptions.i18n = { localized: checkbox ? values.localized : true };
    else if (checkbox && (values.localized || 'i18n' in pluginOptions))
      pluginOptions.i18n = { localized: values.localized };
  }
  const attribute: BuilderAttribute = { name: values.name.trim(), type: values.type, ...own, ...kept };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) attribute[key] = value;
  if (Object.keys(pluginOptions).length > 0) attribute.pluginOptions = pluginOptions;
  return attribute;
}

export type AttributeFormErrors = Partial<Record<string, string>>;

const nameProblem = (
  name: string,
  taken: BuilderAttribute[],
  reserved: readonly string[],
  what = 'This name',
): string | undefined => {
  if (name === '') return 'A name is required';
  if (!ATTRIBUTE_NAME.test(name)) return 'Letters, digits and underscores, starting with a letter';
  if (isReservedName(name, reserved)) return `${name} is a reserved name`;
  if (taken.some((attribute) => sameName(attribute.name, name))) return `${what} is already used`;
  return undefined;
};

const isInteger = (value: string) => /^-?\d+$/.test(value.trim());
const isNumber = (value: string) => value.trim() !== '' && Number.isFinite(Number(value));

/** The problems the form sees, by field path (`newComponent.category`); none: an empty object. */
export function validateAttribute(values: AttributeFormValues, context: AttributeContext): AttributeFormErrors {
  const errors: AttributeFormErrors = {};
  const name = values.name.trim();
  const nameError = nameProblem(name, context.otherAttributes, context.reservedAttributeNames);
  if (nameError) errors.name = nameError;

  const options = optionsOf(values);
  for (const option of ['minLength', 'maxLength'] as const)
    if (options.includes(option) && values[option].trim() !== '' && !/^[1-9]\d*$/.test(values[option].trim()))
      errors[option] = 'A whole number above 0';
  for (const option of ['min', 'max'] as const) {
    const value = values[option];
    if (!options.includes(option) || value.trim() === '') continue;
    if (values.type === 'biginteger' ? !/^\d+$/.test(value.trim()) : !isNumber(value)) errors[option] = 'A number';
    else if (['integer', 'component', 'dynamiczone'].includes(values.type) && !isInteger(value))
      errors[option] = 'A whole number';
  }
  if (!errors.min && !errors.max && values.min.trim() !== '' && values.max.trim() !== '') {
    const [min, max] =
      values.type === 'biginteger' ? [BigInt(values.min), BigInt(values.max)] : [+values.min, +values.max];
    if (options.includes('max') && max < min) errors.max = 'At least the minimum';
  }
  if (!errors.minLength && !errors.maxLength && values.minLength.trim() !== '' && values.maxLength.trim() !== '')
    if (options.includes('maxLength') && Number(values.maxLength) < Number(values.minLength))
      errors.maxLength = 'At least the minimum length';
  if (options.includes('regex') && values.regex !== '') {
    try {
      new RegExp(values.regex);
    } catch {
      errors.regex = 'Not a valid regular expression';
    }
  }
  if (options.includes('default') && values.default.trim() !== '') {
    const value = values.default.trim();
    if (values.type === 'integer' && !isInteger(value)) errors.default = 'A whole number';
    if ((values.type === 'float' || values.type === 'decimal') && !isNumber(value)) errors.default = 'A number';
    if (values.type === 'biginteger' && !/^\d+$/.test(value)) errors.default = 'Digits only';
    if (values.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) errors.default = 'An email address';
    if (values.type === 'enumeration' && !enumValues(values).includes(value)) errors.default = 'One of the values';
  }

  switch (values.type) {
    case 'enumeration': {
      const list = enumValues(values);
      if (list.length === 0) errors.enum = 'At least one value';
      else if (new Set(list).size !== list.length) errors.enum = 'Each value once';
      break;
    }
    case 'relation': {
      if (!values.target) errors.target = 'Pick the content-type to link to';
      else if (isBidirectional(values.relation)) {
        const self = values.target === context.ownerUid;
        // Free on the target, but for this relation's own other side (which moves with it).
        const taken = (self ? context.otherAttributes : (context.attributesOf(values.target) ?? [])).filter(
          (attribute) =>
            !(
              attribute.type === 'relation' &&
              attribute.target === context.ownerUid &&
              context.originalName !== undefined &&
              attribute.targetAttribute === context.originalName
            ),
        );
        const problem = nameProblem(
          values.targetAttribute.trim(),
          self ? [...taken, { name, type: 'relation' }] : taken,
          context.reservedAttributeNames,
          'This name on the other side',
        );
        if (problem) errors.targetAttribute = problem;
      }
      break;
    }
    case 'component':
      if (values.componentSource === 'existing') {
        if (!values.component) errors.component = 'Pick a component';
      } else {
        const { displayName, category, icon } = values.newComponent;
        if (displayName.trim() === '') errors['newComponent.displayName'] = 'A display name is required';
        if (!CATEGORY_NAME.test(category.trim()))
          errors['newComponent.category'] = 'Letters, digits, - and _, starting with a letter';
        if (icon.trim() !== '' && !ICON_NAME.test(icon.trim())) errors['newComponent.icon'] = 'Letters, digits and -';
        if (
          displayName.trim() &&
          !errors['newComponent.category'] &&
          context.componentUids.includes(componentUid(category, displayName))
        )
          errors['newComponent.displayName'] = `${componentUid(category, displayName)} already exists`;
      }
      break;
    case 'dynamiczone':
      if (values.components.length === 0) errors.components = 'Pick at least one component';
      break;
  }
  return errors;
}
