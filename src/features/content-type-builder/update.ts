/**
 * `POST /update-schema`: a batch of content-type and component changes, applied as Strapi 5.54's
 * `updateSchema` applies it (types and components created empty first, so that they may refer to
 * each other, then their attributes, relations on both sides, deletions with their references),
 * with one difference: nothing is written until the whole batch is built and the schema it leaves
 * loads. A batch Strapi would write in part (a later type failing) or that would stop Strapi's
 * next start (a component that does not exist) changes nothing here.
 */
import { join, relative } from 'node:path';
import { ApplicationError, ProjectError } from '../../core/errors.js';
import { buildSchema, type RawSchemaFile } from '../../core/schema/build.js';
import type { Schema } from '../../core/schema/model.js';
import { apiFiles, clearApi, writeFiles } from './api-files.js';
import { SchemaBuilder } from './builder.js';
import type { Attributes, Json, ProjectModels } from './models.js';
import { nameToSlug } from './strings.js';
import type { AttributeChange, SchemaChange } from './validation.js';

/**
 * Every two-sided relation of a changed file names an attribute of its target that names it back.
 * A batch can contradict itself (the two sides of a relation of a type to itself sent with
 * different names); Strapi writes the result and its next start fails on it.
 */
function checkTwoSided(builder: SchemaBuilder): void {
  for (const file of builder.contentTypes.values()) {
    if (file.deleted || !file.changed) continue;
    for (const [name, attribute] of Object.entries(file.attributes)) {
      if (attribute.type !== 'relation') continue;
      const other = (attribute.inversedBy ?? attribute.mappedBy) as string | undefined;
      if (!other) continue;
      const target = builder.contentTypes.get(String(attribute.target));
      const counterpart = target && !target.deleted ? target.getAttribute(other) : undefined;
      const back = attribute.inversedBy ? counterpart?.mappedBy : counterpart?.inversedBy;
      if (!counterpart || counterpart.target !== file.uid || back !== name)
        throw new ApplicationError(
          `${file.uid}.${name} names ${String(attribute.target)}.${other} as its other side, which does not name it back: send both sides of the relation with names that agree`,
        );
    }
  }
}

export interface AppliedChange {
  /** Files written or removed, relative to the project. */
  files: string[];
}

const attributeMap = (attributes: AttributeChange[], leaveOutDeleted = false): Attributes =>
  Object.fromEntries(
    attributes
      .filter((attribute) => !(leaveOutDeleted && attribute.action === 'delete'))
      .map((attribute) => [attribute.name, (attribute.properties ?? {}) as Json]),
  );

/** Strapi's pre-processing: an empty default on an update is no default; a uid's deleted target is dropped. */
function preprocess(change: SchemaChange): void {
  for (const model of [...change.components, ...change.contentTypes]) {
    if (model.action === 'delete') continue;
    for (const attribute of model.attributes) {
      const properties = attribute.properties;
      if (attribute.action !== 'update' || !properties) continue;
      if ('default' in properties && properties.default === '') properties.default = undefined;
    }
  }
  for (const type of change.contentTypes) {
    if (type.action === 'delete') continue;
    for (const attribute of type.attributes) {
      const properties = attribute.properties;
      if (attribute.action !== 'update' || !properties) continue;
      if (
        properties.type === 'uid' &&
        properties.targetField &&
        !type.attributes.find((other) => other.name === properties.targetField)
      )
        properties.targetField = undefined;
    }
  }
}

/** Checks that the schema the batch leaves loads (Vellum's own start-up checks), before anything is written. */
function checkLoads(projectDir: string, builder: SchemaBuilder, builtIns: RawSchemaFile[]): Schema {
  const fileOf = (file: { dir: string; filename: string }) => relative(projectDir, `${file.dir}/${file.filename}`);
  const live = (files: Map<string, import('./schema-file.js').SchemaFile>) =>
    [...files.values()].filter((file) => !file.deleted);
  const contentTypes: RawSchemaFile[] = [];
  const plugins = new Map<string, RawSchemaFile>();
  for (const file of live(builder.contentTypes)) {
    const raw = { file: fileOf(file), uid: file.uid, json: JSON.parse(file.text()) as unknown };
    if (file.plugin) {
      if (file.changed) plugins.set(file.uid, raw);
    } else contentTypes.push(raw);
  }
  const components = live(builder.components).map((file) => ({
    file: fileOf(file),
    uid: file.uid,
    json: JSON.parse(file.text()) as unknown,
  }));
  const withPlugins = builtIns.map((builtIn) => plugins.get(builtIn.uid) ?? builtIn);
  checkTwoSided(builder);
  try {
    return buildSchema(contentTypes, components, withPlugins);
  } catch (error) {
    if (error instanceof ProjectError) throw new ApplicationError(error.message);
    throw error;
  }
}

/** What writing needs besides the files: the schema files of Vellum's own types, and the database's check. */
export interface Writer {
  projectDir: string;
  builtIns: RawSchemaFile[];
  /** Throws when the database cannot follow the schema (a column's type changed with data at stake). */
  checkDatabase: (schema: Schema) => Promise<void>;
}

export async function applySchemaChange(
  writer: Writer,
  models: ProjectModels,
  change: SchemaChange,
): Promise<AppliedChange> {
  const { projectDir } = writer;
  preprocess(change);
  const builder = new SchemaBuilder(projectDir, models);
  // Created empty first, so that the batch's types and components may refer to each other.
  for (const type of change.contentTypes)
    if (type.action === 'create') builder.createContentType({ ...type, attributes: {} });
  for (const component of change.components)
    if (component.action === 'create') builder.createComponent({ ...component, attributes: {} });

  const newApis: string[] = [];
  const deletedApis: { apiName: string; modelName: string }[] = [];
  for (const type of change.contentTypes) {
    if (type.action === 'create') {
      builder.createContentTypeAttributes(type.uid, attributeMap(type.attributes));
      if (!type.plugin) newApis.push(String(type.singularName));
    } else if (type.action === 'update') {
      builder.editContentType({ ...type, attributes: attributeMap(type.attributes, true) });
    } else {
      const existing = models.contentTypes.get(type.uid);
      builder.deleteContentType(type.uid);
      if (existing?.apiName) deletedApis.push({ apiName: existing.apiName, modelName: existing.modelName });
    }
  }
  for (const component of change.components) {
    if (component.action === 'create')
      builder.createComponentAttributes(component.uid, attributeMap(component.attributes));
    else if (component.action === 'update')
      builder.editComponent({ ...component, attributes: attributeMap(component.attributes, true) });
    else builder.deleteComponent(component.uid);
  }

  return commit(writer, builder, newApis, deletedApis);
}

/** Checks that the schema loads, then writes: new APIs' files, every changed schema file, deleted APIs' files removed. */
async function commit(
  writer: Writer,
  builder: SchemaBuilder,
  newApis: string[] = [],
  deletedApis: { apiName: string; modelName: string }[] = [],
): Promise<AppliedChange> {
  const { projectDir } = writer;
  const schema = checkLoads(projectDir, builder, writer.builtIns);
  try {
    await writer.checkDatabase(schema);
  } catch (error) {
    if (error instanceof ProjectError) throw new ApplicationError(error.message);
    throw error;
  }
  const files: string[] = [];
  const generated = newApis.flatMap((name) => apiFiles(projectDir, name));
  writeFiles(generated);
  files.push(...generated.map(([path]) => relative(projectDir, path)));
  for (const file of [...builder.components.values(), ...builder.contentTypes.values()])
    if (file.changed)
      files.push(
        relative(projectDir, `${file.dir}/${file.filename}`),
        relative(projectDir, `${file.initial.dir}/${file.initial.filename}`),
      );
  builder.writeFiles();
  for (const { apiName, modelName } of deletedApis)
    files.push(...clearApi(projectDir, apiName, modelName).map((path) => relative(projectDir, path)));
  return { files: [...new Set(files)].sort() };
}

/**
 * `PUT /component-categories/:name` (`newName` given) and `DELETE` (none): the category's
 * components moved to the new one (their uids and every reference to them follow) or deleted.
 * Answers the new name, or undefined when it does not change (Strapi's answer is then `{}`).
 */
export async function applyCategoryChange(
  writer: Writer,
  models: ProjectModels,
  name: string,
  newName: string | null,
): Promise<{ name?: string; files: string[] }> {
  const { projectDir } = writer;
  const exists = (category: string) => [...models.components.values()].some((c) => c.category === category);
  const target = newName === null ? null : nameToSlug(newName);
  if (target === name) return { files: [] };
  if (!exists(name)) throw new ApplicationError('category not found');
  if (target !== null && exists(target)) throw new ApplicationError('Name already taken');
  const builder = new SchemaBuilder(projectDir, models);
  for (const component of [...builder.components.values()]) {
    if (component.category !== name) continue;
    if (target === null) {
      builder.deleteComponent(component.uid);
      continue;
    }
    const oldUid = component.uid;
    const newUid = `${target}.${component.modelName ?? oldUid.split('.')[1]}`;
    component.setUID(newUid).setDir(join(projectDir, 'src', 'components', target));
    for (const other of builder.components.values()) other.updateComponent(oldUid, newUid);
    for (const type of builder.contentTypes.values()) type.updateComponent(oldUid, newUid);
  }
  const { files } = await commit(writer, builder);
  return { name: target ?? name, files };
}
