/**
 * Webhooks as Strapi stores and manages them (`strapi_webhooks`; its admin API's bodies, checks and
 * answers: `{ id, name, url, headers, events, isEnabled }`, the id as text), plus a per-webhook
 * secret that signs deliveries (Vellum). The store is also the documents' outbox: a write asks it,
 * in its transaction, which events enabled webhooks listen to, and records each event with one
 * delivery row per such webhook (delivery.ts sends them).
 */
import { runShape, shapeKey } from '../../core/database/shapes.js';
import type { Database } from '../../core/database/connection.js';
import type { Db } from '../../core/database/dialect.js';
import { shaped } from '../../core/database/system-tables.js';
import {
  recordAudit,
  WEBHOOK_EVENTS,
  type Audited,
  type Outbox,
  type RecordedEvent,
  type Subscribers,
  type WebhookEvent,
} from '../../core/documents/service.js';
import { NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { privateTargetProblem } from './targets.js';
import {
  DELIVERIES_TABLE,
  EVENTS_TABLE,
  WEBHOOKS_TABLE,
  type DeliveryRow,
  type EventRow,
  type WebhookRow,
} from './tables.js';

/** A webhook as Strapi's admin API answers it. */
export interface Webhook {
  id: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}

/** Where and how a webhook is called. */
export interface WebhookTarget {
  id: number;
  url: string;
  headers: Record<string, string>;
  secret: string | null;
  enabled: boolean;
}

const KEYS = new Set(['name', 'url', 'headers', 'events', 'isEnabled', 'secret']);
const ALLOWED = new Set<string>(WEBHOOK_EVENTS);
const MAX_TEXT = 255;

const fieldError = (path: string, message: string, value?: unknown): FieldError => ({
  path: [path],
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

/** An http(s) URL, or why not. */
function urlProblem(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.trim() === '') return 'url must be a valid URL';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url must be a valid URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `url must be an http or https URL, not ${parsed.protocol.slice(0, -1)}`;
  return undefined;
}

interface Checked {
  name: string;
  url: string;
  headers: Record<string, string>;
  events: WebhookEvent[];
  isEnabled: boolean;
  secret: string | null | undefined;
}

/**
 * A webhook body checked as Strapi's admin API checks it (name, url and events required; headers
 * an object of non-empty texts; no other key), plus an http(s) URL and known event names, which
 * Strapi checks at creation only. Every problem is listed at once.
 */
function check(body: unknown, current?: Webhook): Checked {
  if (!isPlainObject(body)) throw new ValidationError('The request body must be a JSON object');
  const errors: FieldError[] = [];
  for (const key of Object.keys(body))
    if (!KEYS.has(key)) errors.push(fieldError(key, `this field has unspecified keys: ${key}`));
  const value = { ...current, ...body } as Record<string, unknown>;
  const { name, url, headers = {}, events, isEnabled = true, secret } = value;
  if (typeof name !== 'string' || name.trim() === '') errors.push(fieldError('name', 'name is a required field'));
  else if (name.length > MAX_TEXT) errors.push(fieldError('name', `name must be at most ${MAX_TEXT} characters`));
  const badUrl = urlProblem(url);
  if (badUrl) errors.push(fieldError('url', badUrl, url));
  if (!isPlainObject(headers))
    errors.push(fieldError('headers', 'headers must be an object of header names to values'));
  else
    for (const [header, text] of Object.entries(headers))
      if (typeof text !== 'string' || text === '')
        errors.push({
          path: ['headers', header],
          message: `headers.${header} must be a non-empty text`,
          name: 'ValidationError',
        });
  if (!Array.isArray(events)) errors.push(fieldError('events', 'events must be an array of event names'));
  else
    for (const event of events)
      if (typeof event !== 'string' || !ALLOWED.has(event))
        errors.push(fieldError('events', `Webhook event ${String(event)} is not supported`, event));
  if (typeof isEnabled !== 'boolean') errors.push(fieldError('isEnabled', 'isEnabled must be a boolean'));
  if (
    secret !== undefined &&
    secret !== null &&
    (typeof secret !== 'string' || secret === '' || secret.length > MAX_TEXT)
  ) {
    errors.push(fieldError('secret', `secret must be a text of 1 to ${MAX_TEXT} characters, or null`));
  }
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return {
    name: name as string,
    url: url as string,
    headers: headers as Record<string, string>,
    events: [...new Set(events as WebhookEvent[])],
    isEnabled: isEnabled as boolean,
    secret: secret as string | null | undefined,
  };
}

/** A webhook id from a path: the row id as text, as Strapi answers it. */
function rowId(id: string): number {
  const number = Number(id);
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(number)) throw new NotFoundError('webhook.notFound', { id });
  return number;
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
const textMap = (value: unknown): Record<string, string> =>
  isPlainObject(value)
    ? Object.fromEntries(
        Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : {};

/** The subscriptions of a transaction: webhook ids by event. */
class Subscriptions implements Subscribers {
  constructor(readonly byEvent: Map<string, number[]>) {}
  has(event: WebhookEvent): boolean {
    return this.byEvent.has(event);
  }
}

export class WebhookStore implements Outbox {
  private readonly listeners = new Set<() => void>();

  /** `allowPrivate`: targets on loopback or private addresses are accepted (features/events/targets.ts). */
  constructor(
    private readonly database: Database,
    private readonly allowPrivate: boolean,
  ) {}

  /** The checked body, its URL refused when it leads off the public internet and that is not allowed. */
  private async checked(body: unknown, current?: Webhook): Promise<Checked> {
    const checked = check(body, current);
    const problem = await privateTargetProblem(checked.url, this.allowPrivate);
    if (problem) throw ValidationError.fromFieldErrors([fieldError('url', problem, checked.url)]);
    return checked;
  }

  private decode(
    row: Pick<WebhookRow, 'name' | 'url' | 'headers' | 'events' | 'enabled'> & { id: number | string },
  ): Webhook {
    const { dialect } = this.database;
    return {
      id: String(row.id),
      name: row.name ?? '',
      url: row.url ?? '',
      headers: textMap(dialect.decode('json', row.headers)),
      events: stringList(dialect.decode('json', row.events)),
      isEnabled: dialect.decode('boolean', row.enabled) === true,
    };
  }

  async list(): Promise<Webhook[]> {
    const rows = await this.database.system
      .selectFrom(WEBHOOKS_TABLE)
      .select(['id', 'name', 'url', 'headers', 'events', 'enabled'])
      .orderBy('id')
      .execute();
    return rows.map((row) => this.decode(row));
  }

  async get(id: string): Promise<Webhook> {
    const row = await this.database.system
      .selectFrom(WEBHOOKS_TABLE)
      .select(['id', 'name', 'url', 'headers', 'events', 'enabled'])
      .where('id', '=', rowId(id))
      .executeTakeFirst();
    if (!row) throw new NotFoundError('webhook.notFound', { id });
    return this.decode(row);
  }

  /** Where a webhook is called (the trigger, the delivery worker). */
  async target(id: string): Promise<WebhookTarget> {
    const row = await this.database.system
      .selectFrom(WEBHOOKS_TABLE)
      .selectAll()
      .where('id', '=', rowId(id))
      .executeTakeFirst();
    if (!row) throw new NotFoundError('webhook.notFound', { id });
    const webhook = this.decode(row);
    return {
      id: Number(row.id),
      url: webhook.url,
      headers: webhook.headers,
      secret: row.secret,
      enabled: webhook.isEnabled,
    };
  }

  private values(checked: Checked): Omit<WebhookRow, 'id'> {
    const { dialect } = this.database;
    const values: Omit<WebhookRow, 'id'> = {
      name: checked.name,
      url: checked.url,
      headers: dialect.encode('json', checked.headers),
      events: dialect.encode('json', checked.events),
      enabled: dialect.encode('boolean', checked.isEnabled),
      secret: checked.secret ?? null,
    };
    return values;
  }

  /**
   * Creates a webhook (enabled unless `isEnabled: false`); a bad body is a 400 listing each problem.
   * `audited`: recorded as `webhook.create` in its transaction (its name and events; never its headers' values nor its secret).
   */
  async create(body: unknown, audited?: Audited): Promise<Webhook> {
    const checked = await this.checked(body);
    const { dialect } = this.database;
    const id = await this.database.write(async (trx) => {
      const id = await dialect.insertReturningId(trx, WEBHOOKS_TABLE, this.values(checked));
      await recordAudit(trx, audited, {
        action: 'webhook.create',
        subject: String(id),
        details: { name: checked.name, events: checked.events, isEnabled: checked.isEnabled },
      });
      return id;
    });
    return this.get(String(id));
  }

  /**
   * Changes a webhook: the body's keys over the stored ones (a `secret` left out is kept; null removes it).
   * `audited`: the fields changed are recorded as `webhook.update` (names only).
   */
  async update(id: string, body: unknown, audited?: Audited): Promise<Webhook> {
    const current = await this.get(id);
    const checked = await this.checked(body, current);
    const values: Partial<Omit<WebhookRow, 'id'>> = this.values(checked);
    if (checked.secret === undefined) delete values.secret;
    await this.database.write(async (trx) => {
      await shaped<WebhookRow>(trx).updateTable(WEBHOOKS_TABLE).set(values).where('id', '=', rowId(id)).execute();
      const after: Record<string, unknown> = { ...checked };
      const changed: string[] = (['name', 'url', 'headers', 'events', 'isEnabled'] as const).filter(
        (key) => JSON.stringify(current[key]) !== JSON.stringify(after[key]),
      );
      // The secret is not read back: given is changed.
      if (checked.secret !== undefined) changed.push('secret');
      await recordAudit(trx, audited, {
        action: 'webhook.update',
        subject: String(current.id),
        changed,
        details: { name: checked.name },
      });
    });
    return this.get(id);
  }

  /** Deletes a webhook and its deliveries (pending ones are not sent); answers what it was. `audited`: recorded as `webhook.delete`. */
  async delete(id: string, audited?: Audited): Promise<Webhook> {
    const webhook = await this.get(id);
    const number = rowId(id);
    await this.database.write(async (trx) => {
      await shaped<DeliveryRow>(trx).deleteFrom(DELIVERIES_TABLE).where('webhook_id', '=', number).execute();
      const gone = await shaped<WebhookRow>(trx).deleteFrom(WEBHOOKS_TABLE).where('id', '=', number).executeTakeFirst();
      if (Number(gone.numDeletedRows) === 0) throw new NotFoundError('webhook.notFound', { id });
      await recordAudit(trx, audited, {
        action: 'webhook.delete',
        subject: String(number),
        details: { name: webhook.name },
      });
    });
    return webhook;
  }

  // The documents' outbox.

  async subscribers(db: Db): Promise<Subscribers> {
    const { dialect } = this.database;
    // Read by every write: compiled once (core/database/shapes.ts).
    const { rows } = await runShape<Pick<WebhookRow, 'id' | 'events'>>(
      db,
      shapeKey('enabled webhooks'),
      [dialect.encode('boolean', true)],
      ([enabled]) =>
        shaped<WebhookRow>(db)
          .selectFrom(WEBHOOKS_TABLE)
          .select(['id', 'events'])
          .where('enabled', '=', enabled as boolean),
    );
    const byEvent = new Map<string, number[]>();
    for (const row of rows) {
      for (const event of new Set(stringList(dialect.decode('json', row.events)))) {
        const ids = byEvent.get(event) ?? [];
        ids.push(Number(row.id));
        byEvent.set(event, ids);
      }
    }
    return new Subscriptions(byEvent);
  }

  async record(db: Db, subscribers: Subscribers, event: RecordedEvent): Promise<void> {
    const webhooks = subscribers instanceof Subscriptions ? (subscribers.byEvent.get(event.event) ?? []) : [];
    if (webhooks.length === 0) return;
    const createdAt = event.createdAt.getTime();
    // Strapi's body: the event and its time first, then the payload.
    const body = JSON.stringify({ event: event.event, createdAt: event.createdAt.toISOString(), ...event.info });
    const values: Omit<EventRow, 'id'> = { event: event.event, body, created_at: createdAt };
    const eventId = await this.database.dialect.insertReturningId(db, EVENTS_TABLE, values);
    const deliveries: Omit<DeliveryRow, 'id'>[] = webhooks.map((webhookId) => ({
      event_id: eventId,
      webhook_id: webhookId,
      ordering: event.key,
      state: 'pending',
      attempts: 0,
      next_at: createdAt,
      status_code: null,
      last_error: null,
      duration: null,
      created_at: createdAt,
      last_attempt_at: null,
    }));
    await shaped<DeliveryRow>(db).insertInto(DELIVERIES_TABLE).values(deliveries).execute();
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Called after each write that recorded events has committed (the local worker looks at once). */
  onCommitted(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
