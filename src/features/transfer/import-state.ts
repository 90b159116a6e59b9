/**
 * What an import writes, from entities and links in the shape of Strapi's archives (the API import
 * produces the same shape from a running Strapi): versions through the raw row writer, the ids each
 * got (archive id -> row id, component id -> row id) to resolve links with, files into storage,
 * locales, users with their password hashes, roles with their grants.
 */
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { ROLE_UID, USER_UID } from '../users-permissions/index.js';
import type { RawVersion, RelationLinkInput, MediaLinkInput, RestoreSink } from '../../core/documents/service.js';
import { TransferError, ValidationError } from '../../core/errors.js';
import {
  FILE_UID,
  type ContentType,
  type LinkTable,
  type Model,
  type RelationAttribute,
} from '../../core/schema/model.js';
import type { Progress } from './progress.js';
import type { TransferProject, TransferWebhook } from './project.js';
import type { Summary } from './summary.js';

export const PERMISSION_UID = 'plugin::users-permissions.permission';
export const LOCALE_UID = 'plugin::i18n.locale';
/** Administrators' roles and their permissions: written apart (admin-roles-part.ts). */
export const ADMIN_ROLE_UID = 'admin::role';
export const ADMIN_PERMISSION_UID = 'admin::permission';
const FOLDER_UID = 'plugin::upload.folder';

/** A line of `entities/*.jsonl`: one row (version) of a type. */
export interface Entity {
  type: string;
  id: number | string;
  data: Record<string, unknown>;
}

interface LinkEnd {
  type: string;
  ref: number | string;
  field?: string;
  pos?: number;
}

/** A line of `links/*.jsonl`: a relation between two rows (or a file and the row using it). */
export interface Link {
  kind: string;
  relation?: string;
  left: LinkEnd;
  right: LinkEnd;
}

interface RowRef {
  id: number;
  documentId: string;
  locale: string | null;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** An archive id as a map key: a number when it is one (smaller maps: 100,000s of rows). */
type Ref = number | string;
const refKey = (ref: unknown): Ref =>
  typeof ref === 'number' ? ref : typeof ref === 'string' && /^\d{1,15}$/.test(ref) ? Number(ref) : String(ref);

const MIME_BY_EXT: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.mp4': 'video/mp4',
};

export class ImportState {
  private readonly rows = new Map<string, Map<Ref, RowRef>>();
  private readonly components = new Map<string, Map<Ref, number>>();
  private readonly permissions = new Map<Ref, string>();
  private readonly grants = new Map<Ref, Set<string>>();
  private readonly assetMime = new Map<string, string>();
  /** Stored files whose url differs from `/uploads/<name>` (another provider): name -> url. */
  private readonly urls = new Map<string, string>();
  private readonly rolesByType = new Map<string, string>();
  private readonly knownLocales = new Set<string>();
  /** The project's webhooks, read at the archive's first (an import adds each once). */
  private existingWebhooks: TransferWebhook[] | undefined;
  private readonly sink: RestoreSink;
  assetsStored = 0;

  constructor(
    private readonly project: TransferProject,
    private readonly summary: Summary,
    private readonly progress: Progress,
  ) {
    this.sink = {
      component: (uid, archiveId, id) => {
        // Only components that links can name (a relation or a media attribute of their own) are remembered.
        if (archiveId === undefined || archiveId === null || !this.linkable(uid)) return;
        let map = this.components.get(uid);
        if (!map) this.components.set(uid, (map = new Map()));
        map.set(refKey(archiveId), id);
      },
      skipped: (what) => this.summary.skip(what),
    };
  }

  private readonly linkableCache = new Map<string, boolean>();

  private linkable(uid: string): boolean {
    let value = this.linkableCache.get(uid);
    if (value === undefined) {
      const model = this.schema.components.get(uid);
      value = !!model && Object.values(model.attributes).some((a) => a.kind === 'relation' || a.kind === 'media');
      this.linkableCache.set(uid, value);
    }
    return value;
  }

  private get schema() {
    return this.project.schema;
  }

  /** What the project holds already that an archive's rows are matched against (roles by type). */
  async prepare(): Promise<void> {
    const roles = this.schema.contentTypes.get(ROLE_UID)!;
    for (const row of await this.project.database.db
      .selectFrom(roles.table)
      .select(['document_id', 'type'])
      .execute()) {
      this.rolesByType.set(row.type as string, row.document_id as string);
    }
    for (const code of this.project.documents.i18n.locales) this.knownLocales.add(code);
  }

  private remember(uid: string, archiveId: unknown, ref: RowRef): void {
    let map = this.rows.get(uid);
    if (!map) this.rows.set(uid, (map = new Map()));
    map.set(refKey(archiveId), ref);
  }

  /** The row an archive id names: a content-type's version or a component. */
  private rowId(uid: string, ref: unknown): number | undefined {
    return this.rows.get(uid)?.get(refKey(ref))?.id ?? this.components.get(uid)?.get(refKey(ref));
  }

  async entities(type: string, batch: Entity[]): Promise<void> {
    try {
      await this.write(type, batch);
    } finally {
      this.progress.tick(batch.length);
    }
  }

  private async write(uid: string, batch: Entity[]): Promise<void> {
    if (uid === PERMISSION_UID) {
      for (const entity of batch)
        if (typeof entity.data.action === 'string') this.permissions.set(refKey(entity.id), entity.data.action);
      this.summary.wrote(uid, batch.length);
      return;
    }
    if (uid === LOCALE_UID) {
      for (const entity of batch) {
        const code = str(entity.data.code);
        if (!code) continue;
        const { documentId, name, createdAt, updatedAt, publishedAt } = entity.data;
        await this.project.documents.locales.restore({
          code,
          name: str(name),
          documentId: str(documentId),
          createdAt,
          updatedAt,
          publishedAt,
        });
        this.knownLocales.add(code);
      }
      this.summary.wrote(uid, batch.length);
      return;
    }
    if (uid === FOLDER_UID) {
      this.summary.leftOut(
        uid,
        batch.length,
        'Vellum has no media folders: files keep their folderPath and show at the root',
      );
      return;
    }
    // Read whole by the first read of the archive, written after the content (import-archive.ts).
    if (uid === ADMIN_ROLE_UID || uid === ADMIN_PERMISSION_UID) return;
    const type = this.schema.contentTypes.get(uid);
    if (!type) {
      if (uid.startsWith('admin::'))
        this.summary.leftOut(
          uid,
          batch.length,
          'administrators, their tokens and sessions do not travel: create them here (vellum admin, vellum token)',
        );
      else if (uid.startsWith('api::'))
        this.summary.leftOut(
          uid,
          batch.length,
          'no such content-type in this project: add its schema to src/api and import again',
        );
      else this.summary.leftOut(uid, batch.length, 'a plugin Vellum does not have');
      return;
    }
    const versions = await this.versionsOf(type, batch);
    let ids: number[];
    try {
      ids = await this.project.documents.raw.write((writer) => writer.versions(type, versions, this.sink));
    } catch (error) {
      // Name the entity the database refuses: again one at a time.
      if (batch.length > 1 && error instanceof ValidationError) {
        for (const entity of batch) await this.write(uid, [entity]);
        return;
      }
      const entity = batch[0]!;
      throw new TransferError(
        `${uid} ${String(entity.data.documentId)} (archive id ${entity.id}${versions[0]?.locale ? `, locale ${versions[0].locale}` : ''}) could not be written: ${(error as Error).message}` +
          (error instanceof ValidationError
            ? ` ${JSON.stringify(error.details)}. Another document of this project holds a unique value it has: change or delete it, then import again`
            : ''),
      );
    }
    batch.forEach((entity, i) =>
      this.remember(uid, entity.id, { id: ids[i]!, documentId: versions[i]!.documentId, locale: versions[i]!.locale }),
    );
    this.summary.wrote(uid, batch.length);
  }

  /** An archive's entities as versions: locales known, roles matched by type, users by email. */
  private async versionsOf(type: ContentType, batch: Entity[]): Promise<RawVersion[]> {
    const versions: RawVersion[] = [];
    for (const entity of batch) {
      const { documentId, locale, publishedAt, createdAt, updatedAt, ...values } = entity.data;
      if (typeof documentId !== 'string' || documentId === '')
        throw new TransferError(`${type.uid} archive id ${entity.id} has no documentId (not an archive of Strapi 5)`);
      let code: string | null = null;
      if (type.localized) {
        code = typeof locale === 'string' && locale ? locale : this.project.documents.i18n.defaultLocale;
        if (!this.knownLocales.has(code)) {
          await this.project.documents.locales.add(code);
          this.knownLocales.add(code);
          this.summary.note(`locale ${code} added (documents of ${type.uid} are written in it)`);
        }
      }
      versions.push({ documentId, locale: code, publishedAt: publishedAt ?? null, createdAt, updatedAt, values });
    }
    if (type.uid === ROLE_UID) {
      // Public and Authenticated exist in every project: an archive's roles of those types are them.
      for (const version of versions) {
        const kind = str(version.values.type);
        const existing = kind ? this.rolesByType.get(kind) : undefined;
        if (existing) version.documentId = existing;
        else if (kind) this.rolesByType.set(kind, version.documentId);
      }
    }
    if (type.uid === USER_UID) {
      const emails = versions.map((v) => str(v.values.email)).filter((e): e is string => !!e);
      if (emails.length) {
        const rows = await this.project.database.db
          .selectFrom(type.table)
          .select(['id', 'document_id', 'email', 'password'])
          .where('email', 'in', emails)
          .execute();
        const byEmail = new Map(rows.map((row) => [row.email as string, row]));
        for (const version of versions) {
          const existing = byEmail.get(str(version.values.email) ?? '');
          if (!existing) continue;
          version.documentId = existing.document_id as string;
          // A password replaced by the archive's: what was signed in with the old one ends (JWTs and sessions).
          if ('password' in version.values && version.values.password !== existing.password)
            await this.project.auth.account.revokeJwts(Number(existing.id));
        }
      }
    }
    return versions;
  }

  assetMetadata(name: string, text: string): void {
    try {
      const metadata = JSON.parse(text) as { mime?: unknown };
      if (typeof metadata.mime === 'string') this.assetMime.set(name, metadata.mime);
    } catch {
      this.summary.skip(`assets/metadata/${name}.json (not JSON)`);
    }
  }

  /** Puts a file's bytes into storage under its archived name (`<hash><ext>`). */
  async asset(name: string, size: number, stream: Readable): Promise<void> {
    const ext = extname(name);
    const hash = name.slice(0, name.length - ext.length);
    const file = {
      name,
      hash,
      ext,
      mime: this.assetMime.get(name) ?? MIME_BY_EXT[ext.toLowerCase()] ?? 'application/octet-stream',
      size: Math.round((size / 1000) * 100) / 100,
      sizeInBytes: size,
      path: null,
      stream,
      url: undefined as string | undefined,
    };
    try {
      await (this.project.provider.uploadStream ?? this.project.provider.upload).call(this.project.provider, file);
    } catch (error) {
      // Stored by an earlier run (the local provider never overwrites): the same bytes.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new TransferError(`assets/uploads/${name}: storage refused it: ${(error as Error).message}`);
      stream.destroy();
    }
    if (file.url && file.url !== `/uploads/${name}`) this.urls.set(name, file.url);
    this.assetsStored++;
  }

  /**
   * Strapi's core-store settings: kept as they are in the same table (project code reads them with
   * `strapi.store`; an export gives them back); the default locale and registration also apply here.
   */
  async configuration(line: unknown): Promise<void> {
    const entry = line as {
      type?: unknown;
      value?: { key?: unknown; value?: unknown; type?: unknown; environment?: unknown; tag?: unknown };
    };
    if (entry.type === 'webhook') return this.webhook(entry.value);
    if (entry.type !== 'core-store' || !entry.value) return;
    const { key, value } = entry.value;
    if (typeof key === 'string')
      await this.storeSetting(key, value, entry.value.type, entry.value.environment, entry.value.tag);
    if (key === 'plugin_i18n_default_locale' && typeof value === 'string') {
      if (!this.knownLocales.has(value)) await this.project.documents.locales.add(value);
      await this.project.documents.locales.setDefault(value);
      this.knownLocales.add(value);
    } else if (key === 'plugin_users-permissions_advanced' && value && typeof value === 'object') {
      const allow = (value as { allow_register?: unknown }).allow_register;
      if (typeof allow === 'boolean') await this.project.auth.setRegistrationOpen(allow);
    }
  }

  /**
   * A webhook of the archive (Strapi's `strapi::webhook` row): created as the admin API would create
   * it, unless one with its name and URL is there (a second import adds nothing); one Vellum refuses
   * (an event it does not send, a private address) is left out, and the summary says why.
   */
  private async webhook(value: unknown): Promise<void> {
    if (!value || typeof value !== 'object') return;
    const row = value as { name?: unknown; url?: unknown; headers?: unknown; events?: unknown; enabled?: unknown };
    const webhook = {
      name: String(row.name ?? ''),
      url: String(row.url ?? ''),
      headers: (row.headers && typeof row.headers === 'object' ? row.headers : {}) as Record<string, string>,
      events: (Array.isArray(row.events) ? row.events : []) as string[],
      isEnabled: row.enabled !== false,
    };
    this.existingWebhooks ??= await this.project.webhooks.list();
    if (this.existingWebhooks.some((known) => known.name === webhook.name && known.url === webhook.url)) return;
    try {
      await this.project.webhooks.create(webhook);
      this.existingWebhooks.push(webhook);
      this.summary.wrote('webhooks', 1);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      this.summary.leftOut('webhooks', 1, `refused: ${error.message}`);
    }
  }

  private async storeSetting(
    key: string,
    value: unknown,
    type: unknown,
    environment: unknown,
    tag: unknown,
  ): Promise<void> {
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    const scope = { key, environment: text(environment), tag: text(tag) };
    const values = { value: JSON.stringify(value) ?? null, type: text(type) ?? typeof value };
    await this.project.database.write(async (trx) => {
      let query = trx.selectFrom('strapi_core_store_settings').select('id').where('key', '=', key);
      query =
        scope.environment === null
          ? query.where('environment', 'is', null)
          : query.where('environment', '=', scope.environment);
      query = scope.tag === null ? query.where('tag', 'is', null) : query.where('tag', '=', scope.tag);
      const row = await query.executeTakeFirst();
      if (row) await trx.updateTable('strapi_core_store_settings').set(values).where('id', '=', row.id).execute();
      else
        await trx
          .insertInto('strapi_core_store_settings')
          .values({ ...scope, ...values })
          .execute();
    });
  }

  /** Writes a batch of links: relations, media, a permission's role; the rest is left out. */
  async links(batch: Link[]): Promise<void> {
    const relations = new Map<LinkTable, RelationLinkInput[]>();
    const media: MediaLinkInput[] = [];
    for (const link of batch) {
      if (!link?.left || !link.right) continue;
      const { left, right } = link;
      if (left.field === 'localizations' || right.field === 'localizations') continue;
      if (left.type === PERMISSION_UID && left.field === 'role') {
        const action = this.permissions.get(refKey(left.ref));
        if (action) {
          const role = refKey(right.ref);
          if (!this.grants.has(role)) this.grants.set(role, new Set());
          this.grants.get(role)!.add(action);
        }
        continue;
      }
      if (left.type === FILE_UID && left.field === 'related') {
        const fileId = this.rowId(FILE_UID, left.ref);
        const relatedId = this.rowId(right.type, right.ref);
        if (fileId === undefined || relatedId === undefined || !right.field) {
          this.summary.skip(`media link of ${right.type}.${right.field ?? '?'} (file or row not in the archive)`);
          continue;
        }
        media.push({ fileId, relatedId, relatedType: right.type, field: right.field, ord: right.pos ?? null });
        continue;
      }
      if (left.type === FILE_UID || left.type === FOLDER_UID || left.type.startsWith('admin::')) continue;
      this.relation(link, relations);
    }
    if (media.length === 0 && relations.size === 0) return;
    await this.project.documents.raw.write(async (writer) => {
      for (const [table, rows] of relations) await writer.relationLinks(table, rows);
      await writer.mediaLinks(media);
    });
  }

  private relation(link: Link, into: Map<LinkTable, RelationLinkInput[]>): void {
    let { left, right } = link;
    const model = (uid: string): Model | undefined =>
      this.schema.contentTypes.get(uid) ?? this.schema.components.get(uid);
    let attribute = left.field ? model(left.type)?.attributes[left.field] : undefined;
    if (attribute?.kind === 'relation' && !attribute.owner && right.field) {
      // The archive names the link from the side Vellum does not store it on.
      const other = model(right.type)?.attributes[right.field];
      if (other?.kind === 'relation' && other.owner) {
        // The link seen from the inverse side: its `pos` is the owner's place in the inverse list.
        [left, right] = [{ ...right, pos: undefined }, { ...left }];
        attribute = other;
        const owner = this.rowId(left.type, left.ref);
        const target = this.rows.get(other.target)?.get(refKey(right.ref));
        if (owner !== undefined && target) {
          const targetType = this.schema.contentTypes.get(other.target)!;
          const rows = into.get(other.link) ?? [];
          into.set(other.link, rows);
          rows.push({
            entityId: owner,
            documentId: target.documentId,
            locale: targetType.localized ? target.locale : null,
            targetOrd: null,
            entityOrd: right.pos ?? null,
          });
          return;
        }
      }
    }
    if (attribute?.kind !== 'relation' || !attribute.owner) {
      if (!this.schema.contentTypes.has(left.type) && !this.schema.components.has(left.type)) return;
      this.summary.skip(`relation ${left.type}.${left.field ?? '?'} (no such relation in this project)`);
      return;
    }
    const owner = this.rowId(left.type, left.ref);
    const target = this.rows.get((attribute as RelationAttribute).target)?.get(refKey(right.ref));
    if (owner === undefined || !target) {
      this.summary.skip(`relation ${left.type}.${left.field} (a row it links is not in the archive)`);
      return;
    }
    const targetType = this.schema.contentTypes.get(attribute.target)!;
    const rows = into.get(attribute.link) ?? [];
    into.set(attribute.link, rows);
    rows.push({
      entityId: owner,
      documentId: target.documentId,
      locale: targetType.localized ? target.locale : null,
      targetOrd: left.pos ?? null,
      entityOrd: right.pos ?? null,
    });
  }

  /**
   * After every link: versions the source does not have are removed from the documents it has
   * (a re-import after a draft was discarded or a locale deleted there); roles get the grants the
   * archive gives them; files their new urls.
   */
  async finish(): Promise<void> {
    for (const [uid, refs] of this.rows) {
      const type = this.schema.contentTypes.get(uid);
      if (!type || uid === ROLE_UID || uid === USER_UID) continue;
      const written = [...refs.values()];
      const documentIds = [...new Set(written.map((ref) => ref.documentId))];
      const removed = await this.project.documents.raw.write((writer) =>
        writer.staleVersions(type, documentIds, new Set(written.map((ref) => ref.id))),
      );
      if (removed)
        this.summary.note(`${uid}: ${removed} version(s) the source does not have were removed from its documents`);
    }
    const known = new Set(this.project.auth.actions);
    const unknown = new Set<string>();
    for (const [roleRef, actions] of this.grants) {
      const role = this.rows.get(ROLE_UID)?.get(roleRef);
      if (!role) continue;
      const grantable = [...actions].filter((action) => known.has(action));
      for (const action of actions) if (!known.has(action)) unknown.add(action);
      const roles = this.project.auth.roles;
      const current = [...(await roles.actionsOf(role.documentId))].filter((action) => !grantable.includes(action));
      await roles.revoke(role.documentId, current);
      await roles.grant(role.documentId, grantable);
    }
    if (unknown.size) {
      this.summary.note(
        `${unknown.size} permission(s) name actions Vellum does not have and were left out (${[...unknown].slice(0, 6).join(', ')}${unknown.size > 6 ? ', ...' : ''})`,
      );
    }
    if (this.urls.size) await this.fixUrls();
  }

  /** Another storage than the local folder gives other urls: the files' rows follow. */
  private async fixUrls(): Promise<void> {
    const files = this.schema.contentTypes.get(FILE_UID)!;
    const ids = [...(this.rows.get(FILE_UID)?.values() ?? [])].map((ref) => ref.id);
    const { db } = this.project.database;
    for (let i = 0; i < ids.length; i += 200) {
      const rows = await db
        .selectFrom(files.table)
        .select(['id', 'hash', 'ext', 'url', 'formats'])
        .where('id', 'in', ids.slice(i, i + 200))
        .execute();
      await this.project.database.write(async (trx) => {
        for (const row of rows) {
          const url = this.urls.get(`${String(row.hash)}${String(row.ext ?? '')}`);
          let formats = row.formats as unknown;
          if (typeof formats === 'string') formats = JSON.parse(formats);
          let changed = false;
          if (formats && typeof formats === 'object') {
            for (const format of Object.values(
              formats as Record<string, { hash?: string; ext?: string; url?: string }>,
            )) {
              const next = this.urls.get(`${format.hash}${format.ext ?? ''}`);
              if (next && format.url !== next) {
                format.url = next;
                changed = true;
              }
            }
          }
          if (url || changed) {
            await trx
              .updateTable(files.table)
              .set({ ...(url ? { url } : {}), ...(changed ? { formats: JSON.stringify(formats) } : {}) })
              .where('id', '=', row.id)
              .execute();
          }
        }
      });
    }
  }
}
