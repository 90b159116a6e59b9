/**
 * The project's content-types and components as the builder reads and rewrites them: each model's
 * schema file as written (Strapi's `__schema__`), where that file lives, and what Strapi derives
 * from it at load (kind, options with `draftAndPublish`, globalId). Read again for every request:
 * the files are the truth, and under `vellum develop` they change under a running node.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RawSchemaFile } from '../../core/schema/build.js';
import type { Schema } from '../../core/schema/model.js';
import { isPlainObject } from '../../core/objects.js';
import { componentGlobalId, contentTypeGlobalId } from './strings.js';

export type Json = Record<string, unknown>;
export type Attributes = Record<string, Json>;

/** A schema file's content as Strapi keeps it (`pickSchema`): the keys it writes back. */
export interface RawSchema {
  kind?: string;
  collectionName?: string;
  info: Json;
  options?: Json;
  pluginOptions?: Json;
  attributes: Attributes;
  config?: Json;
  indexes?: unknown;
  foreignKeys?: unknown;
  connection?: unknown;
}

interface ModelFile {
  uid: string;
  modelName: string;
  /** The folder and file name the schema is written to. */
  dir: string;
  filename: string;
  schema: RawSchema;
}

export interface ContentTypeFile extends ModelFile {
  plugin?: string;
  /** `api::<apiName>.<name>`: the API folder under src/api (none for a plugin's type). */
  apiName?: string;
}

export interface ComponentFile extends ModelFile {
  category: string;
}

export interface ProjectModels {
  contentTypes: Map<string, ContentTypeFile>;
  components: Map<string, ComponentFile>;
}

/**
 * Strapi's own users-permissions user schema (the plugin's, before any extension): what the builder
 * shows and, when an administrator edits it, writes to src/extensions/. Vellum's built-in user
 * differs in one place (a unique email, see app/built-ins.ts), which is a database rule, not a
 * schema the project wrote.
 */
const STRAPI_USER_SCHEMA: RawSchema = {
  collectionName: 'up_users',
  info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { timestamps: true },
  attributes: {
    username: { type: 'string', minLength: 3, unique: true, configurable: false, required: true },
    email: { type: 'email', minLength: 6, configurable: false, required: true },
    provider: { type: 'string', configurable: false },
    password: { type: 'password', minLength: 6, configurable: false, private: true, searchable: false },
    resetPasswordToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmationToken: { type: 'string', configurable: false, private: true, searchable: false },
    confirmed: { type: 'boolean', default: false, configurable: false },
    blocked: { type: 'boolean', default: false, configurable: false },
    role: {
      type: 'relation',
      relation: 'manyToOne',
      target: 'plugin::users-permissions.role',
      inversedBy: 'users',
      configurable: false,
    },
  },
};

const PICKED = [
  'connection',
  'collectionName',
  'info',
  'options',
  'pluginOptions',
  'attributes',
  'kind',
  'indexes',
  'foreignKeys',
] as const;

/** Strapi's `pickSchema`: a deep copy of the keys a schema file is made of. */
function pickSchema(json: unknown): RawSchema {
  const source = isPlainObject(json) ? json : {};
  const picked: Json = {};
  for (const key of PICKED) if (key in source) picked[key] = structuredClone(source[key]);
  if (!isPlainObject(picked.info)) picked.info = {};
  if (!isPlainObject(picked.attributes)) picked.attributes = {};
  return picked as unknown as RawSchema;
}

function wholeSchema(json: unknown): RawSchema {
  const schema = (isPlainObject(json) ? structuredClone(json) : {}) as Json;
  if (!isPlainObject(schema.info)) schema.info = {};
  if (!isPlainObject(schema.attributes)) schema.attributes = {};
  return schema as unknown as RawSchema;
}

/** Reads the models of a running node's schema from their files (built-in ones from `builtIns`). */
export function readProjectModels(projectDir: string, schema: Schema, builtIns: RawSchemaFile[]): ProjectModels {
  const jsonOf = (uid: string, file: string): unknown => {
    if (file.startsWith('(built-in)')) {
      if (uid === 'plugin::users-permissions.user') return STRAPI_USER_SCHEMA;
      return builtIns.find((builtIn) => builtIn.uid === uid)?.json;
    }
    return JSON.parse(readFileSync(join(projectDir, file), 'utf8'));
  };
  const contentTypes = new Map<string, ContentTypeFile>();
  for (const type of schema.contentTypes.values()) {
    const raw = pickSchema(jsonOf(type.uid, type.file));
    const [namespace, rest = ''] = type.uid.split('::');
    const [group = '', name = ''] = rest.split('.');
    const plugin = namespace === 'plugin' ? group : undefined;
    contentTypes.set(type.uid, {
      uid: type.uid,
      modelName: type.singularName,
      plugin,
      apiName: namespace === 'api' ? group : undefined,
      dir: plugin
        ? join(projectDir, 'src', 'extensions', plugin, 'content-types', name)
        : join(projectDir, 'src', 'api', group, 'content-types', name),
      filename: 'schema.json',
      schema: raw,
    });
  }
  const components = new Map<string, ComponentFile>();
  for (const component of schema.components.values()) {
    const [category = '', name = ''] = component.uid.split('.');
    components.set(component.uid, {
      uid: component.uid,
      modelName: name,
      category,
      dir: join(projectDir, 'src', 'components', category),
      filename: basename(component.file),
      // A component's whole file, as Strapi's loader keeps it (its `config` included).
      schema: wholeSchema(jsonOf(component.uid, component.file)),
    });
  }
  return { contentTypes, components };
}

/** The options Strapi's loader leaves on a content-type: `draftAndPublish` set (false by default). */
export function loadedOptions(schema: RawSchema): Json {
  const options = { ...(schema.options ?? {}) };
  if (!('draftAndPublish' in options)) options.draftAndPublish = false;
  return options;
}

export const kindOf = (schema: RawSchema): string => schema.kind ?? 'collectionType';

export const globalIdOf = (type: ContentTypeFile): string =>
  contentTypeGlobalId(String(type.schema.info.singularName ?? type.modelName), type.plugin);
export const componentGlobalIdOf = (component: ComponentFile): string => componentGlobalId(component.uid);
