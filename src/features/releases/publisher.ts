/**
 * Publishing a release, all or nothing, once. One write transaction:
 *
 * 1. claims the release with one conditional UPDATE (`released_at` set, status `done`, where it is
 *    still unreleased and not failed): a second caller (another node, a double click, the
 *    scheduler) blocks on that row until the first commits, then matches no row and is answered
 *    Strapi's "Release already published";
 * 2. carries out every action through the document service on that same transaction (publish
 *    rules, lifecycles, middlewares, the entries' own webhook events and audit entries), the types
 *    in relation order as Strapi (a type's relation targets first), publishes before unpublishes;
 * 3. records the `releases.publish` webhook event (`{ isPublished: true, release }`, Strapi's
 *    payload) in the outbox.
 *
 * Any failure rolls all of it back; then a second transaction marks the release `failed` with the
 * reason and records `{ isPublished: false, error }`, and the error is the answer (an entry's
 * ValidationError is a 400, as Strapi answers it).
 *
 * Scheduled releases are published by a leased job (one node per tick): the releases due are
 * looked up by the (released_at, scheduled_at) index and each is published as above.
 */
import type { Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import { BACKGROUND, shaped } from '../../core/database/system-tables.js';
import type { CallerOptions } from '../../core/documents/context.js';
import { recordAudit, type Audited, type DocumentService, type Outbox } from '../../core/documents/service.js';
import { NotFoundError, ValidationError, VellumError } from '../../core/errors.js';
import type { ContentType, Schema } from '../../core/schema/model.js';
import { componentUids } from '../../core/schema/reachable.js';
import type { PublishAnswer, Release } from './contract.js';
import { presentRelease } from './present.js';
import type { Releases } from './releases.js';
import { RELEASES_TABLE, RELEASE_ACTIONS_TABLE, type ReleaseActionRow, type ReleaseRow } from './tables.js';

type Log = (message: string, error?: unknown) => void;

/** Releases one look of the scheduler publishes at most (the next look takes the rest). */
const BATCH = 10;

/** A leased job for the node's scheduler (features/events/cron.ts runs it on one node per tick). */
export interface ReleaseJob {
  key: string;
  next(after: Date): Date | null;
  due(): Promise<boolean>;
  run(tick: Date): Promise<void>;
}

/** Why a release was not claimed: thrown before anything ran, so it neither fails the release nor fires a webhook. */
class Unclaimed extends Error {
  constructor(readonly refusal: VellumError) {
    super(refusal.message);
  }
}

/** The content types in the order Strapi publishes them: each after the types of the release its relations point to. */
export function publishOrder(schema: Schema, uids: string[]): string[] {
  const inRelease = new Set(uids);
  const targets = (uid: string, seen = new Set<string>()): Set<string> => {
    const found = new Set<string>();
    if (seen.has(uid)) return found;
    seen.add(uid);
    const model = schema.contentTypes.get(uid) ?? schema.components.get(uid);
    for (const attribute of Object.values(model?.attributes ?? {})) {
      if (attribute.kind === 'relation') found.add(attribute.target);
      else for (const component of componentUids(attribute)) for (const t of targets(component, seen)) found.add(t);
    }
    return found;
  };
  const sorted: string[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (uid: string) => {
    if (done.has(uid) || visiting.has(uid)) return;
    visiting.add(uid);
    for (const target of targets(uid)) if (target !== uid && inRelease.has(target)) visit(target);
    visiting.delete(uid);
    done.add(uid);
    sorted.push(uid);
  };
  for (const uid of uids) visit(uid);
  return sorted;
}

/** An error as the failure webhook carries it (Strapi serialises its error's own keys: name, details). */
function errorPayload(error: unknown): Record<string, unknown> {
  if (error instanceof VellumError) return { name: error.name, message: error.message, details: error.details };
  return { name: 'ApplicationError', message: 'The release could not be published' };
}

/** The reason stored on a failed release: an entry's refusal as its message says it. */
function reasonOf(
  error: unknown,
  action?: { content_type: string; entry_document_id: string | null; locale: string | null },
): string {
  const base =
    error instanceof VellumError
      ? typeof error.details.reason === 'string'
        ? error.details.reason
        : error.message
      : 'An unexpected error stopped the publication';
  if (!action) return base;
  return `${action.content_type} ${action.entry_document_id ?? ''}${action.locale ? ` (${action.locale})` : ''}: ${base}`;
}

export class ReleasePublisher {
  constructor(
    private readonly database: Database,
    private readonly documents: DocumentService,
    private readonly releases: Releases,
    private readonly outbox: Outbox | undefined,
    private readonly log: Log,
  ) {}

  /**
   * Publishes the release `id`; `audited`: the administrator, whose entry writes are audited as
   * theirs, with `release.trigger` (the scheduler publishes as Vellum itself: no entries).
   */
  async publish(id: number | null, audited?: Audited): Promise<PublishAnswer> {
    if (id === null) throw new NotFoundError('No release found for id ');
    const actor = audited?.actor ?? null;
    const caller: CallerOptions | undefined = actor === null ? undefined : { actor };
    let failing: Selectable<ReleaseActionRow> | undefined;
    try {
      const answer = await this.database.write(async (trx) => {
        failing = undefined;
        const now = Date.now();
        const claimed = await shaped<ReleaseRow>(trx)
          .updateTable(RELEASES_TABLE)
          .set({ status: 'done', released_at: now, updated_at: now, failure: null })
          .where('id', '=', id)
          .where('released_at', 'is', null)
          .where('status', '<>', 'failed')
          .where('cancelled_at', 'is', null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) {
          const row = await shaped<ReleaseRow>(trx)
            .selectFrom(RELEASES_TABLE)
            .select(['released_at', 'status', 'cancelled_at'])
            .where('id', '=', id)
            .executeTakeFirst();
          if (!row) throw new Unclaimed(new NotFoundError(`No release found for id ${id}`));
          if (row.released_at !== null) throw new Unclaimed(new ValidationError('Release already published'));
          if (row.cancelled_at !== null) throw new Unclaimed(new ValidationError('Release cancelled'));
          throw new Unclaimed(new ValidationError('Release failed to publish'));
        }
        const actions = await shaped<ReleaseActionRow>(trx)
          .selectFrom(RELEASE_ACTIONS_TABLE)
          .selectAll()
          .where('release_id', '=', id)
          .orderBy('id')
          .execute();
        if (actions.length === 0) throw new ValidationError('No entries to publish');
        // The documents on this transaction: each publish runs on it, none commits alone.
        const documents = this.documents.underLock(trx);
        const byType = new Map<
          string,
          { publish: Selectable<ReleaseActionRow>[]; unpublish: Selectable<ReleaseActionRow>[] }
        >();
        for (const action of actions) {
          const group = byType.get(action.content_type) ?? { publish: [], unpublish: [] };
          group[action.type].push(action);
          byType.set(action.content_type, group);
        }
        for (const uid of publishOrder(this.documents.schema, [...byType.keys()])) {
          const group = byType.get(uid)!;
          let type: ContentType | undefined;
          for (const action of [...group.publish, ...group.unpublish]) {
            failing = action;
            type ??= this.documents.schema.contentTypes.get(uid);
            if (!type) throw new NotFoundError(`No content type found for uid ${uid}`);
            const params = { documentId: action.entry_document_id ?? undefined, locale: action.locale ?? undefined };
            if (action.type === 'publish') await documents.of(type).publish(params, caller);
            else await documents.of(type).unpublish(params, caller);
          }
        }
        failing = undefined;
        const row = await this.releases.row(id, trx);
        const release = presentRelease(row);
        await this.record(trx, id, { isPublished: true, release });
        const published = actions.filter((action) => action.type === 'publish').length;
        await recordAudit(trx, audited, {
          action: 'release.trigger',
          subject: String(id),
          details: { name: row.name, outcome: 'success', published, unpublished: actions.length - published },
        });
        return {
          data: release,
          meta: {
            totalEntries: actions.length,
            totalPublishedEntries: published,
            totalUnpublishedEntries: actions.length - published,
          },
        };
      });
      this.outbox?.committed();
      return answer;
    } catch (error) {
      if (error instanceof Unclaimed) throw error.refusal;
      await this.fail(id, error, failing, audited);
      throw error;
    }
  }

  /** Records `releases.publish` for the webhooks listening to it, on `trx`. */
  private async record(
    trx: Parameters<Outbox['subscribers']>[0],
    id: number,
    info: Record<string, unknown>,
  ): Promise<void> {
    if (!this.outbox) return;
    const subscribers = await this.outbox.subscribers(trx);
    if (!subscribers.has('releases.publish')) return;
    await this.outbox.record(trx, subscribers, {
      event: 'releases.publish',
      key: `release:${id}`,
      info,
      createdAt: new Date(),
    });
  }

  /** After a rolled back publication: the release `failed` with its reason, and the failure's webhook event. */
  private async fail(
    id: number,
    error: unknown,
    action: Selectable<ReleaseActionRow> | undefined,
    audited: Audited | undefined,
  ): Promise<void> {
    if (!(error instanceof ValidationError || error instanceof NotFoundError))
      this.log(`Publishing release ${id} failed`, error);
    try {
      await this.database.write(async (trx) => {
        await shaped<ReleaseRow>(trx)
          .updateTable(RELEASES_TABLE)
          .set({ status: 'failed', failure: reasonOf(error, action), updated_at: Date.now() })
          .where('id', '=', id)
          .where('released_at', 'is', null)
          .execute();
        await this.record(trx, id, { isPublished: false, error: errorPayload(error) });
        await recordAudit(trx, audited, {
          action: 'release.trigger',
          subject: String(id),
          // The error's name only: a driver's error may carry row contents.
          details: { outcome: 'failure', reason: error instanceof Error ? error.name : 'Error' },
        });
      });
      this.outbox?.committed();
    } catch (marking) {
      this.log(`Could not mark release ${id} as failed`, marking);
    }
  }

  /** The scheduled releases due now, unpublished and not failed (ids, soonest first). */
  private async dueIds(limit: number): Promise<number[]> {
    const rows = await shaped<ReleaseRow>(this.database.db)
      .selectFrom(RELEASES_TABLE)
      .select('id')
      .where('released_at', 'is', null)
      .where('scheduled_at', '<=', Date.now())
      .where('status', '<>', 'failed')
      .where('cancelled_at', 'is', null)
      .orderBy('scheduled_at')
      .orderBy('id')
      .limit(limit)
      .modifyEnd(BACKGROUND)
      .execute();
    return rows.map((row) => Number(row.id));
  }

  /** Publishes the scheduled releases due; each failure is the release's (marked failed), not the job's. */
  async runDue(): Promise<Release[]> {
    const published: Release[] = [];
    for (const id of await this.dueIds(BATCH)) {
      try {
        published.push((await this.publish(id)).data);
      } catch (error) {
        if (!(error instanceof VellumError)) this.log(`Scheduled release ${id} failed`, error);
      }
    }
    return published;
  }

  /** The leased job looking for scheduled releases every `interval` ms. */
  job(interval: number): ReleaseJob {
    return {
      key: 'vellum:scheduled-releases',
      next: (after) => new Date((Math.floor(after.getTime() / interval) + 1) * interval),
      due: async () => (await this.dueIds(1)).length > 0,
      run: async () => {
        await this.runDue();
      },
    };
  }
}
