/**
 * One model's schema file while a batch is built (Strapi's `schema-handler`): its state starts as
 * the file on disk, changes in memory, and is written (or removed) once the whole batch holds.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Attributes, Json, RawSchema } from './models.js';

const clone = <T>(value: T): T => (value === undefined ? value : structuredClone(value));

/** lodash's `_.set`: creates the objects on the way. */
function setPath(target: Json, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Json;
  }
  node[path[path.length - 1]!] = value;
}
function getPath(target: Json, path: string[]): unknown {
  let node: unknown = target;
  for (const key of path) node = node && typeof node === 'object' ? (node as Json)[key] : undefined;
  return node;
}

export const isConfigurable = (attribute: Json | undefined): boolean => attribute?.configurable !== false;

/** Removes a file and, when it was the last, its folder. */
function removeFile(dir: string, filename: string): void {
  rmSync(join(dir, filename), { force: true });
  if (existsSync(dir) && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
}

export class SchemaFile {
  readonly initial: { uid?: string; dir: string; filename: string; schema?: RawSchema };
  uid: string;
  dir: string;
  readonly filename: string;
  readonly modelName?: string;
  readonly plugin?: string;
  readonly category?: string;
  private state: RawSchema;
  private modified = false;
  deleted = false;

  constructor(infos: {
    uid?: string;
    dir: string;
    filename: string;
    schema?: RawSchema;
    modelName?: string;
    plugin?: string;
    category?: string;
  }) {
    this.initial = { uid: infos.uid, dir: infos.dir, filename: infos.filename, schema: clone(infos.schema) };
    this.uid = infos.uid ?? '';
    this.dir = infos.dir;
    this.filename = infos.filename;
    this.modelName = infos.modelName;
    this.plugin = infos.plugin;
    this.category = infos.category;
    this.state = clone(infos.schema) ?? { info: {}, options: {}, attributes: {} };
  }

  get kind(): string {
    return this.state.kind ?? 'collectionType';
  }
  get schema(): RawSchema {
    return clone(this.state);
  }
  get attributes(): Attributes {
    return this.state.attributes;
  }
  setUID(uid: string): this {
    this.modified = true;
    this.uid = uid;
    return this;
  }
  setDir(dir: string): this {
    this.modified = true;
    this.dir = dir;
    return this;
  }
  get(path: string[]): unknown {
    return getPath(this.state as unknown as Json, path);
  }
  /** Strapi's `set`: an undefined value keeps what is there. */
  set(path: string | string[], value: unknown): this {
    this.modified = true;
    const keys = typeof path === 'string' ? [path] : path;
    const next = value === undefined || value === null ? this.get(keys) : value;
    setPath(this.state as unknown as Json, keys, clone(next));
    return this;
  }
  unset(path: string[]): this {
    this.modified = true;
    const parent = getPath(this.state as unknown as Json, path.slice(0, -1));
    if (parent && typeof parent === 'object') delete (parent as Json)[path[path.length - 1]!];
    return this;
  }
  delete(): this {
    this.deleted = true;
    return this;
  }
  getAttribute(name: string): Json | undefined {
    return this.state.attributes[name];
  }
  setAttribute(name: string, attribute: Json): this {
    return this.set(['attributes', name], attribute);
  }
  deleteAttribute(name: string): this {
    return this.unset(['attributes', name]);
  }
  /** Replaces the configurable attributes (the others, Strapi's own, stay). */
  setAttributes(attributes: Attributes): this {
    for (const [name, attribute] of Object.entries(this.state.attributes))
      if (isConfigurable(attribute)) this.deleteAttribute(name);
    for (const [name, attribute] of Object.entries(attributes)) this.setAttribute(name, attribute);
    return this;
  }
  /** Drops the attributes that target a deleted content-type. */
  removeContentType(uid: string): this {
    for (const [name, attribute] of Object.entries(this.state.attributes))
      if (attribute.target === uid) this.deleteAttribute(name);
    return this;
  }
  /** Drops a deleted component from components and zones. */
  removeComponent(uid: string): this {
    for (const [name, attribute] of Object.entries(this.state.attributes)) {
      if (attribute.type === 'component' && attribute.component === uid) this.deleteAttribute(name);
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components) && attribute.components.includes(uid))
        this.set(
          ['attributes', name, 'components'],
          attribute.components.filter((value) => value !== uid),
        );
    }
    return this;
  }
  /** Follows a component's new uid (a category renamed). */
  updateComponent(uid: string, newUid: string): this {
    for (const [name, attribute] of Object.entries(this.state.attributes)) {
      if (attribute.type === 'component' && attribute.component === uid)
        this.set(['attributes', name, 'component'], newUid);
      if (attribute.type === 'dynamiczone' && Array.isArray(attribute.components) && attribute.components.includes(uid))
        this.set(
          ['attributes', name, 'components'],
          attribute.components.map((value) => (value === uid ? newUid : value)),
        );
    }
    return this;
  }

  /** What `flush` will write: the file's keys in Strapi's order, undefined ones left out. */
  text(): string {
    const s = this.state;
    const ordered = {
      kind: s.kind,
      collectionName: s.collectionName,
      info: s.info,
      options: s.options,
      pluginOptions: s.pluginOptions,
      attributes: s.attributes,
      config: s.config,
      indexes: s.indexes,
      foreignKeys: s.foreignKeys,
    };
    return `${JSON.stringify(ordered, null, 2)}\n`;
  }

  get changed(): boolean {
    return this.deleted || this.modified;
  }

  /** Writes the file, or removes it (and its emptied folder); a move removes the old one. */
  flush(): void {
    const { dir, filename } = this.initial;
    if (this.deleted) {
      removeFile(dir, filename);
      return;
    }
    if (!this.modified) return;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, this.filename), this.text());
    if (join(dir, filename) !== join(this.dir, this.filename)) removeFile(dir, filename);
  }

  /** Puts the file back as it was before the batch. */
  rollback(): void {
    if (!this.initial.uid) {
      removeFile(this.dir, this.filename);
      return;
    }
    if (!this.changed) return;
    mkdirSync(this.initial.dir, { recursive: true });
    writeFileSync(join(this.initial.dir, this.initial.filename), `${JSON.stringify(this.initial.schema, null, 2)}\n`);
    if (join(this.initial.dir, this.initial.filename) !== join(this.dir, this.filename))
      removeFile(this.dir, this.filename);
  }
}
