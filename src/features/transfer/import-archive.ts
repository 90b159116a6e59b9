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
import { TransferError, ValidationError } from '../../core/errors.js';
import { archiveEntries, jsonLines, readText } from './tar.js';
import { ImportState, type Entity, type Link } from './import-state.js';
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
}

const countLines = async (body: AsyncIterable<Buffer>): Promise<number> => {
  let lines = 0;
  let last = 10;
  for await (const chunk of body) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    if (chunk.length) last = chunk[chunk.length - 1]!;
  }
  return last === 10 ? lines : lines + 1;
};

/** The first read: is it an archive of Strapi's format, and how much does it hold. */
async function scan(file: string, progress: Progress): Promise<Scan> {
  const result: Scan = { version: null, entities: 0, links: 0, assets: 0, assetBytes: 0, perType: new Map() };
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
      for await (const line of jsonLines(entry.body, entry.path)) {
        const type = (line as Entity).type;
        result.entities++;
        result.perType.set(type, (result.perType.get(type) ?? 0) + 1);
        progress.tick();
      }
    } else if (entry.path.startsWith('links/') && entry.path.endsWith('.jsonl')) {
      result.links += await countLines(entry.body);
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

export async function importArchive(project: TransferProject, file: string, progress: Progress): Promise<Summary> {
  const scanned = await scan(file, progress);
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
  } catch (error) {
    links.destroy();
    if (error instanceof ValidationError) throw new TransferError(`${error.message}: ${JSON.stringify(error.details)}`);
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  await summary.compare(project, scanned.perType, 'archive');
  summary.assets = { count: state.assetsStored, bytes: scanned.assetBytes };
  summary.peakRss = progress.peakRss;
  summary.note(
    'API tokens and administrators are not part of an archive: create them with vellum token create and vellum admin create',
  );
  return summary;
}
