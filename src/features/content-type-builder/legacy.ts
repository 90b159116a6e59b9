/**
 * Strapi's older per-model routes of the builder, which Strapi 5.54 still serves and scripts
 * written for Strapi 4 call: `POST|PUT|DELETE /content-types[/:uid]`, `/components[/:uid]`,
 * `PUT|DELETE /component-categories/:name`. Each is turned into the batch `update-schema` takes
 * (a model's whole attribute object becomes creates, updates and deletes), so one builder, one
 * validation and one write path serve both. Answers are Strapi's (`201 {data: {uid}}`, ...); a
 * refused body is `400 {error: {name: 'ValidationError', message, details}}` with the batch
 * validation's message (Strapi's older routes word theirs through yup: the rules are the same).
 */
import type { Attributes, Json, ProjectModels } from './models.js';
import { nameToSlug } from './strings.js';
import type { AttributeChange, SchemaChange } from './validation.js';

type Body = Record<string, unknown>;

const object = (value: unknown): Body =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};

const componentUid = (component: Body) =>
  `${nameToSlug(String(component.category ?? ''))}.${nameToSlug(String(component.displayName ?? ''))}`;

/** A model's whole new attribute object as the batch's changes against what it had. */
function attributeChanges(next: Attributes, previous: Attributes | undefined): AttributeChange[] {
  const changes: AttributeChange[] = Object.entries(next).map(([name, properties]) => ({
    action: previous && name in previous ? 'update' : 'create',
    name,
    properties: properties,
  }));
  for (const name of Object.keys(previous ?? {}))
    if (!(name in next) && previous![name]!.configurable !== false) changes.push({ action: 'delete', name });
  return changes;
}

/** Temporary uids of components created in the same request (`tmpUID`), and `__contentType__`, replaced. */
function replaceTemporary(attributes: Attributes, uids: Record<string, string>, typeUid?: string): Attributes {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, attribute]) => {
      const copy: Json = { ...attribute };
      if (copy.type === 'component' && typeof copy.component === 'string' && uids[copy.component])
        copy.component = uids[copy.component];
      if (copy.type === 'dynamiczone' && Array.isArray(copy.components))
        copy.components = copy.components.map((uid: unknown) => uids[String(uid)] ?? uid);
      if (typeUid && copy.target === '__contentType__') copy.target = typeUid;
      return [name, copy];
    }),
  );
}

/** Nested components of a request (`components: [{uid | tmpUID, ...}]`) as batch changes. */
function nestedComponents(
  list: unknown,
  models: ProjectModels,
  uids: Record<string, string>,
  typeUid?: string,
): Body[] {
  return (Array.isArray(list) ? list : []).map((raw) => {
    const component = object(raw);
    const existing = typeof component.uid === 'string' ? models.components.get(component.uid) : undefined;
    const uid = existing ? existing.uid : componentUid(component);
    const { tmpUID: _tmp, ...rest } = component;
    return {
      ...rest,
      action: existing ? 'update' : 'create',
      uid,
      attributes: attributeChanges(
        replaceTemporary(object(component.attributes) as Attributes, uids, typeUid),
        existing?.schema.attributes,
      ),
    };
  });
}

const temporaryUids = (list: unknown): Record<string, string> =>
  Object.fromEntries(
    (Array.isArray(list) ? list : [])
      .map(object)
      .filter((component) => typeof component.tmpUID === 'string')
      .map((component) => [component.tmpUID as string, componentUid(component)]),
  );

/** `POST /content-types` (no uid) or `PUT /content-types/:uid`: `{contentType, components}`. */
export function contentTypeBatch(body: unknown, models: ProjectModels, uid?: string): { data: Body } {
  const input = object(body);
  const type = object(input.contentType);
  const uids = temporaryUids(input.components);
  const existing = uid ? models.contentTypes.get(uid) : undefined;
  const typeUid = uid ?? `api::${String(type.singularName)}.${String(type.singularName)}`;
  const attributes = replaceTemporary(object(type.attributes) as Attributes, uids);
  const { attributes: _attributes, ...rest } = type;
  return {
    data: {
      contentTypes: [
        {
          kind: existing ? (existing.schema.kind ?? 'collectionType') : 'collectionType',
          draftAndPublish: false,
          ...rest,
          action: existing ? 'update' : 'create',
          uid: typeUid,
          attributes: attributeChanges(attributes, existing?.schema.attributes),
        },
      ],
      components: nestedComponents(input.components, models, uids, typeUid),
    },
  };
}

/** `POST /components` (no uid) or `PUT /components/:uid`: `{component, components}`. */
export function componentBatch(body: unknown, models: ProjectModels, uid?: string): { data: Body } {
  const input = object(body);
  const uids = temporaryUids(input.components);
  const component = object(input.component);
  const existing = uid ? models.components.get(uid) : undefined;
  const { attributes: _attributes, ...rest } = component;
  return {
    data: {
      components: [
        {
          ...rest,
          action: existing ? 'update' : 'create',
          uid: existing ? existing.uid : componentUid(component),
          attributes: attributeChanges(
            replaceTemporary(object(component.attributes) as Attributes, uids),
            existing?.schema.attributes,
          ),
        },
        ...nestedComponents(input.components, models, uids),
      ],
      contentTypes: [],
    },
  };
}

export const deleteBatch = (kind: 'contentTypes' | 'components', uid: string): SchemaChange => ({
  contentTypes: kind === 'contentTypes' ? [{ action: 'delete', uid, attributes: [] }] : [],
  components: kind === 'components' ? [{ action: 'delete', uid, attributes: [] }] : [],
});
