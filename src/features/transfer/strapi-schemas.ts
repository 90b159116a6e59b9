/**
 * The schemas an archive carries, as Strapi 5 writes them (`strapi export`): each content-type's
 * and component's schema file with the attributes Strapi adds (timestamps, creators, locale,
 * localizations) and its names (`modelType`, `modelName`, `uid`, `globalId`), plus Strapi's own
 * types unchanged. `strapi import` compares them with its project's and asks before going on when
 * they differ; a project served by Vellum and the same project on Strapi match.
 */
import { USER_UID } from '../users-permissions/index.js';
import type { ContentType, Component } from '../../core/schema/model.js';
import { strapiLoaderAttributes } from '../../core/schema/strapi-attributes.js';
import type { TransferProject } from './project.js';
import { STRAPI_BUILT_IN_SCHEMAS } from './strapi-built-ins.js';

type Json = Record<string, unknown>;

const pascal = (text: string): string =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

const pick = (raw: Json, keys: string[]): Json =>
  Object.fromEntries(keys.filter((key) => raw[key] !== undefined).map((key) => [key, raw[key]]));

function contentTypeSchema(type: ContentType, raw: Json): Json {
  const info = (raw.info ?? {}) as Json;
  return {
    ...pick(raw, ['collectionName', 'info', 'options', 'pluginOptions']),
    collectionName: raw.collectionName ?? type.collectionName,
    info,
    options: { draftAndPublish: type.draftAndPublish, ...((raw.options ?? {}) as Json) },
    attributes: { ...((raw.attributes ?? {}) as Json), ...strapiLoaderAttributes(type) },
    kind: type.kind,
    modelType: 'contentType',
    modelName: type.singularName,
    uid: type.uid,
    ...(type.uid.startsWith('plugin::') ? { plugin: type.uid.slice('plugin::'.length).split('.')[0] } : {}),
    globalId: type.uid === USER_UID ? 'UsersPermissionsUser' : pascal(type.singularName),
  };
}

function componentSchema(component: Component, raw: Json): Json {
  const name = component.uid.split('.').slice(1).join('.');
  return {
    collectionName: raw.collectionName ?? component.collectionName,
    info: raw.info ?? { displayName: component.displayName },
    options: raw.options ?? {},
    attributes: raw.attributes ?? {},
    modelType: 'component',
    modelName: name,
    uid: component.uid,
    globalId: `Component${pascal(component.category)}${pascal(name)}`,
  };
}

/** Every schema of the archive: Strapi's own types, then the project's, then its components. */
export function archiveSchemas(project: Pick<TransferProject, 'schema' | 'rawSchema'>): Json[] {
  const schemas: Json[] = [];
  const user = project.schema.contentTypes.get(USER_UID);
  const userRaw = user ? project.rawSchema(user.file) : undefined;
  for (const builtIn of STRAPI_BUILT_IN_SCHEMAS as Json[]) {
    // A project that extends the user type (src/extensions/users-permissions) exports its own.
    if (builtIn.uid === USER_UID && user && userRaw) {
      const base = contentTypeSchema(user, userRaw);
      schemas.push({
        ...builtIn,
        ...base,
        attributes: { ...((builtIn.attributes ?? {}) as Json), ...(base.attributes as Json) },
      });
    } else schemas.push(builtIn);
  }
  for (const type of project.schema.contentTypes.values()) {
    if (type.builtIn) continue;
    schemas.push(contentTypeSchema(type, project.rawSchema(type.file) ?? {}));
  }
  for (const component of project.schema.components.values())
    schemas.push(componentSchema(component, project.rawSchema(component.file) ?? {}));
  return schemas;
}
