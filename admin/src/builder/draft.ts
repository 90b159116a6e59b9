/**
 * The builder's unsaved work: every content-type and component as the schema answered it, each
 * (and each attribute) marked new, changed, removed or unchanged, as Strapi 5.54's builder keeps
 * them (its data manager's reducer). Saving sends the marked ones as one batch (batch.ts). Every
 * change here is a pure function: the draft in, a new draft out.
 */
import type {
  BuilderAttribute,
  BuilderComponent,
  BuilderContentType,
  BuilderSchema,
} from '../../../src/features/content-type-builder/contract.ts';
import { componentUid, contentTypeUid, isBidirectional, oppositeRelation, relationKindOf } from './names.ts';

export type Status = 'UNCHANGED' | 'NEW' | 'CHANGED' | 'REMOVED';
export type DraftAttribute = BuilderAttribute & { status: Status };
export type DraftContentType = Omit<BuilderContentType, 'attributes'> & {
  status: Status;
  attributes: DraftAttribute[];
};
export type DraftComponent = Omit<BuilderComponent, 'attributes'> & { status: Status; attributes: DraftAttribute[] };
export type DraftModel = DraftContentType | DraftComponent;

export interface Draft {
  contentTypes: Record<string, DraftContentType>;
  components: Record<string, DraftComponent>;
  /** The schema as the server answered it (the batch compares localization with it). */
  initial: BuilderSchema;
}

/** A model of the draft: a content-type or a component, by uid. */
export interface ModelRef {
  modelType: 'contentType' | 'component';
  uid: string;
}

export interface ContentTypeSettings {
  displayName: string;
  singularName: string;
  pluralName: string;
  kind: 'collectionType' | 'singleType';
  description: string;
  draftAndPublish: boolean;
  localized: boolean;
}

export interface ComponentSettings {
  displayName: string;
  category: string;
  icon: string;
  description: string;
}

const unchanged = <T extends { attributes: BuilderAttribute[] }>(model: T) => ({
  ...model,
  status: 'UNCHANGED' as Status,
  attributes: model.attributes.map((attribute) => ({ ...attribute, status: 'UNCHANGED' as Status })),
});

export function fromSchema(schema: BuilderSchema): Draft {
  return {
    contentTypes: Object.fromEntries(Object.entries(schema.contentTypes).map(([uid, type]) => [uid, unchanged(type)])),
    components: Object.fromEntries(Object.entries(schema.components).map(([uid, c]) => [uid, unchanged(c)])),
    initial: schema,
  };
}

export const isModified = (draft: Draft): boolean =>
  [...Object.values(draft.contentTypes), ...Object.values(draft.components)].some(
    (model) => model.status !== 'UNCHANGED',
  );

export const modelOf = (draft: Draft, ref: ModelRef): DraftModel | undefined =>
  ref.modelType === 'contentType' ? draft.contentTypes[ref.uid] : draft.components[ref.uid];

/** The attributes a model shows: those not removed. */
export const liveAttributes = (model: DraftModel): DraftAttribute[] =>
  model.attributes.filter((attribute) => attribute.status !== 'REMOVED');

/** A new model keeps its status; any other becomes `status`. */
const mark = (item: { status: Status }, status: Status) => {
  if (item.status !== 'NEW' && item.status !== 'REMOVED') item.status = status;
};

/** Strapi 5.54 adds `searchable: false` to a private attribute of a searchable type. */
const SEARCHABLE_TYPES = new Set([
  'string',
  'text',
  'uid',
  'email',
  'enumeration',
  'richtext',
  'biginteger',
  'integer',
  'decimal',
  'float',
]);
const withSearchDefault = (attribute: BuilderAttribute): BuilderAttribute =>
  attribute.private === true && attribute.searchable === undefined && SEARCHABLE_TYPES.has(attribute.type)
    ? { ...attribute, searchable: false }
    : attribute;

function change(draft: Draft, edit: (next: Draft) => void): Draft {
  const next = structuredClone(draft);
  edit(next);
  return next;
}

const must = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} is not in the draft`);
  return value;
};

function removeAttributeNamed(model: DraftModel, name: string): void {
  const index = model.attributes.findIndex((attribute) => attribute.name === name);
  if (index === -1) return;
  mark(model, 'CHANGED');
  if (model.attributes[index]!.status === 'NEW') model.attributes.splice(index, 1);
  else mark(model.attributes[index]!, 'REMOVED');
}

// Models

function pluginOptionsOf(current: Record<string, unknown> | undefined, localized: boolean) {
  const options = { ...(current ?? {}) };
  // Unticked on a type that had i18n: `localized: false` (the batch then removes i18n everywhere).
  if (localized || 'i18n' in options) options.i18n = { ...(options.i18n as object | undefined), localized };
  return options;
}

export function createContentType(draft: Draft, settings: ContentTypeSettings): { draft: Draft; uid: string } {
  const uid = contentTypeUid(settings.singularName);
  const next = change(draft, (next) => {
    next.contentTypes[uid] = {
      uid,
      modelName: settings.singularName,
      kind: settings.kind,
      globalId: settings.displayName,
      options: { draftAndPublish: settings.draftAndPublish },
      pluginOptions: settings.localized ? { i18n: { localized: true } } : {},
      info: {
        displayName: settings.displayName,
        singularName: settings.singularName,
        pluralName: settings.pluralName,
        ...(settings.description ? { description: settings.description } : {}),
      },
      modelType: 'contentType',
      attributes: [],
      visible: true,
      restrictRelationsTo: null,
      status: 'NEW',
    };
  });
  return { draft: next, uid };
}

/** A type's settings; its names stay (the API does not rename a type). */
export function updateContentType(draft: Draft, uid: string, settings: ContentTypeSettings): Draft {
  return change(draft, (next) => {
    const type = must(next.contentTypes[uid], uid);
    type.info.displayName = settings.displayName;
    if (settings.description || type.info.description !== undefined) type.info.description = settings.description;
    type.kind = settings.kind;
    type.options = { ...type.options, draftAndPublish: settings.draftAndPublish };
    type.pluginOptions = pluginOptionsOf(type.pluginOptions, settings.localized);
    mark(type, 'CHANGED');
  });
}

export function createComponent(draft: Draft, settings: ComponentSettings): { draft: Draft; uid: string } {
  const uid = componentUid(settings.category, settings.displayName);
  const next = change(draft, (next) => {
    next.components[uid] = {
      uid,
      modelName: uid.split('.')[1]!,
      globalId: settings.displayName,
      modelType: 'component',
      collectionName: '',
      category: settings.category,
      info: {
        displayName: settings.displayName,
        ...(settings.icon ? { icon: settings.icon } : {}),
        ...(settings.description ? { description: settings.description } : {}),
      },
      attributes: [],
      status: 'NEW',
    };
  });
  return { draft: next, uid };
}

/** Replaces a component's uid everywhere in the draft (a new component renamed before it is saved). */
function renameComponent(draft: Draft, from: string, to: string): void {
  const component = draft.components[from]!;
  delete draft.components[from];
  draft.components[to] = { ...component, uid: to, modelName: to.split('.')[1]! };
  for (const model of [...Object.values(draft.contentTypes), ...Object.values(draft.components)])
    for (const attribute of model.attributes) {
      if (attribute.type === 'component' && attribute.component === from) attribute.component = to;
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components))
        attribute.components = attribute.components.map((uid) => (uid === from ? to : uid));
    }
}

/**
 * A component's display name, icon and description. A new one also takes its category and a uid
 * that follows them (Strapi's `updateComponentUid`); a saved one keeps its uid and category.
 */
export function updateComponent(draft: Draft, uid: string, settings: ComponentSettings): { draft: Draft; uid: string } {
  let newUid = uid;
  const next = change(draft, (next) => {
    const component = must(next.components[uid], uid);
    component.info.displayName = settings.displayName;
    if (settings.icon || component.info.icon !== undefined) component.info.icon = settings.icon || undefined;
    if (settings.description || component.info.description !== undefined)
      component.info.description = settings.description;
    mark(component, 'CHANGED');
    if (component.status !== 'NEW') return;
    component.category = settings.category;
    newUid = componentUid(settings.category, settings.displayName);
    if (newUid !== uid) renameComponent(next, uid, newUid);
  });
  return { draft: next, uid: newUid };
}

/** A type marked removed (a new one dropped), and the relations others have to it. */
export function deleteContentType(draft: Draft, uid: string): Draft {
  return change(draft, (next) => {
    const type = must(next.contentTypes[uid], uid);
    if (type.status === 'NEW') delete next.contentTypes[uid];
    else type.status = 'REMOVED';
    for (const model of [...Object.values(next.contentTypes), ...Object.values(next.components)])
      for (const attribute of [...model.attributes])
        if (attribute.type === 'relation' && attribute.target === uid && model.uid !== uid)
          removeAttributeNamed(model, attribute.name);
  });
}

/** A component marked removed (a new one dropped), taken out of the zones and attributes that use it. */
export function deleteComponent(draft: Draft, uid: string): Draft {
  return change(draft, (next) => {
    const component = must(next.components[uid], uid);
    if (component.status === 'NEW') delete next.components[uid];
    else component.status = 'REMOVED';
    for (const model of [...Object.values(next.contentTypes), ...Object.values(next.components)])
      for (const attribute of [...model.attributes]) {
        // As Strapi's screens: the zone loses it without being marked (the server removes it too).
        if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components))
          attribute.components = attribute.components.filter((other) => other !== uid);
        if (attribute.type === 'component' && attribute.component === uid) removeAttributeNamed(model, attribute.name);
      }
  });
}

// Attributes

/**
 * A field deleted in the draft and made again under its name: one entry, not a delete and a
 * create (the API refuses a batch naming an attribute twice); the API replaces it, as an update.
 */
function reuseRemovedName(model: DraftModel, name: string): void {
  const index = model.attributes.findIndex((attribute) => attribute.status === 'REMOVED' && attribute.name === name);
  if (index !== -1) model.attributes.splice(index, 1);
}

/** The other side of a two-way relation, as Strapi's screens add it to the target. */
const oppositeOf = (owner: DraftModel, attribute: BuilderAttribute): BuilderAttribute => ({
  name: String(attribute.targetAttribute),
  relation: oppositeRelation(String(attribute.relation)),
  target: owner.uid,
  targetAttribute: attribute.name,
  type: 'relation',
  ...(attribute.private !== undefined ? { private: attribute.private } : {}),
});

export function addAttribute(draft: Draft, ref: ModelRef, attribute: BuilderAttribute): Draft {
  return change(draft, (next) => {
    const model = must(modelOf(next, ref), ref.uid);
    if (
      attribute.type === 'relation' &&
      isBidirectional(relationKindOf(attribute.relation, attribute.targetAttribute)) &&
      ref.modelType === 'contentType'
    ) {
      const target = must(next.contentTypes[String(attribute.target)], String(attribute.target));
      reuseRemovedName(target, String(attribute.targetAttribute));
      target.attributes.push({ ...withSearchDefault(oppositeOf(model, attribute)), status: 'NEW' });
      mark(target, 'CHANGED');
    }
    reuseRemovedName(model, attribute.name);
    model.attributes.push({ ...withSearchDefault(attribute), status: 'NEW' });
    mark(model, 'CHANGED');
  });
}

/** An attribute replaced (renamed too); a relation's other side follows (Strapi's `editAttribute`). */
export function editAttribute(draft: Draft, ref: ModelRef, name: string, attribute: BuilderAttribute): Draft {
  return change(draft, (next) => {
    const model = must(modelOf(next, ref), ref.uid);
    const index = model.attributes.findIndex((candidate) => candidate.name === name);
    if (index === -1) throw new Error(`${name} is not an attribute of ${ref.uid}`);
    const previous = model.attributes[index]!;
    const status: Status = previous.status === 'NEW' ? 'NEW' : 'CHANGED';
    model.attributes[index] = { ...withSearchDefault(attribute), status };
    if (attribute.name !== name) reuseRemovedName(model, attribute.name);
    mark(model, 'CHANGED');
    if (previous.type !== 'relation' || attribute.type !== 'relation' || ref.modelType !== 'contentType') return;

    const previousTarget = next.contentTypes[String(previous.target)];
    const newTarget = must(next.contentTypes[String(attribute.target)], String(attribute.target));
    const previousOpposite = previous.targetAttribute ? String(previous.targetAttribute) : undefined;
    const oppositeIndex =
      previousTarget && previousOpposite
        ? previousTarget.attributes.findIndex((candidate) => candidate.name === previousOpposite)
        : -1;
    const previousOppositeAttribute = oppositeIndex === -1 ? undefined : previousTarget!.attributes[oppositeIndex];
    if (previousTarget && previousOpposite) removeAttributeNamed(previousTarget, previousOpposite);
    if (!isBidirectional(relationKindOf(attribute.relation, attribute.targetAttribute))) return;
    const opposite = {
      ...oppositeOf(model, attribute),
      ...(previousOppositeAttribute?.pluginOptions ? { pluginOptions: previousOppositeAttribute.pluginOptions } : {}),
    };
    // Put back where it was when the target is the same (a new one was dropped: inserted again), else added at the end.
    if (previousTarget === newTarget && previousOppositeAttribute) {
      if (previousOppositeAttribute.status === 'NEW')
        newTarget.attributes.splice(oppositeIndex, 0, { ...opposite, status: 'NEW' });
      else newTarget.attributes[oppositeIndex] = { ...opposite, status: 'CHANGED' };
    } else {
      reuseRemovedName(newTarget, opposite.name);
      newTarget.attributes.push({ ...opposite, status: 'NEW' });
    }
    mark(newTarget, 'CHANGED');
  });
}

/** An attribute marked removed (a new one dropped), a two-way relation's other side too, and uids that pointed at it. */
export function removeAttribute(draft: Draft, ref: ModelRef, name: string): Draft {
  return change(draft, (next) => {
    const model = must(modelOf(next, ref), ref.uid);
    const attribute = must(
      model.attributes.find((candidate) => candidate.name === name),
      name,
    );
    if (
      attribute.type === 'relation' &&
      attribute.targetAttribute &&
      isBidirectional(relationKindOf(attribute.relation, attribute.targetAttribute))
    ) {
      const target = next.contentTypes[String(attribute.target)];
      if (target) removeAttributeNamed(target, String(attribute.targetAttribute));
    }
    for (const other of model.attributes)
      if (other.type === 'uid' && other.targetField === name) delete other.targetField;
    removeAttributeNamed(model, name);
  });
}

// What a deletion takes with it (the confirmations name them)

export interface Usage {
  model: DraftModel;
  attribute: string;
  zone: boolean;
}

/** The attributes and zones that use a component. */
export function componentUsages(draft: Draft, uid: string): Usage[] {
  const usages: Usage[] = [];
  for (const model of [...Object.values(draft.contentTypes), ...Object.values(draft.components)]) {
    if (model.status === 'REMOVED') continue;
    for (const attribute of liveAttributes(model)) {
      if (attribute.type === 'component' && attribute.component === uid)
        usages.push({ model, attribute: attribute.name, zone: false });
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components) && attribute.components.includes(uid))
        usages.push({ model, attribute: attribute.name, zone: true });
    }
  }
  return usages;
}

/** The relations other models have to a type. */
export function relationsTo(draft: Draft, uid: string): Usage[] {
  const usages: Usage[] = [];
  for (const model of [...Object.values(draft.contentTypes), ...Object.values(draft.components)]) {
    if (model.status === 'REMOVED' || model.uid === uid) continue;
    for (const attribute of liveAttributes(model))
      if (attribute.type === 'relation' && attribute.target === uid)
        usages.push({ model, attribute: attribute.name, zone: false });
  }
  return usages;
}

/**
 * The components an attribute of `owner` may hold: not removed, and, for a component, neither
 * itself nor one that holds it (a component may not contain itself, however deep).
 */
export function componentsAllowedIn(draft: Draft, owner: ModelRef): DraftComponent[] {
  const live = Object.values(draft.components).filter((component) => component.status !== 'REMOVED');
  if (owner.modelType === 'contentType') return live;
  const holds = (uid: string, seen = new Set<string>()): boolean => {
    if (uid === owner.uid) return true;
    if (seen.has(uid)) return false;
    seen.add(uid);
    const component = draft.components[uid];
    return !!component?.attributes.some(
      (attribute) => attribute.type === 'component' && holds(String(attribute.component), seen),
    );
  };
  return live.filter((component) => !holds(component.uid));
}
