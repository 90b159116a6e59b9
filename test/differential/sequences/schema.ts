/**
 * The content-types and components of a project, read from its schema files: what the sequence
 * generator writes and what the state reads populate.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Attribute {
  type: string;
  relation?: string;
  target?: string;
  component?: string;
  components?: string[];
  repeatable?: boolean;
  multiple?: boolean;
  required?: boolean;
  unique?: boolean;
  enum?: string[];
  min?: number;
  mappedBy?: string;
  inversedBy?: string;
  default?: unknown;
  targetField?: string;
  localized: boolean;
}

export interface TypeInfo {
  uid: string;
  plural: string;
  /** The REST path segment: the plural name, or the singular one of a single type. */
  path: string;
  kind: 'collectionType' | 'singleType';
  draftAndPublish: boolean;
  i18n: boolean;
  attributes: Record<string, Attribute>;
  /** A string attribute every create sets (carries the run's prefix). */
  label?: string;
}

export interface ComponentInfo {
  uid: string;
  attributes: Record<string, Attribute>;
}

export interface Schema {
  types: Map<string, TypeInfo>;
  components: Map<string, ComponentInfo>;
  /** Names of the attributes left out of Strapi's copy (Vellum's webhook entries drop them too). */
  stripped: Set<string>;
}

/** Relation kinds Strapi 5 refuses at start-up (the harness strips them from its copy). */
const STRAPI_UNKNOWN = new Set(['oneWay', 'manyWay']);

function attributesOf(
  raw: Record<string, Record<string, unknown>>,
  typeLocalized: boolean,
  stripped: Set<string>,
): Record<string, Attribute> {
  const out: Record<string, Attribute> = {};
  for (const [name, a] of Object.entries(raw)) {
    if (a.type === 'relation' && STRAPI_UNKNOWN.has(String(a.relation))) {
      stripped.add(name);
      continue;
    }
    const i18n = (a.pluginOptions as { i18n?: { localized?: boolean } } | undefined)?.i18n;
    out[name] = { ...(a as unknown as Attribute), localized: typeLocalized && i18n?.localized !== false };
  }
  return out;
}

export function loadSchema(project: string): Schema {
  const types = new Map<string, TypeInfo>();
  const components = new Map<string, ComponentInfo>();
  const stripped = new Set<string>();
  const api = join(project, 'src/api');
  for (const name of readdirSync(api).sort()) {
    const dir = join(api, name, 'content-types');
    if (!existsSync(dir)) continue;
    for (const type of readdirSync(dir).sort()) {
      const file = join(dir, type, 'schema.json');
      if (!existsSync(file)) continue;
      const raw = JSON.parse(readFileSync(file, 'utf8'));
      const i18n = raw.pluginOptions?.i18n?.localized === true;
      const attributes = attributesOf(raw.attributes, i18n, stripped);
      const label = Object.entries(attributes).find(([, a]) => a.type === 'string')?.[0];
      types.set(`api::${name}.${type}`, {
        uid: `api::${name}.${type}`,
        plural: raw.info.pluralName,
        path: raw.kind === 'singleType' ? raw.info.singularName : raw.info.pluralName,
        kind: raw.kind,
        draftAndPublish: raw.options?.draftAndPublish !== false,
        i18n,
        attributes,
        label,
      });
    }
  }
  const comps = join(project, 'src/components');
  if (existsSync(comps)) {
    for (const category of readdirSync(comps).sort()) {
      for (const file of readdirSync(join(comps, category)).sort()) {
        if (!file.endsWith('.json')) continue;
        const raw = JSON.parse(readFileSync(join(comps, category, file), 'utf8'));
        const uid = `${category}.${file.replace(/\.json$/, '')}`;
        components.set(uid, { uid, attributes: attributesOf(raw.attributes, false, stripped) });
      }
    }
  }
  return { types, components, stripped };
}

/** A populate object reaching every relation, media, component and zone (relations one level deep). */
export function deepPopulate(schema: Schema, attributes: Record<string, Attribute>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(attributes)) {
    if (a.type === 'relation' || a.type === 'media') out[name] = true;
    else if (a.type === 'component') {
      const inner = deepPopulate(schema, schema.components.get(a.component!)!.attributes);
      out[name] = Object.keys(inner).length ? { populate: inner } : true;
    } else if (a.type === 'dynamiczone') {
      const on: Record<string, unknown> = {};
      for (const uid of a.components ?? []) {
        const inner = deepPopulate(schema, schema.components.get(uid)!.attributes);
        on[uid] = Object.keys(inner).length ? { populate: inner } : true;
      }
      out[name] = { on };
    }
  }
  return out;
}

/** `qs`-style brackets: `populate[a][populate][b]=true`. */
export function encodeQuery(value: unknown, prefix: string): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => encodeQuery(v, `${prefix}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => encodeQuery(v, `${prefix}[${k}]`));
  return [`${prefix}=${encodeURIComponent(String(value))}`];
}
