/**
 * `vellum import --file <archive>`: restores what `strapi export` (or `vellum export`) wrote into
 * a project's database and storage. Two reads of the archive: the first checks it (metadata,
 * schemas) and counts what it holds, the second writes as it reads: entities in batches of one
 * transaction each, assets straight into storage, links set aside on disk until every entity has
 * its row (an archive may order its folders as it likes). Every write is an upsert keyed by
 * documentId, locale and publication state, so a second run after a failure completes the first
 * and a run on an imported project changes nothing.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { once } from 'node:events';
import type { Audited } from '../../core/documents/service.js';
import { TransferError, ValidationError } from '../../core/errors.js';
import { RoleTransfer, type RoleImportPlan } from '../admin-roles/index.js';
import { AdminRolesPart } from './admin-roles-part.js';
import { archiveEntries, jsonLines, parseLine, readText, textLines } from './tar.js';
import { ADMIN_PERMISSION_UID, ADMIN_ROLE_UID, ImportState, type Entity, type Link } from './import-state.js';
import type { Progress } from './progress.js';
import type { TransferProject } from './project.js';
import { Summary } from './summary.js';

const BATCH = 200;
const LINK_BATCH = 2000;

interface Scan {
  version: string | null;
  entities: number;
  links: number;
  assets: number;
  assetBytes: number;
  /** Entities per type, as the archive counts them. */
  perType: Map<string, number>;
  /** Administrators' roles and permissions (admin-roles-part.ts), read whole here. */
  adminRoles: AdminRolesPart;
}

/** The first read: is it an archive of Strapi's format, and how much does it hold. */
async function scan(file: string, progress: Progress): Promise<Scan> {
  const result: Scan = {
    version: null,
    entities: 0,
    links: 0,
    assets: 0,
    assetBytes: 0,
    perType: new Map(),
    adminRoles: new AdminRolesPart(),
  };
  let metadata = false;
  progress.begin('checking the archive');
  for await (const entry of archiveEntries(file)) {
    if (entry.path === 'metadata.json') {
      let parsed: unknown;
      const text = await readText(entry.body); // an unreadable archive fails here, as itself
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new TransferError(`${file}: metadata.json is not JSON: not an archive of strapi export`);
      }
      metadata = true;
      const strapi = (parsed as { strapi?: { version?: unknown } }).strapi;
      result.version = typeof strapi?.version === 'string' ? strapi.version : null;
    } else if (entry.path.startsWith('entities/') && entry.path.endsWith('.jsonl')) {
      for await (const { text, line } of textLines(entry.body, entry.path)) {
        const value = parseLine(text, entry.path, line);
        const type = (value as Entity).type;
        result.entities++;
        result.perType.set(type, (result.perType.get(type) ?? 0) + 1);
        if (type === ADMIN_ROLE_UID || type === ADMIN_PERMISSION_UID)
          result.adminRoles.entity(value, `${entry.path}, line ${line}`);
        progress.tick();
      }
    } else if (entry.path.startsWith('links/') && entry.path.endsWith('.jsonl')) {
      // Only the roles' links are read now (the others when they are written): a line naming them is parsed.
      for await (const { text, line } of textLines(entry.body, entry.path)) {
        result.links++;
        if (text.includes(`"${ADMIN_PERMISSION_UID}"`))
          result.adminRoles.link(parseLine(text, entry.path, line), `${entry.path}, line ${line}`);
      }
    } else if (entry.path.startsWith('assets/uploads/')) {
      result.assets++;
      result.assetBytes += entry.size;
    }
  }
  progress.end();
  if (!metadata)
    throw new TransferError(
      `${file} has no metadata.json: not an archive of strapi export (an encrypted archive must be decrypted first: strapi export --no-encrypt)`,
    );
  return result;
}

/** Entities of one type in a row, written together. */
class EntityBatches {
  private type: string | undefined;
  private batch: Entity[] = [];

  constructor(private readonly flush: (type: string, batch: Entity[]) => Promise<void>) {}

  async add(entity: Entity): Promise<void> {
    if (this.type !== entity.type || this.batch.length >= BATCH) await this.drain();
    this.type = entity.type;
    this.batch.push(entity);
  }

  async drain(): Promise<void> {
    if (this.type && this.batch.length) await this.flush(this.type, this.batch);
    this.batch = [];
  }
}

const isEntity = (value: unknown): value is Entity =>
  !!value &&
  typeof value === 'object' &&
  typeof (value as Entity).type === 'string' &&
  (value as Entity).id !== undefined &&
  !!(value as Entity).data &&
  typeof (value as Entity).data === 'object';

/** Writes a line to a spool file, waiting when the disk is slower than the archive. */
async function spool(out: WriteStream, line: unknown): Promise<void> {
  if (!out.write(`${JSON.stringify(line)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
}

/**
 * Imports an archive into a project. `audited`: where the changes to administrators' roles are
 * recorded, in their transaction (the CLI's: Vellum's own, no administrator).
 */
export async function importArchive(
  project: TransferProject,
  file: string,
  progress: Progress,
  audited?: Audited,
): Promise<Summary> {
  const scanned = await scan(file, progress);
  // Administrators' roles are checked whole before anything is written (a refusal writes nothing).
  const archivedRoles = scanned.adminRoles.result();
  const roleTransfer = new RoleTransfer(project.database, project.auth.adminRoles, () => project.schema);
  const rolePlan = archivedRoles.roles.length ? await roleTransfer.plan(archivedRoles.roles) : undefined;
  const summary = new Summary('archive', file);
  summary.sourceVersion = scanned.version;
  if (scanned.version && !scanned.version.startsWith('5.')) {
    summary.note(
      `the archive comes from Strapi ${scanned.version}; Vellum reads Strapi 5's format (documentId), older archives may miss documentIds`,
    );
  }
  const state = new ImportState(project, summary, progress);
  await state.prepare();
  const work = await mkdtemp(join(tmpdir(), 'vellum-import-'));
  const linksFile = join(work, 'links.jsonl');
  const links = createWriteStream(linksFile);
  // Open before anything can fail (import-api.ts says why).
  await once(links, 'ready');
  try {
    const batches = new EntityBatches((type, batch) => state.entities(type, batch));
    let inEntities = false;
    for await (const entry of archiveEntries(file)) {
      if (entry.path.startsWith('entities/') && entry.path.endsWith('.jsonl')) {
        if (!inEntities) progress.begin('entities', scanned.entities);
        inEntities = true;
        for await (const line of jsonLines(entry.body, entry.path)) {
          if (!isEntity(line))
            throw new TransferError(`${entry.path}: a line that is not an entity ({ type, id, data })`);
          await batches.add(line);
        }
        await batches.drain();
      } else if (entry.path.startsWith('links/') && entry.path.endsWith('.jsonl')) {
        for await (const line of jsonLines(entry.body, entry.path)) await spool(links, line);
      } else if (entry.path.startsWith('assets/metadata/') && entry.path.endsWith('.json')) {
        state.assetMetadata(basename(entry.path).slice(0, -'.json'.length), await readText(entry.body));
      } else if (entry.path.startsWith('assets/uploads/')) {
        if (inEntities || state.assetsStored === 0) progress.begin('assets', scanned.assets);
        inEntities = false;
        await state.asset(basename(entry.path), entry.size, Readable.from(entry.body));
        progress.tick();
      } else if (entry.path.startsWith('configuration/') && entry.path.endsWith('.jsonl')) {
        for await (const line of jsonLines(entry.body, entry.path)) await state.configuration(line);
      }
    }
    progress.end();
    links.end();
    await finished(links);

    progress.begin('links', scanned.links);
    let batch: Link[] = [];
    for await (const line of jsonLines(createReadStream(linksFile), 'links')) {
      batch.push(line as Link);
      if (batch.length >= LINK_BATCH) {
        await state.links(batch);
        progress.tick(batch.length);
        batch = [];
      }
    }
    await state.links(batch);
    progress.tick(batch.length);
    progress.end();
    await state.finish();
    if (rolePlan) await importRoles(roleTransfer, rolePlan, archivedRoles.orphans, summary, audited);
    else if (archivedRoles.orphans)
      summary.note(`${archivedRoles.orphans} administrator permission(s) belong to no role and were left out`);
  } catch (error) {
    links.destroy();
    if (error instanceof ValidationError) throw new TransferError(`${error.message}: ${JSON.stringify(error.details)}`);
    throw error;
  } finally {
    links.destroy();
    await finished(links).catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
  await summary.compare(project, scanned.perType, 'archive');
  if (rolePlan) {
    const roles = summary.types.get(ADMIN_ROLE_UID)!;
    const row = await project.database.system
      .selectFrom('admin_roles')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirst();
    roles.destination = Number(row?.n ?? 0);
  }
  summary.assets = { count: state.assetsStored, bytes: scanned.assetBytes };
  summary.peakRss = progress.peakRss;
  summary.note(
    "API tokens and administrators are not imported (administrators' roles are): create them with vellum token create and vellum admin create",
  );
  return summary;
}

/** Writes the archive's administrator roles (one transaction), and says in the summary what it did and left out. */
async function importRoles(
  transfer: RoleTransfer,
  plan: RoleImportPlan,
  orphans: number,
  summary: Summary,
  audited: Audited | undefined,
): Promise<void> {
  const result = await transfer.apply(plan, audited);
  summary.wrote(ADMIN_ROLE_UID, plan.roles.length);
  summary.wrote(
    ADMIN_PERMISSION_UID,
    plan.roles.reduce((n, { permissions }) => n + permissions.length, 0),
  );
  summary.note(
    `administrator roles: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged (matched by code; roles the archive does not have are kept as they are)`,
  );
  if (plan.superAdminPermissions)
    summary.note(
      `the Super Admin role keeps every action of this project (as Strapi resets it at each start): the archive's ${plan.superAdminPermissions} permission(s) of it were not read`,
    );
  const list = (map: Map<string, number>) => `${[...map.keys()].slice(0, 6).join(', ')}${map.size > 6 ? ', ...' : ''}`;
  const count = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  if (plan.unknownActions.size)
    summary.note(
      `${count(plan.unknownActions)} administrator permission(s) name actions Vellum does not have and were left out (${list(plan.unknownActions)})`,
    );
  if (plan.unknownSubjects.size)
    summary.note(
      `${count(plan.unknownSubjects)} administrator permission(s) name content-types this project does not have and were left out (${list(plan.unknownSubjects)}): add their schemas and import again`,
    );
  if (orphans)
    summary.note(`${orphans} administrator permission(s) belong to no role (an admin API token's) and were left out`);
}
