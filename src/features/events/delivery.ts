/**
 * Delivery of the webhook events writes recorded (webhooks.ts), from every node. Each node polls
 * the delivery table (and looks at once after a local write) and claims due deliveries in a write
 * transaction that locks them and skips rows other nodes hold (`Dialect.claimRows`: `for update
 * skip locked` on PostgreSQL and MariaDB; SQLite's write transaction holds the whole database), so
 * one node sends each. A claim lasts `2 x timeout + 1 s`: a node that dies while sending leaves
 * its claims to lapse, and another node (or it, restarted) sends them again.
 *
 * Deliveries of one key (a document, a file) to one webhook leave in the order they were recorded:
 * a delivery is claimable only when no earlier one of its key and webhook is still pending or
 * being sent; a failing one holds the later ones back until it is delivered or given up.
 *
 * An attempt is a POST of the recorded body with Strapi's headers (`X-Strapi-Event`, the
 * configured `defaultHeaders`, the webhook's `headers`), `X-Vellum-Delivery` (the delivery's id,
 * the same on every attempt: receivers can drop repeats) and, when the webhook has a secret,
 * `X-Vellum-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. A 2xx answer
 * delivers it; anything else (or no answer within `timeout`) is tried again after `retryDelay`,
 * doubled each time up to `maxRetryDelay`, until `maxAttempts`. Writes never wait for any of it.
 */
import { privateTargetProblem } from './targets.js';
import { createHmac } from 'node:crypto';
import type { WebhooksConfig } from '../../core/config/load.js';
import type { Database } from '../../core/database/connection.js';
import { BACKGROUND, shaped } from '../../core/database/system-tables.js';
import { ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import {
  DELIVERIES_TABLE,
  EVENTS_TABLE,
  WEBHOOKS_TABLE,
  isoTime,
  type DeliveryRow,
  type DeliveryState,
} from './tables.js';

/** What an attempt got: Strapi's `{ statusCode, message }` (500 and the error's message when nothing answered). */
export interface AttemptResult {
  statusCode: number;
  message?: string;
  /** Milliseconds from sending to the answer (or the failure). */
  duration: number;
  ok: boolean;
}

export interface CallTarget {
  url: string;
  headers: Record<string, string>;
  secret: string | null;
}

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`: what a receiver recomputes to check the sender and the body. */
export function signature(secret: string, timestamp: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${digest}`;
}

/** The pause before attempt `attempts + 1`: `retryDelay` doubled per attempt made, at most `maxRetryDelay`, plus up to 10%. */
export function retryDelay(
  config: Pick<WebhooksConfig, 'retryDelay' | 'maxRetryDelay'>,
  attempts: number,
  random = Math.random(),
): number {
  const base = Math.min(config.maxRetryDelay, config.retryDelay * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (1 + random / 10));
}

/** What the log keeps of a refusing answer: enough to see why, not the target's page. */
const MESSAGE_LIMIT = 200;

/** The start of an answer's body, for the log (the rest is not read). */
async function answerText(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < MESSAGE_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, MESSAGE_LIMIT);
}

/** One POST of a webhook call (Node's fetch), within `timeout` ms or until `signal` aborts. */
export async function callWebhook(
  target: CallTarget,
  event: string,
  body: string,
  options: {
    defaultHeaders: Record<string, string>;
    timeout: number;
    deliveryId?: number;
    signal?: AbortSignal;
    allowPrivate: boolean;
  },
): Promise<AttemptResult> {
  // Checked at every attempt: a name may resolve to another address than at creation.
  const refused = await privateTargetProblem(target.url, options.allowPrivate);
  if (refused) return { statusCode: 500, message: refused, duration: 0, ok: false };
  const headers: Record<string, string> = {
    ...options.defaultHeaders,
    ...target.headers,
    'X-Strapi-Event': event,
    'Content-Type': 'application/json',
  };
  if (options.deliveryId !== undefined) headers['X-Vellum-Delivery'] = String(options.deliveryId);
  if (target.secret) headers['X-Vellum-Signature'] = signature(target.secret, Math.floor(Date.now() / 1000), body);
  const timeout = AbortSignal.timeout(options.timeout);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const started = performance.now();
  try {
    // Redirects are not followed: they would carry the headers, the signature and the body to
    // another origin (and around the address check). A 3xx is a failed attempt.
    const response = await fetch(target.url, { method: 'POST', body, headers, signal, redirect: 'manual' });
    if (response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { statusCode: response.status, duration: Math.round(performance.now() - started), ok: true };
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      return {
        statusCode: response.status,
        message: `redirect to ${(response.headers.get('location') ?? '').slice(0, 100)} not followed`,
        duration: Math.round(performance.now() - started),
        ok: false,
      };
    }
    const message = await answerText(response).catch(() => '');
    return { statusCode: response.status, message, duration: Math.round(performance.now() - started), ok: false };
  } catch (error) {
    const reason = timeout.aborted
      ? `no answer within ${options.timeout} ms`
      : error instanceof Error
        ? error.cause instanceof Error
          ? `${error.message}: ${error.cause.message}`
          : error.message
        : String(error);
    return { statusCode: 500, message: reason, duration: Math.round(performance.now() - started), ok: false };
  }
}

/** A delivery in the log (`GET /admin/webhooks/:id/deliveries`). */
export interface DeliveryLogEntry {
  id: number;
  event: string;
  /** The document or file it is about (`<uid>:<documentId>`). */
  key: string;
  state: DeliveryState;
  attempts: number;
  statusCode: number | null;
  lastError: string | null;
  /** Milliseconds the last attempt took. */
  duration: number | null;
  createdAt: string | null;
  lastAttemptAt: string | null;
  /** When it is tried next (pending), or when its claim lapses (sending). */
  nextAttemptAt: string | null;
}

const STATES = new Set<DeliveryState>(['pending', 'sending', 'delivered', 'failed', 'cancelled']);

interface Claimed {
  id: number;
  webhookId: number;
  attempts: number;
}

/** The delivery worker of one node, and the delivery log. */
export class Deliveries {
  private timer?: NodeJS.Timeout;
  private polling = false;
  /** The poll in progress: `stop()` waits for it, so that no claim runs on a closed database. */
  private current?: Promise<void>;
  private again = false;
  private stopped = true;
  private readonly inflight = new Map<number, { webhookId: number; abort: AbortController; done: Promise<void> }>();

  constructor(
    private readonly database: Database,
    private readonly config: WebhooksConfig,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  /** How long a claim lasts: a node that died sending leaves it to lapse. */
  private get lease(): number {
    return this.config.timeout * 2 + 1_000;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Looks for deliveries at once (a write recorded some, or a send finished). */
  kick(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Stops polling, aborts the attempts in flight and gives their claims back (another node sends them). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    // A claim in progress finishes first (its deliveries join those in flight, then are aborted too).
    await this.current;
    for (const { abort } of this.inflight.values()) abort.abort();
    await Promise.all([...this.inflight.values()].map(({ done }) => done));
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.current = this.poll();
    }, delay);
    this.timer.unref?.();
  }

  private async poll(): Promise<void> {
    this.timer = undefined;
    if (this.stopped || this.polling) return;
    this.polling = true;
    let full = false;
    try {
      const room = this.config.concurrency - this.inflight.size;
      if (room > 0) {
        const claimed = await this.claim(room);
        full = claimed.length > 0;
        for (const delivery of claimed) this.send(delivery);
      }
    } catch (error) {
      this.log('webhook deliveries: polling failed', error);
    } finally {
      this.polling = false;
    }
    if (this.stopped) return;
    const again = this.again || full;
    this.again = false;
    this.schedule(again ? 0 : this.config.pollInterval);
  }

  /**
   * Claims up to `limit` due deliveries: a cheap read first (nothing due: no transaction), then a
   * write transaction that locks the first due ones no other node holds, each the earliest of its
   * key and webhook still to go, and marks them sent by this node until the lease lapses.
   */
  private async claim(limit: number): Promise<Claimed[]> {
    const { database } = this;
    const now = Date.now();
    // Webhooks with as many attempts in flight here as one may have: a receiver that hangs holds no more slots.
    const sending = new Map<number, number>();
    for (const { webhookId } of this.inflight.values()) sending.set(webhookId, (sending.get(webhookId) ?? 0) + 1);
    const busy = [...sending]
      .filter(([, count]) => count >= this.config.webhookConcurrency)
      .map(([webhookId]) => webhookId);
    let dueQuery = database.system
      .selectFrom(DELIVERIES_TABLE)
      .select('id')
      .where('state', 'in', ['pending', 'sending'])
      .where('next_at', '<=', now);
    if (busy.length) dueQuery = dueQuery.where('webhook_id', 'not in', busy);
    if (!(await dueQuery.limit(1).modifyEnd(BACKGROUND).executeTakeFirst())) return [];
    return database.write(async (trx) => {
      const deliveries = shaped<DeliveryRow>(trx);
      const query = deliveries
        .selectFrom(`${DELIVERIES_TABLE} as d`)
        .select(['d.id', 'd.webhook_id', 'd.attempts'])
        .where('d.state', 'in', ['pending', 'sending'])
        .where('d.next_at', '<=', now)
        .$if(busy.length > 0, (q) => q.where('d.webhook_id', 'not in', busy))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom(`${DELIVERIES_TABLE} as e`)
                .select('e.id')
                .whereRef('e.webhook_id', '=', 'd.webhook_id')
                .whereRef('e.ordering', '=', 'd.ordering')
                .whereRef('e.id', '<', 'd.id')
                .where('e.state', 'in', ['pending', 'sending']),
            ),
          ),
        )
        .orderBy('d.id')
        .limit(limit)
        .modifyEnd(BACKGROUND);
      const found = await database.dialect.claimRows(query).execute();
      // At most `webhookConcurrency` per webhook, counting those in flight here.
      const rows = found.filter((row) => {
        const count = sending.get(Number(row.webhook_id)) ?? 0;
        sending.set(Number(row.webhook_id), count + 1);
        return count < this.config.webhookConcurrency;
      });
      if (rows.length === 0) return [];
      const ids = rows.map((row) => Number(row.id));
      await deliveries
        .updateTable(DELIVERIES_TABLE)
        .set((eb) => ({
          state: 'sending',
          attempts: eb('attempts', '+', 1),
          next_at: now + this.lease,
          last_attempt_at: now,
        }))
        .where('id', 'in', ids)
        .modifyEnd(BACKGROUND)
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        webhookId: Number(row.webhook_id),
        attempts: Number(row.attempts) + 1,
      }));
    });
  }

  private send(claimed: Claimed): void {
    const abort = new AbortController();
    const done = this.attempt(claimed, abort.signal)
      .catch((error: unknown) => this.log(`webhook delivery ${claimed.id} failed`, error))
      .finally(() => {
        this.inflight.delete(claimed.id);
        this.kick();
      });
    this.inflight.set(claimed.id, { webhookId: claimed.webhookId, abort, done });
  }

  private async attempt(claimed: Claimed, signal: AbortSignal): Promise<void> {
    const row = await this.database.system
      .selectFrom(`${DELIVERIES_TABLE} as d`)
      .innerJoin(`${EVENTS_TABLE} as e`, 'e.id', 'd.event_id')
      .leftJoin(`${WEBHOOKS_TABLE} as w`, 'w.id', 'd.webhook_id')
      .select(['e.event', 'e.body', 'w.url', 'w.headers', 'w.secret', 'w.enabled'])
      .where('d.id', '=', claimed.id)
      .modifyEnd(BACKGROUND)
      .executeTakeFirst();
    const { dialect } = this.database;
    const mine = (query: ReturnType<typeof this.updateDelivery>) =>
      query
        .where('id', '=', claimed.id)
        .where('state', '=', 'sending')
        .where('attempts', '=', claimed.attempts)
        .modifyEnd(BACKGROUND)
        .execute();
    if (!row || !row.url || dialect.decode('boolean', row.enabled) !== true) {
      // The webhook was deleted or disabled since: nothing is sent.
      await mine(
        this.updateDelivery({
          state: 'cancelled',
          next_at: Date.now(),
          last_error: 'the webhook was disabled or deleted',
        }),
      );
      return;
    }
    const headers = dialect.decode('json', row.headers);
    const target: CallTarget = {
      url: row.url,
      headers: isPlainObject(headers) ? (headers as Record<string, string>) : {},
      secret: row.secret,
    };
    const result = await callWebhook(target, row.event, row.body, {
      defaultHeaders: this.config.defaultHeaders,
      timeout: this.config.timeout,
      deliveryId: claimed.id,
      signal,
      allowPrivate: this.config.allowPrivateAddresses,
    });
    const now = Date.now();
    if (signal.aborted && !result.ok) {
      // The node is stopping: the claim goes back, as if this attempt had not been made.
      await mine(
        this.updateDelivery({ state: 'pending', next_at: now }).set((eb) => ({ attempts: eb('attempts', '-', 1) })),
      );
      return;
    }
    const state: DeliveryState = result.ok
      ? 'delivered'
      : claimed.attempts >= this.config.maxAttempts
        ? 'failed'
        : 'pending';
    const next = state === 'pending' ? now + retryDelay(this.config, claimed.attempts) : now;
    await mine(
      this.updateDelivery({
        state,
        next_at: next,
        status_code: result.statusCode,
        last_error: result.ok ? null : (result.message ?? null),
        duration: result.duration,
      }),
    );
  }

  private updateDelivery(values: Partial<Omit<DeliveryRow, 'id'>>) {
    return shaped<DeliveryRow>(this.database.db).updateTable(DELIVERIES_TABLE).set(values);
  }

  /** A webhook's deliveries, newest first (`state` to filter, pages of `pageSize`). */
  async list(
    webhookId: number,
    query: { state?: unknown; page?: unknown; pageSize?: unknown },
  ): Promise<{
    results: DeliveryLogEntry[];
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
  }> {
    const page = query.page === undefined ? 1 : Number(query.page);
    const pageSize = query.pageSize === undefined ? 25 : Number(query.pageSize);
    if (!Number.isSafeInteger(page) || page < 1)
      throw new ValidationError('page must be a positive integer', { key: 'page' });
    if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > 100)
      throw new ValidationError('pageSize must be an integer from 1 to 100', { key: 'pageSize' });
    if (query.state !== undefined && !STATES.has(query.state as DeliveryState))
      throw new ValidationError(`state must be one of ${[...STATES].join(', ')}`, { key: 'state' });
    let base = this.database.system.selectFrom(`${DELIVERIES_TABLE} as d`).where('d.webhook_id', '=', webhookId);
    if (query.state !== undefined) base = base.where('d.state', '=', query.state as DeliveryState);
    const [rows, count] = await Promise.all([
      base
        .innerJoin(`${EVENTS_TABLE} as e`, 'e.id', 'd.event_id')
        .select([
          'd.id',
          'e.event',
          'd.ordering',
          'd.state',
          'd.attempts',
          'd.status_code',
          'd.last_error',
          'd.duration',
          'd.created_at',
          'd.last_attempt_at',
          'd.next_at',
        ])
        .orderBy('d.id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst(),
    ]);
    const total = Number(count?.total ?? 0);
    const results = rows.map((row) => ({
      id: Number(row.id),
      event: row.event,
      key: row.ordering,
      state: row.state,
      attempts: Number(row.attempts),
      statusCode: row.status_code === null ? null : Number(row.status_code),
      lastError: row.last_error,
      duration: row.duration === null ? null : Number(row.duration),
      createdAt: isoTime(row.created_at),
      lastAttemptAt: isoTime(row.last_attempt_at),
      nextAttemptAt: row.state === 'pending' || row.state === 'sending' ? isoTime(row.next_at) : null,
    }));
    return { results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
  }

  private get pruneBefore(): number {
    return Date.now() - this.config.logDays * 86_400_000;
  }

  /** Whether the log holds finished deliveries older than `logDays`. */
  async prunable(): Promise<boolean> {
    const old = await this.database.system
      .selectFrom(DELIVERIES_TABLE)
      .select('id')
      .where('state', 'in', ['delivered', 'failed', 'cancelled'])
      .where('created_at', '<', this.pruneBefore)
      .limit(1)
      .modifyEnd(BACKGROUND)
      .executeTakeFirst();
    return old !== undefined;
  }

  /** Forgets finished deliveries older than `logDays`, and the events no delivery needs any more. */
  async prune(): Promise<void> {
    const before = this.pruneBefore;
    await this.database.write(async (trx) => {
      await shaped<DeliveryRow>(trx)
        .deleteFrom(DELIVERIES_TABLE)
        .where('state', 'in', ['delivered', 'failed', 'cancelled'])
        .where('created_at', '<', before)
        .modifyEnd(BACKGROUND)
        .execute();
      await trx
        .deleteFrom(EVENTS_TABLE)
        .where('created_at', '<', before)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom(DELIVERIES_TABLE)
                .select('id')
                .whereRef(`${DELIVERIES_TABLE}.event_id`, '=', `${EVENTS_TABLE}.id`),
            ),
          ),
        )
        .modifyEnd(BACKGROUND)
        .execute();
    });
  }
}
