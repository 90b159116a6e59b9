/**
 * `vellum import strapi --url <base URL> --token <full-access token>`: copies a running Strapi 5
 * over its public API into the project's database. Every type of the project's schema is read page
 * by page in both publication states and every locale, deeply populated (components, zones, media,
 * relations as row ids), and turned into the entities and links of Strapi's archive format, which
 * the archive import writes (import-state.ts): documentIds kept, upserts, so a second run updates
 * and an interrupted one completes. Files are downloaded with their formats. What the API does not
 * give (password hashes, private attributes, role grants, API tokens) is named in the summary.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { stringify } from 'qs';
import { ROLE_UID, USER_UID } from '../users-permissions/index.js';
import { TransferError } from '../../core/errors.js';
import { FILE_UID, type ContentType, type Model } from '../../core/schema/model.js';
import { ImportState, LOCALE_UID, type Entity, type Link } from './import-state.js';
import { jsonLines } from './tar.js';
import type { Progress } from './progress.js';
import type { TransferProject } from './project.js';
import { Summary } from './summary.js';

const PAGE_SIZE = 100;
type Json = Record<string, unknown>;

class StrapiClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
    /** Origins besides the source's own whose files may be fetched (`--file-origin`). */
    private readonly fileOrigins: readonly string[] = [],
  ) {}

  async get(path: string, query: Json = {}): Promise<unknown> {
    const qs = stringify(query, { encodeValuesOnly: true });
    const url = `${this.base}${path}${qs ? `?${qs}` : ''}`;
    let response: Response;
    for (let attempt = 1; ; attempt++) {
      try {
        response = await fetch(url, { headers: { authorization: `Bearer ${this.token}` } });
      } catch (error) {
        if (attempt < 4) {
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
          continue;
        }
        throw new TransferError(`${this.base} cannot be reached (${(error as Error).message})`);
      }
      if (response.status >= 500 && attempt < 4) continue;
      break;
    }
    if (response.status === 401 || response.status === 403) {
      throw new TransferError(
        `${url.split('?')[0]} answered ${response.status}: the token must be a full-access API token of that Strapi (Settings > API Tokens)`,
      );
    }
    if (!response.ok)
      throw new TransferError(`${url} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return response.json();
  }

  /**
   * A file's bytes, from the source's own origin only (or one `--file-origin` names): a file's
   * `url` is whatever the source's database holds, so an answer naming any other address (an
   * internal service, a cloud metadata endpoint) would otherwise be fetched from this machine.
   * Redirects are not followed, for the same reason.
   */
  async download(url: string): Promise<Readable> {
    const absolute = /^https?:\/\//.test(url) ? url : `${this.base}${url.startsWith('/') ? '' : '/'}${url}`;
    let origin: string;
    try {
      origin = new URL(absolute).origin;
    } catch {
      throw new TransferError(`a file's url is not an address: ${url.slice(0, 200)}`);
    }
    if (origin !== new URL(this.base).origin && !this.fileOrigins.includes(origin)) {
      throw new TransferError(
        `a file is at ${absolute.slice(0, 200)}, outside ${this.base}: the import fetches only the source's own files. If that host serves its files (an upload provider's bucket), pass --file-origin ${origin}`,
      );
    }
    let response: Response;
    try {
      response = await fetch(absolute, { redirect: 'manual' });
    } catch (error) {
      throw new TransferError(`${absolute} cannot be reached (${(error as Error).message})`);
    }
    if (response.status >= 300 && response.status < 400) {
      throw new TransferError(
        `${absolute} answered a redirect (${response.status}) to ${String(response.headers.get('location')).slice(0, 200)}: redirects are not followed; pass the final host with --file-origin and make the source name it`,
      );
    }
    if (!response.ok || !response.body) throw new TransferError(`${absolute} answered ${response.status}`);
    return Readable.fromWeb(response.body as WebStream);
  }
}

/** The populate that returns everything below a model: components and zones whole, relations and media as ids. */
function populateOf(model: Model, project: TransferProject, depth = 0): Json {
  const populate: Json = {};
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind === 'relation') {
      // Both sides: the owning side gives each link and its order there, the other side (mappedBy) its order on that side.
      if (!project.schema.contentTypes.has(attribute.target) || attribute.private) continue;
      if (!attribute.owner && !attribute.mappedBy) continue;
      populate[attribute.name] = { fields: ['documentId'] };
    } else if (attribute.kind === 'media') populate[attribute.name] = { fields: ['name'] };
    else if (attribute.kind === 'component' && depth < 20) {
      populate[attribute.name] = below(project.schema.components.get(attribute.component)!, project, depth);
    } else if (attribute.kind === 'dynamiczone' && depth < 20) {
      const on: Json = {};
      for (const uid of attribute.components) on[uid] = below(project.schema.components.get(uid)!, project, depth);
      populate[attribute.name] = { on };
    }
  }
  return populate;
}

/** A component's populate: `true` when nothing below it needs one (an empty object would populate nothing). */
function below(component: Model, project: TransferProject, depth: number): Json | true {
  const nested = populateOf(component, project, depth + 1);
  return Object.keys(nested).length ? { populate: nested } : true;
}

interface Collected {
  entity: Entity;
  links: Link[];
}

/** A document version as REST answers it -> an archive entity and the links of its relations and media. */
function toEntity(model: ContentType, document: Json, project: TransferProject): Collected {
  const links: Link[] = [];
  const walk = (owner: Model, ownerId: number, values: Json): Json => {
    const data: Json = {};
    for (const [key, value] of Object.entries(values)) {
      const attribute = owner.attributes[key];
      if (!attribute) {
        if (key !== 'id' && key !== '__component') data[key] = value;
        continue;
      }
      if (attribute.kind === 'scalar') data[key] = value;
      else if (attribute.kind === 'relation') {
        const targets = Array.isArray(value) ? value : value ? [value] : [];
        targets.forEach((target: Json, index) => {
          if (attribute.owner)
            links.push({
              kind: 'relation.basic',
              left: { type: owner.uid, ref: ownerId, field: key, pos: index + 1 },
              right: { type: attribute.target, ref: target.id as number },
            });
          // Seen from the other side: this row's place in the owner's... list of the target: the owner's entity order.
          else if (attribute.mappedBy)
            links.push({
              kind: 'relation.basic',
              left: { type: owner.uid, ref: ownerId, field: key, pos: index + 1 },
              right: { type: attribute.target, ref: target.id as number, field: attribute.mappedBy },
            });
        });
      } else if (attribute.kind === 'media') {
        const files = Array.isArray(value) ? value : value ? [value] : [];
        files.forEach((file: Json, index) => {
          links.push({
            kind: 'relation.morph',
            left: { type: FILE_UID, ref: file.id as number, field: 'related' },
            right: { type: owner.uid, ref: ownerId, field: key, pos: index + 1 },
          });
        });
      } else if (attribute.kind === 'component' || attribute.kind === 'dynamiczone') {
        const nest = (item: Json): Json => {
          const uid = attribute.kind === 'component' ? attribute.component : String(item.__component);
          const component = project.schema.components.get(uid);
          if (!component) return item;
          return {
            id: item.id,
            ...walk(component, item.id as number, item),
            ...(attribute.kind === 'dynamiczone' ? { __component: uid } : {}),
          };
        };
        data[key] = Array.isArray(value) ? value.map((item: Json) => nest(item)) : value ? nest(value as Json) : null;
      }
    }
    return data;
  };
  const data = walk(model, document.id as number, document);
  if (!model.localized) data.locale = null;
  return { entity: { type: model.uid, id: document.id as number, data }, links };
}

/** `fileOrigins`: origins (`https://bucket.example.com`) besides the source's own whose files may be fetched. */
export async function importFromStrapi(
  project: TransferProject,
  baseUrl: string,
  token: string,
  progress: Progress,
  fileOrigins: readonly string[] = [],
): Promise<Summary> {
  const base = baseUrl.replace(/\/+$/, '');
  const prefix = project.config.api.rest.prefix;
  const origins = fileOrigins.map((value) => {
    try {
      return new URL(value).origin;
    } catch {
      throw new TransferError(`--file-origin ${value} is not an origin such as https://files.example.com`);
    }
  });
  const client = new StrapiClient(base, token, origins);
  const summary = new Summary('api', base);
  const state = new ImportState(project, summary, progress);
  await state.prepare();
  const source = new Map<string, number>();
  const work = await mkdtemp(join(tmpdir(), 'vellum-import-api-'));
  const linksFile = join(work, 'links.jsonl');
  const spool = createWriteStream(linksFile);
  // Open before anything can fail: a stream still opening when its folder is removed fails after
  // it, with nobody listening (an uncaught ENOENT, seen when Strapi refused the token at once).
  await once(spool, 'ready');
  const keep = async (links: Link[]) => {
    for (const link of links)
      if (!spool.write(`${JSON.stringify(link)}\n`))
        await new Promise<void>((resolve) => spool.once('drain', () => resolve()));
  };
  const write = async (uid: string, entities: Entity[]) => {
    if (entities.length === 0) return;
    source.set(uid, (source.get(uid) ?? 0) + entities.length);
    await state.entities(uid, entities);
  };
  try {
    // Locales first: documents are written in them.
    const locales = (await client.get(`${prefix}/i18n/locales`)) as Json[];
    progress.begin('locales', locales.length);
    await write(
      LOCALE_UID,
      locales.map((l) => ({ type: LOCALE_UID, id: l.id as number, data: l })),
    );
    const defaultLocale = locales.find((l) => l.isDefault)?.code;
    if (typeof defaultLocale === 'string')
      await state.configuration({
        type: 'core-store',
        value: { key: 'plugin_i18n_default_locale', value: defaultLocale, type: 'string' },
      });
    const codes = locales.map((l) => String(l.code));

    // Files, their bytes and formats.
    progress.begin('files');
    for (let page = 1; ; page++) {
      const files = (await client.get(`${prefix}/upload/files`, {
        pagination: { page, pageSize: PAGE_SIZE },
        sort: 'id:asc',
      })) as Json[];
      await write(
        FILE_UID,
        files.map(({ isUrlSigned: _signed, ...file }) => ({ type: FILE_UID, id: file.id as number, data: file })),
      );
      for (const file of files) {
        const objects = [file, ...Object.values((file.formats ?? {}) as Record<string, Json>)];
        for (const object of objects) {
          if (typeof object.url !== 'string' || typeof object.hash !== 'string') continue;
          const size =
            typeof object.sizeInBytes === 'number' ? object.sizeInBytes : Math.round(Number(object.size ?? 0) * 1000);
          await state.asset(`${object.hash}${String(object.ext ?? '')}`, size, await client.download(object.url));
        }
      }
      if (files.length < PAGE_SIZE) break;
    }

    // Roles (by type) and users (without their password hashes: the API never shows them).
    progress.begin('users');
    try {
      const { roles } = (await client.get(`${prefix}/users-permissions/roles`)) as { roles: Json[] };
      await write(
        ROLE_UID,
        roles.map((role) => ({
          type: ROLE_UID,
          id: role.id as number,
          data: {
            documentId: role.documentId,
            name: role.name,
            description: role.description,
            type: role.type,
            createdAt: role.createdAt,
            updatedAt: role.updatedAt,
            publishedAt: role.publishedAt,
          },
        })),
      );
    } catch (error) {
      summary.note(`roles could not be read (${(error as Error).message}); users keep this project's default role`);
    }
    const users = project.schema.contentTypes.get(USER_UID)!;
    for (let start = 0; ; start += PAGE_SIZE) {
      const list = (await client.get(`${prefix}/users`, {
        start,
        limit: PAGE_SIZE,
        sort: 'id:asc',
        populate: { role: { fields: ['type'] } },
      })) as Json[];
      const collected = list.map((user) => toEntity(users, user, project));
      await write(
        USER_UID,
        collected.map((c) => c.entity),
      );
      await keep(collected.flatMap((c) => c.links));
      if (list.length < PAGE_SIZE) break;
    }
    summary.note(
      'password hashes are not readable over the API: imported users sign in after a password reset (or import a strapi export archive with vellum import --file, which keeps them)',
    );
    summary.note(
      'role grants are not readable with an API token: grant them with vellum permissions grant or config/permissions (the archive import brings them)',
    );
    summary.note(
      'API tokens and administrators stay on Strapi: create them with vellum token create and vellum admin create',
    );

    // The project's types, both publication states, every locale.
    for (const type of project.schema.contentTypes.values()) {
      if (type.builtIn) continue;
      progress.begin(type.uid);
      const populate = populateOf(type, project);
      // A type without draft and publish has one version; read in draft state too, its lists show
      // the drafts of the documents linking to it, in their order (links only).
      const linksOnly = (status: string) => !type.draftAndPublish && status === 'draft';
      const statuses = ['draft', 'published'];
      const privates = Object.values(type.attributes)
        .filter((a) => a.private)
        .map((a) => a.name);
      if (privates.length)
        summary.note(
          `${type.uid}: private attributes (${privates.join(', ')}) are not readable over the API and stay empty`,
        );
      for (const status of statuses) {
        for (const locale of type.localized ? codes : [undefined]) {
          if (type.kind === 'singleType') {
            try {
              const answer = (await client.get(`${prefix}/${type.singularName}`, { status, locale, populate })) as {
                data: Json;
              };
              const collected = toEntity(type, answer.data, project);
              if (!linksOnly(status)) await write(type.uid, [collected.entity]);
              await keep(collected.links);
            } catch (error) {
              if (!(error instanceof TransferError) || !/answered 404/.test(error.message)) throw error;
            }
            continue;
          }
          for (let page = 1; ; page++) {
            const answer = (await client.get(`${prefix}/${type.pluralName}`, {
              status,
              locale,
              populate,
              pagination: { page, pageSize: PAGE_SIZE },
              sort: 'id:asc',
            })) as { data: Json[]; meta: { pagination: { pageCount: number } } };
            const collected = answer.data.map((document) => toEntity(type, document, project));
            if (!linksOnly(status))
              await write(
                type.uid,
                collected.map((c) => c.entity),
              );
            await keep(collected.flatMap((c) => c.links));
            if (page >= answer.meta.pagination.pageCount) break;
          }
        }
      }
    }
    progress.end();
    spool.end();
    await finished(spool);
    progress.begin('links');
    let batch: Link[] = [];
    for await (const line of jsonLines(createReadStream(linksFile), 'links')) {
      batch.push(line as Link);
      if (batch.length >= 2000) {
        await state.links(batch);
        progress.tick(batch.length);
        batch = [];
      }
    }
    await state.links(batch);
    progress.tick(batch.length);
    progress.end();
    await state.finish();
  } finally {
    spool.destroy();
    await finished(spool).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
  await summary.compare(project, source, 'api');
  summary.assets = { count: state.assetsStored, bytes: 0 };
  summary.peakRss = progress.peakRss;
  return summary;
}
