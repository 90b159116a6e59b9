/**
 * `vellum export --file <archive.tar.gz>`: the project's content, users, roles, locales, files,
 * settings and administrators' roles in Strapi 5's archive format, which `strapi import` restores
 * into a Strapi project with the same schema (administrators' roles aside: it leaves every
 * `admin::` type out) and `vellum import` into another Vellum. Rows are read a page at a time and
 * written to JSON-lines files in a work folder, files are linked (local storage) or downloaded one
 * at a time, then the folder is packed: memory stays bounded whatever the size.
 */
import { createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { create as createTar } from 'tar';
import { ROLE_UID } from '../users-permissions/index.js';
import type { DumpedRow } from '../../core/documents/service.js';
import { TransferError } from '../../core/errors.js';
import { FILE_UID, type ContentType, type Model } from '../../core/schema/model.js';
import { RoleTransfer } from '../admin-roles/index.js';
import { roleEntities } from './admin-roles-part.js';
import { ADMIN_PERMISSION_UID, ADMIN_ROLE_UID, LOCALE_UID, PERMISSION_UID } from './import-state.js';
import type { Progress } from './progress.js';
import type { TransferProject } from './project.js';
import { archiveSchemas } from './strapi-schemas.js';
import { Summary } from './summary.js';

const PAGE = 500;
/** The Strapi version an archive says it comes from: the format Vellum writes. */
const STRAPI_FORMAT_VERSION = '5.54.0';

class JsonLines {
  private readonly out: WriteStream;
  count = 0;

  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  async write(value: unknown): Promise<void> {
    this.count++;
    if (!this.out.write(`${JSON.stringify(value)}\n`))
      await new Promise<void>((resolve) => this.out.once('drain', () => resolve()));
  }

  async close(): Promise<void> {
    this.out.end();
    await finished(this.out);
  }
}

/** A stable 24-character documentId for rows Vellum keeps without one (permissions). */
const derivedDocumentId = (text: string): string =>
  createHash('sha256')
    .update(text)
    .digest('hex')
    .replace(/[^a-z]/g, '')
    .slice(0, 4) + createHash('sha1').update(text).digest('hex').slice(0, 20);

type Json = Record<string, unknown>;

/** Every component (uid and row id) in a row's nested values. */
function componentsIn(
  model: Model,
  values: Json,
  schema: TransferProject['schema'],
  into: { uid: string; id: number }[],
): void {
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind !== 'component' && attribute.kind !== 'dynamiczone') continue;
    const value = values[attribute.name];
    const items = Array.isArray(value) ? value : value ? [value] : [];
    for (const item of items as Json[]) {
      const uid = attribute.kind === 'component' ? attribute.component : String(item.__component);
      const component = schema.components.get(uid);
      if (!component || typeof item.id !== 'number') continue;
      into.push({ uid, id: item.id });
      componentsIn(component, item, schema, into);
    }
  }
}

export async function exportArchive(project: TransferProject, file: string, progress: Progress): Promise<Summary> {
  const summary = new Summary('export', file);
  const { schema, documents } = project;
  const work = await mkdtemp(join(tmpdir(), 'vellum-export-'));
  try {
    for (const dir of ['schemas', 'entities', 'links', 'configuration', 'assets/uploads', 'assets/metadata'])
      await mkdir(join(work, dir), { recursive: true });
    const schemas = new JsonLines(join(work, 'schemas/schemas_00001.jsonl'));
    for (const item of archiveSchemas(project)) await schemas.write(item);
    await schemas.close();

    const entities = new JsonLines(join(work, 'entities/entities_00001.jsonl'));
    const links = new JsonLines(join(work, 'links/links_00001.jsonl'));
    const count = (uid: string, n: number) => {
      summary.wrote(uid, n);
      progress.tick(n);
    };

    // Types in Strapi's order: files, locales, permissions, roles, users, then the project's.
    const types = [...schema.contentTypes.values()].sort((a, b) => rank(a) - rank(b));
    const locales = await documents.locales.list();
    for (const locale of locales) {
      await entities.write({
        type: LOCALE_UID,
        id: locale.id,
        data: {
          documentId: locale.documentId,
          name: locale.name,
          code: locale.code,
          createdAt: locale.createdAt,
          updatedAt: locale.updatedAt,
          publishedAt: locale.publishedAt,
          locale: null,
        },
      });
    }
    const roleType = schema.contentTypes.get(ROLE_UID)!;
    const roleRows = await project.database.db
      .selectFrom(roleType.table)
      .select(['id', 'document_id', 'type'])
      .execute();
    const roleIds = new Map(roleRows.map((row) => [row.document_id as string, Number(row.id)]));
    // The auth routes' grants are Vellum's too (seeded as Strapi seeds them): exported as they are,
    // a revocation included.
    const grants: { id: number; role_document_id: string; action: string }[] = await project.database.system
      .selectFrom('up_permissions')
      .select(['id', 'role_document_id', 'action'])
      .orderBy('id')
      .execute();
    // Administrators' roles and permissions, as Strapi's engine writes them (admin-roles-part.ts).
    const adminRoles = roleEntities(
      await new RoleTransfer(project.database, project.auth.adminRoles, () => schema).dump(),
    );
    progress.begin(
      'entities',
      locales.length + grants.length + (await countRows(project, types)) + adminRoles.entities.length,
    );
    count(LOCALE_UID, locales.length);
    const now = new Date().toISOString();
    const positions = new Map<number, number>();
    for (const grant of grants) {
      const role = roleIds.get(grant.role_document_id);
      if (role === undefined) continue;
      await entities.write({
        type: PERMISSION_UID,
        id: grant.id,
        data: {
          documentId: derivedDocumentId(`${grant.role_document_id}:${grant.action}`),
          action: grant.action,
          createdAt: now,
          updatedAt: now,
          publishedAt: now,
          locale: null,
        },
      });
      positions.set(role, (positions.get(role) ?? 0) + 1);
      await links.write({
        kind: 'relation.basic',
        relation: 'manyToOne',
        left: { type: PERMISSION_UID, field: 'role', ref: grant.id },
        right: { type: ROLE_UID, field: 'permissions', ref: role, pos: positions.get(role) },
      });
    }
    count(PERMISSION_UID, grants.length);

    for (const type of types) await exportType(project, type, entities, links, (n) => count(type.uid, n));
    for (const entity of adminRoles.entities) await entities.write(entity);
    for (const link of adminRoles.links) await links.write(link);
    for (const uid of [ADMIN_PERMISSION_UID, ADMIN_ROLE_UID])
      count(uid, adminRoles.entities.filter((entity) => entity.type === uid).length);
    await entities.close();
    await links.close();
    progress.end();

    const configuration = new JsonLines(join(work, 'configuration/configuration_00001.jsonl'));
    const store = await project.database.system
      .selectFrom('strapi_core_store_settings')
      .selectAll()
      .orderBy('id')
      .execute();
    for (const row of store) {
      let value: unknown = row.value;
      try {
        value = JSON.parse(row.value ?? 'null');
      } catch {
        // kept as text
      }
      await configuration.write({
        type: 'core-store',
        value: { id: row.id, key: row.key, value, type: row.type, environment: row.environment, tag: row.tag },
      });
    }
    // Webhooks as Strapi's engine writes its `strapi::webhook` rows; never Vellum's signing secret.
    for (const [index, webhook] of (await project.webhooks.list()).entries())
      await configuration.write({
        type: 'webhook',
        value: {
          id: index + 1,
          name: webhook.name,
          url: webhook.url,
          headers: webhook.headers,
          events: webhook.events,
          enabled: webhook.isEnabled,
        },
      });
    await configuration.close();

    const assets = await exportAssets(project, work, progress, summary);
    summary.assets = assets;
    await writeFile(
      join(work, 'metadata.json'),
      JSON.stringify(
        { createdAt: new Date().toISOString(), strapi: { version: STRAPI_FORMAT_VERSION }, vellum: { format: 1 } },
        null,
        2,
      ),
    );

    progress.begin('packing');
    const gzip = !/\.tar$/i.test(file);
    // Files named one by one, in Strapi's order (node-tar would list a folder's files after the other arguments).
    const paths: string[] = [];
    for (const dir of ['schemas', 'entities'])
      for (const name of (await readdir(join(work, dir))).sort()) paths.push(`${dir}/${name}`);
    for (const name of (await readdir(join(work, 'assets/uploads'))).sort())
      paths.push(`assets/metadata/${name}.json`, `assets/uploads/${name}`);
    for (const dir of ['links', 'configuration'])
      for (const name of (await readdir(join(work, dir))).sort()) paths.push(`${dir}/${name}`);
    paths.push('metadata.json');
    await createTar({ gzip, file, cwd: work, follow: true, portable: true, jobs: 1 }, paths);
    progress.end();
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  for (const counts of summary.types.values()) counts.source = counts.written;
  summary.peakRss = progress.peakRss;
  summary.note(
    "users keep their password hashes; administrators' roles and permissions are in the archive (vellum import restores them, strapi import leaves them out); administrators and API tokens are not",
  );
  return summary;
}

/** Strapi's order of types in an archive: the media library's first, users-and-permissions, then the project's. */
function rank(type: ContentType): number {
  if (type.uid === FILE_UID) return 0;
  if (type.uid === ROLE_UID) return 1;
  if (type.builtIn) return 2;
  return 3;
}

async function countRows(project: TransferProject, types: ContentType[]): Promise<number> {
  let total = 0;
  for (const type of types) {
    const row = await project.database.db
      .selectFrom(type.table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    total += Number(row?.n ?? 0);
  }
  return total;
}

/** One type's rows as entities, their relations and media as links, a page at a time. */
async function exportType(
  project: TransferProject,
  type: ContentType,
  entities: JsonLines,
  links: JsonLines,
  count: (n: number) => void,
): Promise<void> {
  const { schema } = project;
  const reader = project.documents.raw.reader;
  for (let after = 0; ;) {
    const rows = await reader.versions(type, after, PAGE);
    if (rows.length === 0) return;
    after = rows[rows.length - 1]!.id;
    const nested = await reader.components(
      type,
      rows.map((r) => r.id),
      () => {},
    );
    const owners: { model: Model; id: number; row: DumpedRow }[] = [];
    for (const row of rows) {
      const values = { ...row.values, ...nested.get(row.id) };
      await entities.write({
        type: type.uid,
        id: row.id,
        data: {
          documentId: row.documentId,
          ...values,
          createdAt: row.createdAt,
          updatedAt: row.updatedAt,
          publishedAt: row.publishedAt,
          locale: row.locale,
        },
      });
      owners.push({ model: type, id: row.id, row });
      const below: { uid: string; id: number }[] = [];
      componentsIn(type, values, schema, below);
      for (const component of below)
        owners.push({ model: schema.components.get(component.uid)!, id: component.id, row });
    }
    await writeLinks(project, owners, links);
    count(rows.length);
  }
}

/** The relations and media of rows and their components, as Strapi links them: row to row, in the owner's publication state. */
async function writeLinks(
  project: TransferProject,
  owners: { model: Model; id: number; row: DumpedRow }[],
  links: JsonLines,
): Promise<void> {
  const { schema } = project;
  const reader = project.documents.raw.reader;
  const byModel = new Map<Model, { id: number; row: DumpedRow }[]>();
  for (const owner of owners) byModel.set(owner.model, [...(byModel.get(owner.model) ?? []), owner]);
  for (const [model, list] of byModel) {
    const rootOf = new Map(list.map((o) => [o.id, o.row]));
    const ids = list.map((o) => o.id);
    for (const attribute of Object.values(model.attributes)) {
      if (attribute.kind !== 'relation' || !attribute.owner) continue;
      const target = schema.contentTypes.get(attribute.target);
      if (!target) continue;
      const rows = await reader.relationLinks(attribute.link, ids);
      if (rows.length === 0) continue;
      const versions = await reader.versionKeys(
        target,
        rows.map((r) => r.target_document_id),
      );
      const find = (documentId: string, locale: string | null, published: boolean) =>
        versions.find(
          (v) =>
            v.documentId === documentId &&
            (!target.localized || v.locale === locale) &&
            (!target.draftAndPublish || v.published === published),
        );
      for (const link of rows) {
        const root = rootOf.get(link.entity_id)!;
        const published = root.publishedAt !== null;
        const version =
          find(link.target_document_id, link.target_locale, published) ??
          (published ? undefined : find(link.target_document_id, link.target_locale, true));
        if (!version) continue;
        const left: Json = { type: model.uid, field: attribute.name, ref: link.entity_id };
        if (link.target_ord !== null && attribute.toMany) left.pos = link.target_ord;
        const right: Json = { type: target.uid, ref: version.id };
        if (attribute.inversedBy) right.field = attribute.inversedBy;
        if (link.entity_ord !== null && attribute.inversedBy) right.pos = link.entity_ord;
        await links.write({ kind: 'relation.basic', relation: attribute.relation, left, right });
      }
    }
    if (Object.values(model.attributes).some((a) => a.kind === 'media')) {
      for (const link of await reader.mediaLinks(model, ids)) {
        await links.write({
          kind: 'relation.morph',
          relation: 'morphToMany',
          left: { type: FILE_UID, field: 'related', ref: link.file_id },
          right: { ref: link.related_id, pos: link.ord ?? 1, type: link.related_type, field: link.field },
        });
      }
    }
  }
}

interface FormatJson {
  name?: string;
  hash?: string;
  ext?: string;
  mime?: string;
  url?: string;
  size?: number;
  [key: string]: unknown;
}

/** Each file's bytes and its formats', with their sidecar metadata, from storage. */
async function exportAssets(
  project: TransferProject,
  work: string,
  progress: Progress,
  summary: Summary,
): Promise<{ count: number; bytes: number }> {
  const type = project.schema.contentTypes.get(FILE_UID)!;
  const reader = project.documents.raw.reader;
  const result = { count: 0, bytes: 0 };
  const uploadsDir = join(project.upload.publicDir, 'uploads');
  const row = await project.database.db
    .selectFrom(type.table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  progress.begin('files', Number(row?.n ?? 0));
  const place = async (name: string, url: string | undefined): Promise<boolean> => {
    const target = join(work, 'assets/uploads', name);
    if (existsSync(target)) return true;
    const local = join(uploadsDir, name);
    if (existsSync(local)) {
      await symlink(local, target);
      result.bytes += (await stat(local)).size;
      return true;
    }
    if (url && /^https?:\/\//.test(url)) {
      const response = await fetch(url);
      if (!response.ok || !response.body) {
        summary.note(`file ${name}: ${url} answered ${response.status}; left out`);
        return false;
      }
      await pipeline(
        Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
        createWriteStream(target),
      );
      result.bytes += (await stat(target)).size;
      return true;
    }
    summary.note(`file ${name}: not in ${uploadsDir} and no absolute url to fetch it from; left out`);
    return false;
  };
  for (let after = 0; ;) {
    const rows = await reader.versions(type, after, PAGE);
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    for (const file of rows) {
      const values = file.values as Json & {
        hash?: string;
        ext?: string;
        url?: string;
        formats?: Record<string, FormatJson> | null;
      };
      if (typeof values.hash !== 'string') continue;
      const name = `${values.hash}${values.ext ?? ''}`;
      if (!/^[A-Za-z0-9_.-]+$/.test(name))
        throw new TransferError(`file ${file.id}: unsafe stored name ${JSON.stringify(name)}`);
      if (await place(name, values.url)) {
        const metadata = {
          id: file.id,
          documentId: file.documentId,
          ...values,
          createdAt: file.createdAt,
          updatedAt: file.updatedAt,
          publishedAt: file.publishedAt,
          locale: null,
        };
        await writeFile(join(work, 'assets/metadata', `${name}.json`), JSON.stringify(metadata));
        result.count++;
      }
      for (const [key, format] of Object.entries(values.formats ?? {})) {
        if (!format || typeof format.hash !== 'string') continue;
        const formatName = `${format.hash}${format.ext ?? ''}`;
        if (!/^[A-Za-z0-9_.-]+$/.test(formatName)) continue;
        if (await place(formatName, format.url)) {
          await writeFile(
            join(work, 'assets/metadata', `${formatName}.json`),
            JSON.stringify({ ...format, type: key, id: file.id, mainHash: values.hash }),
          );
          result.count++;
        }
      }
      progress.tick();
    }
  }
  progress.end();
  return result;
}
