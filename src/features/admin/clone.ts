/**
 * Duplicating a document (Strapi 5.54's `POST /content-manager/collection-types/:uid/clone/:sourceId`
 * and `auto-clone/:sourceId`): the source's draft in a locale read whole, turned back into the data
 * of a create (relations by documentId, media by id, components without their ids), the body's
 * values over it. Its fields Strapi refuses to copy unattended (`auto-clone`): uid and unique
 * attributes, and the to-one side of a two-way relation that would be taken from the source
 * (oneToOne, oneToMany with an inverse), components and zones included.
 */
import { getModel, isHidden, type Attribute, type Model, type Schema } from '../../core/schema/model.js';

type Data = Record<string, unknown>;
/** A path (names, a zone's component display name) and why it is not copied unattended. */
export type ProhibitedField = [string[], 'unique' | 'relation'];

const CREATOR_FIELDS = new Set(['createdBy', 'updatedBy', 'localizations']);
const visible = (attribute: Attribute) =>
  !isHidden(attribute) &&
  !CREATOR_FIELDS.has(attribute.name) &&
  !(attribute.kind === 'relation' && attribute.target.startsWith('admin::'));

/** Strapi's `getProhibitedCloningFields`, in its order (the attributes' declaration order). */
export function prohibitedCloningFields(schema: Schema, model: Model, prefix: string[] = []): ProhibitedField[] {
  const found: ProhibitedField[] = [];
  for (const attribute of Object.values(model.attributes)) {
    const path = [...prefix, attribute.name];
    if (attribute.kind === 'relation') {
      if (
        visible(attribute) &&
        ['oneToOne', 'oneToMany'].includes(attribute.relation) &&
        (attribute.mappedBy != null || attribute.inversedBy != null)
      )
        found.push([path, 'relation']);
    } else if (attribute.kind === 'component') {
      found.push(...prohibitedCloningFields(schema, getModel(schema, attribute.component), path));
    } else if (attribute.kind === 'dynamiczone') {
      for (const uid of attribute.components) {
        const component = getModel(schema, uid);
        found.push(...prohibitedCloningFields(schema, component, [...path, component.displayName]));
      }
    } else if (attribute.kind === 'scalar' && (attribute.type === 'uid' || attribute.unique)) {
      found.push([path, 'unique']);
    }
  }
  return found;
}

/** What a clone reads of its source: every relation's documents, media, components all the way down. */
export function clonePopulate(schema: Schema, model: Model): Data {
  const populate: Data = {};
  for (const attribute of Object.values(model.attributes)) {
    if (!visible(attribute)) continue;
    if (attribute.kind === 'relation' && !attribute.relation.startsWith('morph')) populate[attribute.name] = true;
    else if (attribute.kind === 'media') populate[attribute.name] = true;
    else if (attribute.kind === 'component')
      populate[attribute.name] = { populate: clonePopulate(schema, getModel(schema, attribute.component)) };
    else if (attribute.kind === 'dynamiczone')
      populate[attribute.name] = {
        on: Object.fromEntries(
          attribute.components.map((uid) => [uid, { populate: clonePopulate(schema, getModel(schema, uid)) }]),
        ),
      };
  }
  return populate;
}

const refOf = (value: unknown): Data | null => {
  if (!value || typeof value !== 'object') return null;
  const { documentId, locale } = value as Data;
  return typeof documentId === 'string' ? { documentId, ...(typeof locale === 'string' ? { locale } : {}) } : null;
};
const idOf = (value: unknown) => (value && typeof value === 'object' ? ((value as Data).id ?? null) : null);

/** A version read with `clonePopulate`, as the data of a create that copies it. */
export function cloneData(schema: Schema, model: Model, source: Data): Data {
  const data: Data = {};
  for (const attribute of Object.values(model.attributes)) {
    if (!visible(attribute) || !(attribute.name in source)) continue;
    const value = source[attribute.name];
    switch (attribute.kind) {
      case 'relation':
        if (attribute.relation.startsWith('morph')) break;
        data[attribute.name] = {
          set: (Array.isArray(value) ? value : value ? [value] : []).map(refOf).filter((ref) => ref !== null),
        };
        break;
      case 'media':
        data[attribute.name] = Array.isArray(value) ? value.map(idOf).filter((id) => id !== null) : idOf(value);
        break;
      case 'component': {
        const component = getModel(schema, attribute.component);
        const copy = (item: unknown) =>
          item && typeof item === 'object' ? cloneData(schema, component, item as Data) : null;
        data[attribute.name] = Array.isArray(value) ? value.map(copy) : copy(value);
        break;
      }
      case 'dynamiczone':
        data[attribute.name] = (Array.isArray(value) ? value : []).map((item) => {
          const uid = String((item as Data).__component);
          return { __component: uid, ...cloneData(schema, getModel(schema, uid), item as Data) };
        });
        break;
      default:
        data[attribute.name] = value;
    }
  }
  return data;
}

const isOperations = (value: unknown): value is { connect?: unknown; disconnect?: unknown } =>
  !!value &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  Object.keys(value).length > 0 &&
  Object.keys(value).every((key) => key === 'connect' || key === 'disconnect');

/**
 * The body's values over the copy. A relation the body writes as `{ connect, disconnect }` (Strapi's
 * panel sends every relation so, empty when the editor left it alone) changes the source's links
 * rather than replacing them, as Strapi's clone reads it: the source's targets, those disconnected
 * left out, those connected added (first with `position: { start: true }`, else last).
 */
export function overClone(model: Model, copy: Data, overrides: Data): Data {
  const data: Data = { ...copy, ...overrides };
  for (const [name, value] of Object.entries(overrides)) {
    const attribute = model.attributes[name];
    const source = copy[name] as { set?: Data[] } | undefined;
    if (attribute?.kind !== 'relation' || !isOperations(value) || !Array.isArray(source?.set)) continue;
    const named = (item: unknown) => (typeof item === 'string' ? item : refOf(item)?.documentId);
    const list = (items: unknown) => (Array.isArray(items) ? items : []);
    const gone = new Set(list(value.disconnect).map(named));
    let set = source.set.filter((ref) => !gone.has(ref.documentId as string));
    for (const item of list(value.connect)) {
      const documentId = named(item);
      if (typeof documentId !== 'string') continue;
      const ref = refOf(item) ?? { documentId };
      const position = item && typeof item === 'object' ? (item as Data).position : undefined;
      set = set.filter((other) => other.documentId !== documentId);
      set = (position as Data | undefined)?.start === true ? [ref, ...set] : [...set, ref];
    }
    data[name] = { set: attribute.toMany ? set : set.slice(-1) };
  }
  return data;
}
