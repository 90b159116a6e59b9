/**
 * A batch of schema changes built in memory over every model's file, then written at once (Strapi's
 * `schema-builder`): content-types, components, and relations written on both sides (a relation's
 * `inversedBy`/`mappedBy` and the attribute it names on the target).
 */
import { join } from 'node:path';
import { ApplicationError } from '../../core/errors.js';
import type { Attributes, Json, ProjectModels } from './models.js';
import { isConfigurable, SchemaFile } from './schema-file.js';
import { nameToCollectionName, nameToSlug, plural } from './strings.js';

const isRelation = (attribute: Json | undefined): boolean => attribute?.type === 'relation';
const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

/** Keeps the options set by hand on a relation that the builder does not send again. */
function reuseUnsetPreviousProperties(next: Json, previous: Json): void {
  const skip = new Set([
    'configurable',
    'required',
    'private',
    'unique',
    'pluginOptions',
    'inversedBy',
    'mappedBy',
    'conditions',
  ]);
  for (const [key, value] of Object.entries(previous)) if (!skip.has(key) && next[key] === undefined) next[key] = value;
}

/** The other side of a relation, as Strapi generates it. */
function generateRelation(key: string, attribute: Json, uid: string, targetAttribute: Json = {}): Json {
  const opts: Json = {
    type: 'relation',
    target: uid,
    required: targetAttribute.required || undefined,
    private: targetAttribute.private || undefined,
    pluginOptions: targetAttribute.pluginOptions || undefined,
    ...(targetAttribute.conditions ? { conditions: targetAttribute.conditions } : {}),
  };
  switch (attribute.relation) {
    case 'oneToOne':
      opts.relation = 'oneToOne';
      if (attribute.dominant) opts.mappedBy = key;
      else opts.inversedBy = key;
      break;
    case 'oneToMany':
      opts.relation = 'manyToOne';
      opts.inversedBy = key;
      break;
    case 'manyToOne':
      opts.relation = 'oneToMany';
      opts.mappedBy = key;
      break;
    case 'manyToMany':
      opts.relation = 'manyToMany';
      if (attribute.dominant) opts.mappedBy = key;
      else opts.inversedBy = key;
      break;
  }
  const { type, relation, target, ...rest } = opts;
  return { type, relation, target, ...rest };
}

const contentTypeUid = (infos: { plugin?: unknown; singularName?: unknown }): string =>
  `${infos.plugin ? 'plugin' : 'api'}::${String(infos.plugin || infos.singularName)}.${String(infos.singularName)}`;

export class SchemaBuilder {
  readonly contentTypes = new Map<string, SchemaFile>();
  readonly components = new Map<string, SchemaFile>();

  constructor(
    private readonly projectDir: string,
    models: ProjectModels,
  ) {
    for (const type of models.contentTypes.values())
      this.contentTypes.set(type.uid, new SchemaFile({ ...type, schema: type.schema }));
    for (const component of models.components.values())
      this.components.set(component.uid, new SchemaFile({ ...component, schema: component.schema }));
  }

  private get componentsDir(): string {
    return join(this.projectDir, 'src', 'components');
  }

  /** An attribute as the admin panel sends it, as it is written (a relation's target attribute becomes `inversedBy`/`mappedBy`). */
  convertAttribute(attribute: Json): Json {
    const { configurable, private: isPrivate, conditions } = attribute;
    const base: Json = {
      private: isPrivate === true ? true : undefined,
      configurable: configurable === false ? false : undefined,
      ...(conditions !== undefined && conditions !== null ? { conditions } : {}),
    };
    if (attribute.type === 'relation') {
      const { target, relation, targetAttribute, dominant, ...rest } = attribute;
      const converted: Json = { type: 'relation', relation, target, ...rest, ...base };
      if (targetAttribute === undefined || targetAttribute === null) return converted;
      const symmetric = relation === 'oneToOne' || relation === 'manyToMany';
      if (symmetric && dominant === true) converted.inversedBy = targetAttribute;
      else if (symmetric && dominant === false) converted.mappedBy = targetAttribute;
      else if (relation === 'oneToOne' || relation === 'manyToOne' || relation === 'manyToMany')
        converted.inversedBy = targetAttribute;
      else if (relation === 'oneToMany') converted.mappedBy = targetAttribute;
      return converted;
    }
    return { ...attribute, ...base };
  }

  convertAttributes(attributes: Attributes): Attributes {
    return Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, this.convertAttribute(value)]));
  }

  // Components

  createComponentUID(infos: Json): string {
    return `${nameToSlug(String(infos.category))}.${nameToSlug(String(infos.displayName))}`;
  }

  createNewComponentUIDMap(components: Json[]): Record<string, string> {
    return Object.fromEntries(
      components.map((component) => [String(component.tmpUID), this.createComponentUID(component)]),
    );
  }

  createComponentAttributes(uid: string, attributes: Attributes): SchemaFile {
    const component = this.components.get(uid);
    if (!component) throw new ApplicationError('component.notFound');
    return component.setAttributes(this.convertAttributes(attributes));
  }

  createComponent(infos: Json): SchemaFile {
    if (infos.uid && infos.uid !== this.createComponentUID(infos)) throw new ApplicationError('component.invalidUID');
    const uid = (infos.uid as string | undefined) ?? this.createComponentUID(infos);
    if (this.components.has(uid)) throw new ApplicationError('component.alreadyExists');
    const handler = new SchemaFile({
      dir: join(this.componentsDir, nameToSlug(String(infos.category))),
      filename: `${nameToSlug(String(infos.displayName))}.json`,
    });
    const collectionName = `components_${nameToCollectionName(String(infos.category))}_${nameToCollectionName(plural(String(infos.displayName)))}`;
    for (const component of this.components.values())
      if (component.schema.collectionName === collectionName) throw new ApplicationError('component.alreadyExists');
    handler
      .setUID(uid)
      .set('collectionName', collectionName)
      .set(['info', 'displayName'], infos.displayName)
      .set(['info', 'icon'], infos.icon)
      .set(['info', 'description'], infos.description)
      .set('pluginOptions', infos.pluginOptions)
      .set('config', infos.config);
    this.components.set(uid, handler);
    this.createComponentAttributes(uid, (infos.attributes ?? {}) as Attributes);
    return handler;
  }

  editComponent(infos: Json): SchemaFile {
    const uid = String(infos.uid);
    const component = this.components.get(uid);
    if (!component) throw new ApplicationError('component.notFound');
    const [, nameUID] = uid.split('.');
    const newCategory = nameToSlug(String(infos.category));
    const newUID = `${newCategory}.${nameUID}`;
    if (newUID !== uid && this.components.has(newUID)) throw new ApplicationError('component.edit.alreadyExists');
    const oldAttributes = component.schema.attributes;
    const newAttributes = Object.fromEntries(
      Object.entries((infos.attributes ?? {}) as Attributes).filter(
        ([key]) => !(has(oldAttributes, key) && !isConfigurable(oldAttributes[key])),
      ),
    );
    component
      .setUID(newUID)
      .setDir(join(this.componentsDir, newCategory))
      .set(['info', 'displayName'], infos.displayName)
      .set(['info', 'icon'], infos.icon)
      .set(['info', 'description'], infos.description)
      .set('pluginOptions', infos.pluginOptions)
      .setAttributes(this.convertAttributes(newAttributes));
    if (newUID !== uid) {
      for (const other of this.components.values()) other.updateComponent(uid, newUID);
      for (const type of this.contentTypes.values()) type.updateComponent(uid, newUID);
    }
    return component;
  }

  deleteComponent(uid: string): SchemaFile {
    const component = this.components.get(uid);
    if (!component) throw new ApplicationError('component.notFound');
    for (const other of this.components.values()) other.removeComponent(uid);
    for (const type of this.contentTypes.values()) type.removeComponent(uid);
    return component.delete();
  }

  // Content-types

  setRelation(key: string, uid: string, attribute: Json): void {
    if (!has(attribute, 'target')) return;
    const target = this.contentTypes.get(String(attribute.target));
    if (!target) throw new ApplicationError(`Content type ${String(attribute.target)} not found`);
    if (!attribute.targetAttribute) return;
    const existing = target.getAttribute(String(attribute.targetAttribute)) ?? {};
    target.setAttribute(String(attribute.targetAttribute), generateRelation(key, attribute, uid, existing));
  }

  unsetRelation(attribute: Json): void {
    if (!attribute.target) return;
    const target = this.contentTypes.get(String(attribute.target));
    const name = (attribute.inversedBy || attribute.mappedBy) as string | undefined;
    if (!target || !name || !target.getAttribute(name)) return;
    target.deleteAttribute(name);
  }

  /** Relations of a new attribute set: the owning side (`dominant`) of symmetric ones, then the other side. */
  private relateNew(uid: string, attributes: Attributes, keys: string[]): void {
    for (const key of keys) {
      const attribute = attributes[key]!;
      if (!isRelation(attribute)) continue;
      if (attribute.relation === 'manyToMany' || attribute.relation === 'oneToOne') {
        if (attribute.target === uid && attribute.targetAttribute !== undefined) {
          // A type related to itself: the first of the two attributes owns the relation.
          const other = attributes[String(attribute.targetAttribute)];
          attribute.dominant = other?.dominant === undefined;
        } else attribute.dominant = true;
      }
      this.setRelation(key, uid, attribute);
    }
  }

  createContentTypeAttributes(uid: string, attributes: Attributes): SchemaFile {
    const type = this.contentTypes.get(uid);
    if (!type) throw new ApplicationError('contentType.notFound');
    for (const attribute of Object.values(attributes)) if (attribute.target === '__self__') attribute.target = uid;
    type.setAttributes(this.convertAttributes(attributes));
    this.relateNew(uid, attributes, Object.keys(attributes));
    return type;
  }

  createContentType(infos: Json): SchemaFile {
    const uid = (infos.uid as string | undefined) ?? contentTypeUid(infos);
    if (infos.uid && infos.uid !== contentTypeUid(infos)) throw new ApplicationError('contentType.invalidUID');
    if (this.contentTypes.has(uid)) throw new ApplicationError('contentType.alreadyExists');
    const singularName = String(infos.singularName);
    const dir = infos.plugin
      ? join(this.projectDir, 'src', 'extensions', String(infos.plugin), 'content-types', singularName)
      : join(this.projectDir, 'src', 'api', singularName, 'content-types', singularName);
    const type = new SchemaFile({ modelName: singularName, dir, filename: 'schema.json' });
    this.contentTypes.set(uid, type);
    type
      .setUID(uid)
      .set('kind', infos.kind || 'collectionType')
      .set('collectionName', infos.collectionName || nameToCollectionName(String(infos.pluralName)))
      .set('info', {
        singularName: infos.singularName,
        pluralName: infos.pluralName,
        displayName: infos.displayName,
        description: infos.description,
      })
      .set('options', { ...((infos.options as Json | undefined) ?? {}), draftAndPublish: infos.draftAndPublish })
      .set('pluginOptions', infos.pluginOptions)
      .set('config', infos.config);
    this.createContentTypeAttributes(uid, (infos.attributes ?? {}) as Attributes);
    return type;
  }

  editContentType(infos: Json): SchemaFile {
    const uid = String(infos.uid);
    const type = this.contentTypes.get(uid);
    if (!type) throw new ApplicationError('contentType.notFound');
    const oldAttributes = type.schema.attributes;
    const newAttributes = Object.fromEntries(
      Object.entries((infos.attributes ?? {}) as Attributes).filter(
        ([key]) => !(has(oldAttributes, key) && !isConfigurable(oldAttributes[key])),
      ),
    );
    const oldKeys = Object.keys(oldAttributes);
    const newKeys = Object.keys(newAttributes).filter((key) => !oldKeys.includes(key));
    const deletedKeys = oldKeys.filter((key) => !has(newAttributes, key));
    const remainingKeys = oldKeys.filter((key) => has(newAttributes, key));

    for (const key of deletedKeys) {
      const attribute = oldAttributes[key]!;
      if (isConfigurable(attribute) && isRelation(attribute) && (attribute.inversedBy ?? attribute.mappedBy) != null)
        this.unsetRelation(attribute);
    }
    for (const key of remainingKeys) {
      const oldAttribute = oldAttributes[key]!;
      const newAttribute = newAttributes[key]!;
      if (!isRelation(oldAttribute) && isRelation(newAttribute)) {
        this.setRelation(key, uid, newAttribute);
        continue;
      }
      if (isRelation(oldAttribute) && !isRelation(newAttribute)) {
        this.unsetRelation(oldAttribute);
        continue;
      }
      if (isRelation(oldAttribute) && isRelation(newAttribute)) {
        const oldTarget = oldAttribute.inversedBy || oldAttribute.mappedBy;
        if (oldAttribute.relation !== newAttribute.relation || oldTarget !== newAttribute.targetAttribute)
          this.unsetRelation(oldAttribute);
        reuseUnsetPreviousProperties(newAttribute, oldAttribute);
        const hasNewConditions = newAttribute.conditions !== undefined && newAttribute.conditions !== null;
        if (oldAttribute.conditions && !hasNewConditions) delete newAttribute.conditions;
        if (oldAttribute.inversedBy) newAttribute.dominant = true;
        else if (oldAttribute.mappedBy) newAttribute.dominant = false;
        this.setRelation(key, uid, newAttribute);
      }
    }
    this.relateNew(uid, newAttributes, newKeys);

    type
      .set('kind', infos.kind || type.schema.kind)
      .set(['info', 'displayName'], infos.displayName)
      .set(['info', 'description'], infos.description)
      .set('options', { ...((infos.options as Json | undefined) ?? {}), draftAndPublish: infos.draftAndPublish })
      .set('pluginOptions', infos.pluginOptions)
      .setAttributes(this.convertAttributes(newAttributes));
    // A relation of the type to itself whose other side the batch does not send: the other side
    // written above was replaced with the attributes the batch sends. Strapi leaves the relation
    // naming a missing attribute (its next start fails); it is written again here.
    for (const [key, attribute] of Object.entries(newAttributes))
      if (isRelation(attribute) && attribute.target === uid && attribute.targetAttribute) {
        const other = type.getAttribute(String(attribute.targetAttribute));
        if (!other) this.setRelation(key, uid, attribute);
      }
    return type;
  }

  deleteContentType(uid: string): SchemaFile {
    const type = this.contentTypes.get(uid);
    if (!type) throw new ApplicationError('contentType.notFound');
    for (const component of this.components.values()) component.removeContentType(uid);
    for (const other of this.contentTypes.values()) other.removeContentType(uid);
    return type.delete();
  }

  /** Every changed file, written; on a failure, every file as it was. */
  writeFiles(): void {
    const files = [...this.components.values(), ...this.contentTypes.values()];
    try {
      for (const file of files) file.flush();
    } catch (error) {
      for (const file of files) file.rollback();
      throw new ApplicationError(`Invalid schema edition: ${(error as Error).message}`);
    }
  }
}
