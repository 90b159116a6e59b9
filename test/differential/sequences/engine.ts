/**
 * Runs one sequence of operations on Strapi and on Vellum, step by step: the same request to
 * each (Strapi first), their answers compared, then the whole state of every document the step
 * touched (each locale and status, deep populate) and the webhook events it emitted. The first
 * difference not on the allow-list fails the sequence with the steps so far as HTTP requests.
 */
import type { HttpClient, Response } from '../../helpers/http.js';
import type { Receiver } from '../../helpers/receiver.js';
import { differences } from '../harness.js';
import { allowed, type Difference } from './allow.js';
import { cmRequest } from './cm-forms.js';
import type { CmOp } from './cm-ops.js';
import type { Locale, Op, RefMarker } from './ops.js';
import { deepPopulate, encodeQuery, type Schema, type TypeInfo } from './schema.js';

export type SideName = 'strapi' | 'vellum';

export interface SidePorts {
  name: SideName;
  api: HttpClient;
  /** Publication actions: Strapi's content-manager (admin JWT) or Vellum's content API. */
  action(type: TypeInfo, documentId: string, action: string, locale: Locale | undefined): Promise<Response>;
  /** Strapi's content-manager API (an admin JWT), at Strapi's paths on both servers. */
  cm(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Response>;
  receiver: Receiver;
  /** Media uploaded at start: documentId and id by index. */
  media: { documentId: string; id: number }[];
}

export interface Request {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'ACTION';
  path: string;
  body?: unknown;
  /** Sent to the content manager (cm()), not the content API. */
  via?: 'cm';
}

interface DocRecord {
  label: string;
  type: string;
  ids: Record<SideName, string>;
  /** Numeric id of the draft (or only) row per locale, per side, from the last read. */
  rowIds: Record<SideName, Record<string, number>>;
}

export class SequenceFailure extends Error {
  constructor(
    message: string,
    readonly transcript: string,
    readonly allowedBy?: string,
  ) {
    super(message);
  }
}

const TIMESTAMPS = new Set(['createdAt', 'updatedAt', 'publishedAt']);
/** Creator fields of the content manager's answers: each server's own administrator. */
const ADMIN_FIELDS = new Set(['createdBy', 'updatedBy', 'publishedBy']);
type PanelMarker = { connect: { ref: RefMarker; position?: 'start' | 'end' }[]; disconnect: RefMarker[] };
const MISSING_DOCUMENT = 'zzzzzzzzzzzzzzzzzzzzzzzz';
const SKIP = Symbol('skip');
let runCounter = 0;

export interface RunOptions {
  schema: Schema;
  sides: [SidePorts, SidePorts];
  /** Also allow the known bugs being fixed (local runs; counted, not failures). */
  known: boolean;
  webhooks: boolean;
  counters: Map<string, number>;
  /** The API the operations go through: reads then compare the content manager's answers too. */
  api?: 'content' | 'content-manager';
  log?: (line: string) => void;
}

export class SequenceRun {
  readonly prefix = `sq${Date.now().toString(36)}${(runCounter++).toString(36)}`;
  private readonly docs: DocRecord[] = [];
  private readonly byId = { strapi: new Map<string, string>(), vellum: new Map<string, string>() };
  private readonly snapshots = new Map<string, string>();
  private readonly transcript: string[] = [];
  private webhookSeen: Record<SideName, number> = { strapi: 0, vellum: 0 };

  constructor(private readonly options: RunOptions) {
    for (const side of options.sides)
      side.media.forEach((m, i) => side.name && this.byId[side.name].set(m.documentId, `file#${i}`));
    for (const side of options.sides) this.webhookSeen[side.name] = side.receiver.requests.length;
  }

  private docsOf(type: string): DocRecord[] {
    return this.docs.filter((d) => d.type === type);
  }

  private docAt(type: string, n: number): DocRecord | undefined {
    const list = this.docsOf(type);
    return list.length ? list[n % list.length] : undefined;
  }

  private resolveRef(marker: RefMarker['$ref'], side: SideName, labels: Set<string>): unknown {
    const doc = this.docAt(marker.type, marker.n);
    // No document of the target type yet: mostly left out (else most writes fail on it), sometimes a missing one.
    if (!doc && marker.n % 5 !== 4) return SKIP;
    if (doc) labels.add(doc.label);
    const documentId = doc?.ids[side] ?? MISSING_DOCUMENT;
    const id = doc?.rowIds[side][marker.locale ?? 'en'] ?? doc?.rowIds[side].en ?? doc?.rowIds[side].fr ?? 987654;
    switch (marker.form) {
      case 'documentId':
        return documentId;
      case 'object':
        return { documentId, ...(marker.locale ? { locale: marker.locale } : {}) };
      case 'id':
        return id;
      case 'idObject':
        return { id };
    }
  }

  /**
   * A relation as the panel's relation field sends it: `{ id, documentId, locale }` of the target's
   * draft row in the locale the picker listed (`isTemporary` and `position` on connected ones).
   */
  private panelRelation(marker: PanelMarker, side: SideName, labels: Set<string>): unknown {
    const item = (ref: RefMarker) => {
      const doc = this.docAt(ref.$ref.type, ref.$ref.n);
      if (!doc) return SKIP;
      labels.add(doc.label);
      const i18n = this.typeOf(ref.$ref.type).i18n;
      const locale = i18n ? (ref.$ref.locale ?? 'en') : null;
      const id = doc.rowIds[side][locale ?? 'en'] ?? 987654;
      return { id, documentId: doc.ids[side], locale };
    };
    const connect = marker.connect
      .map(({ ref, position }) => {
        const target = item(ref);
        if (target === SKIP) return SKIP;
        return { ...target, isTemporary: true, ...(position ? { position: { [position]: true } } : {}) };
      })
      .filter((v) => v !== SKIP);
    const disconnect = marker.disconnect.map(item).filter((v) => v !== SKIP);
    return { connect, disconnect };
  }

  /** Replaces the markers of generated data with this side's values. */
  private resolve(value: unknown, side: SidePorts, labels: Set<string>): unknown {
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, side, labels)).filter((v) => v !== SKIP);
    if (!value || typeof value !== 'object') return value;
    const v = value as Record<string, unknown>;
    if ('$ref' in v) return this.resolveRef((v as unknown as RefMarker).$ref, side.name, labels);
    if ('$conn' in v) {
      const { ref, position } = v.$conn as { ref: RefMarker; position: Record<string, unknown> };
      const target = this.resolveRef(ref.$ref, side.name, labels);
      if (target === SKIP) return SKIP;
      const base =
        typeof target === 'object'
          ? (target as Record<string, unknown>)
          : typeof target === 'number'
            ? { id: target }
            : { documentId: target };
      const anchor = (p: unknown) => {
        const resolved = this.resolve(p, side, labels);
        return resolved && typeof resolved === 'object'
          ? ((resolved as Record<string, unknown>).documentId ?? (resolved as Record<string, unknown>).id)
          : resolved;
      };
      const at =
        'before' in position ? anchor(position.before) : 'after' in position ? anchor(position.after) : undefined;
      const pos =
        at === SKIP
          ? { end: true }
          : 'before' in position
            ? { before: at }
            : 'after' in position
              ? { after: at }
              : position;
      return { ...base, position: pos };
    }
    if ('$media' in v) return side.media[(v.$media as number) % side.media.length]!.id;
    if ('$mediaFile' in v) {
      const file = side.media[(v.$mediaFile as number) % side.media.length]!;
      return { id: file.id, documentId: file.documentId };
    }
    if ('$panel' in v) return this.panelRelation(v.$panel as PanelMarker, side.name, labels);
    if ('$text' in v) return `${this.prefix}-${String(v.$text)}`;
    if ('$email' in v) return `${this.prefix}${String(v.$email)}@example.com`;
    return Object.fromEntries(
      Object.entries(v)
        .map(([k, x]) => [k, this.resolve(x, side, labels)])
        .filter(([, x]) => x !== SKIP),
    );
  }

  private typeOf(uid: string): TypeInfo {
    return this.options.schema.types.get(uid)!;
  }

  /** The HTTP request an operation is on one side (content-manager ones read that side first). */
  private async prepare(op: Op, side: SidePorts): Promise<{ request: Request; labels: Set<string> }> {
    if (!op.op.startsWith('cm-')) return this.request(op, side);
    const { request, labels } = await cmRequest(
      {
        schema: this.options.schema,
        prefix: this.prefix,
        missing: MISSING_DOCUMENT,
        documentId: (type, n, labels) => {
          const doc = this.docAt(type, n);
          if (doc) labels.add(doc.label);
          return doc?.ids[side.name] ?? MISSING_DOCUMENT;
        },
        resolve: (value, labels) => this.resolve(value, side, labels),
        cm: (method, path) => side.cm(method, path),
      },
      op as Op & CmOp,
    );
    return { request: { ...request, via: 'cm' }, labels };
  }

  /** The HTTP request an operation is on one side, and the labels of the documents it names. */
  private request(op: Op, side: SidePorts): { request: Request; labels: Set<string> } {
    const labels = new Set<string>();
    const type = this.typeOf(op.type);
    const base = `/api/${type.path}`;
    const query = (params: Record<string, string | undefined>) => {
      const parts = Object.entries(params)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => `${k}=${v}`);
      return parts.length ? `?${parts.join('&')}` : '';
    };
    const docId = (n: number) => {
      const doc = this.docAt(op.type, n);
      if (doc) labels.add(doc.label);
      return doc?.ids[side.name] ?? MISSING_DOCUMENT;
    };
    switch (op.op) {
      case 'create':
        return {
          request: {
            method: 'POST',
            path: base + query({ status: op.draft ? 'draft' : undefined, locale: op.locale }),
            body: { data: this.resolve(op.data, side, labels) },
          },
          labels,
        };
      case 'update':
        return {
          request: {
            method: 'PUT',
            path: `${base}/${docId(op.n)}` + query({ status: op.draft ? 'draft' : undefined, locale: op.locale }),
            body: { data: this.resolve(op.data, side, labels) },
          },
          labels,
        };
      case 'action':
        return {
          request: {
            method: 'ACTION',
            path: `${op.action} ${type.uid} ${docId(op.n)}${op.locale ? ` locale=${op.locale}` : ''}`,
          },
          labels,
        };
      case 'delete':
        return { request: { method: 'DELETE', path: `${base}/${docId(op.n)}` + query({ locale: op.locale }) }, labels };
      case 'single-put':
        return {
          request: {
            method: 'PUT',
            path: `/api/${type.path}` + query({ locale: op.locale }),
            body: { data: this.resolve(op.data, side, labels) },
          },
          labels,
        };
      case 'single-delete':
        return { request: { method: 'DELETE', path: `/api/${type.path}` }, labels };
      case 'invalid':
        return { request: this.invalid(op, type, docId(op.n), side, labels), labels };
      default:
        throw new Error(`${op.op}: a content-manager operation (prepare())`);
    }
  }

  private invalid(
    op: Extract<Op, { op: 'invalid' }>,
    type: TypeInfo,
    documentId: string,
    side: SidePorts,
    labels: Set<string>,
  ): Request {
    const path = `/api/${type.path}/${documentId}`;
    const attributes = Object.entries(type.attributes);
    const first = (pred: (t: string) => boolean) => attributes.find(([, a]) => pred(a.type))?.[0];
    const put = (data: unknown, q = ''): Request => ({ method: 'PUT', path: path + q, body: { data } });
    switch (op.kind) {
      case 'data-not-object':
        return put('text');
      case 'no-data':
        return { method: 'PUT', path, body: { nodata: {} } };
      case 'unknown-attribute':
        return put({ notAnAttribute: 1 });
      case 'wrong-type': {
        const number = first((t) => t === 'integer' || t === 'decimal' || t === 'boolean');
        return put(number ? { [number]: 'not a number' } : { [type.label ?? 'x']: { nested: true } });
      }
      case 'bad-enum': {
        const e = first((t) => t === 'enumeration');
        return put(e ? { [e]: 'not-in-enum' } : { [type.label ?? 'x']: ['a'] });
      }
      case 'required-empty': {
        const required = attributes.find(([, a]) => a.required && a.type === 'string')?.[0];
        return { method: 'POST', path: `/api/${type.path}`, body: { data: { [required ?? type.label ?? 'x']: '' } } };
      }
      case 'integer-64': {
        const integer = first((t) => t === 'integer');
        return put(integer ? { [integer]: 2 ** 40 } : { [type.label ?? 'x']: 2 ** 40 });
      }
      case 'missing-relation': {
        const relation = attributes.find(([, a]) => a.type === 'relation');
        return put(relation ? { [relation[0]]: { connect: [MISSING_DOCUMENT] } } : { [type.label ?? 'x']: 'y' });
      }
      case 'unknown-document':
        return {
          method: 'PUT',
          path: `/api/${type.path}/${MISSING_DOCUMENT}`,
          body: { data: type.label ? { [type.label]: `${this.prefix}-u` } : {} },
        };
      case 'bad-locale':
        return put({}, '?locale=xx-not-a-locale');
      case 'bad-status':
        return { method: 'GET', path: `${path}?status=sometimes` };
      case 'component-unknown': {
        const zone = first((t) => t === 'dynamiczone');
        const component = first((t) => t === 'component');
        if (zone) return put({ [zone]: [{ __component: 'nope.nothing' }] });
        if (component) return put({ [component]: { notAField: 1 } });
        void side;
        void labels;
        return put({ id: 5 });
      }
    }
  }

  private async send(side: SidePorts, op: Op, request: Request): Promise<Response> {
    if (request.via === 'cm' && request.method !== 'ACTION') return side.cm(request.method, request.path, request.body);
    if (request.method === 'ACTION') {
      const a = op as Extract<Op, { op: 'action' }>;
      const doc = this.docAt(a.type, a.n);
      return side.action(this.typeOf(a.type), doc?.ids[side.name] ?? MISSING_DOCUMENT, a.action, a.locale);
    }
    const api = side.api;
    switch (request.method) {
      case 'GET':
        return api.get(request.path);
      case 'POST':
        return api.post(request.path, request.body);
      case 'PUT':
        return api.put(request.path, request.body);
      case 'DELETE':
        return api.delete(request.path);
    }
  }

  /** Placeholders for what legitimately differs: documentIds by creation order, ids, times, media files. */
  normalise(value: unknown, side: SideName, key?: string): unknown {
    if (Array.isArray(value)) return value.map((v) => this.normalise(v, side));
    if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      // Media by their upload order (Strapi's file rows carry hashes, urls and formats of their own).
      const file = this.byId[side].get(String(o.documentId));
      if (file?.startsWith('file#') || ('mime' in o && 'hash' in o)) return { file: file ?? '<file?>', name: o.name };
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(o).sort()) {
        // Attributes Strapi's copy of the project lacks (the content manager answers them all).
        if (k === 'id' || this.options.schema.stripped.has(k)) continue;
        if (ADMIN_FIELDS.has(k) && o[k] && typeof o[k] === 'object') {
          out[k] = '<admin>';
          continue;
        }
        out[k] = this.normalise(o[k], side, k);
      }
      return out;
    }
    if (key && ADMIN_FIELDS.has(key) && value && typeof value === 'object') return '<admin>';
    if (key === '__temp_key__') return '<key>';
    if (key === 'documentId' && typeof value === 'string')
      return this.byId[side].get(value) ?? (value === MISSING_DOCUMENT ? '<missing>' : '<foreign>');
    if (key && TIMESTAMPS.has(key) && typeof value === 'string') return '<time>';
    if (typeof value === 'string' && value.startsWith(this.prefix)) return `<p>${value.slice(this.prefix.length)}`;
    return value;
  }

  private comparable(response: Response, side: SideName): unknown {
    if (response.status >= 400) {
      const error = (response.body as { error?: { name?: string } } | null)?.error;
      return { status: response.status, error: error?.name ?? '<no envelope>' };
    }
    return { status: response.status, body: this.normalise(response.body, side) };
  }

  private labelsIn(json: string): string[] {
    return [...new Set(json.match(/"api::[a-z-]+\.[a-z-]+#\d+"/g) ?? [])].map((s) => s.slice(1, -1));
  }

  /** Every locale and status of a document, deep-populated, as both servers answer them. */
  private async readDocument(doc: DocRecord): Promise<Record<SideName, unknown>> {
    const type = this.typeOf(doc.type);
    const populate = encodeQuery(deepPopulate(this.options.schema, type.attributes), 'populate').join('&');
    const out = {} as Record<SideName, unknown>;
    for (const side of this.options.sides) {
      const reads: Record<string, unknown> = {};
      for (const locale of type.i18n ? (['en', 'fr'] as const) : [undefined]) {
        for (const status of type.draftAndPublish ? (['draft', 'published'] as const) : [undefined]) {
          const q = [populate, status && `status=${status}`, locale && `locale=${locale}`].filter(Boolean).join('&');
          const res = await side.api.get(`/api/${type.path}/${doc.ids[side.name]}?${q}`);
          reads[`${locale ?? '-'}/${status ?? '-'}`] = this.comparable(res, side.name);
          const row = (res.body as { data?: { id?: number } } | null)?.data;
          if (res.status === 200 && typeof row?.id === 'number' && status !== 'published')
            doc.rowIds[side.name][locale ?? 'en'] = row.id;
          if (this.options.api === 'content-manager') {
            const cmq = [status && `status=${status}`, locale && `locale=${locale}`].filter(Boolean).join('&');
            const cm = await side.cm(
              'GET',
              `/content-manager/collection-types/${type.uid}/${doc.ids[side.name]}?${cmq}`,
            );
            reads[`cm ${locale ?? '-'}/${status ?? '-'}`] = sortedMeta(this.comparable(cm, side.name));
          }
        }
      }
      out[side.name] = reads;
    }
    return out;
  }

  /** The run's documents of one type in lists (draft and published): which exist, and the total. */
  private async readList(type: TypeInfo): Promise<Record<SideName, unknown>> {
    const out = {} as Record<SideName, unknown>;
    for (const side of this.options.sides) {
      const ids = this.docsOf(type.uid).map((d) => d.ids[side.name]);
      const reads: Record<string, unknown> = {};
      for (const status of type.draftAndPublish ? (['draft', 'published'] as const) : [undefined]) {
        const q = [
          ...encodeQuery(ids, 'filters[documentId][$in]'),
          status && `status=${status}`,
          'pagination[pageSize]=100',
          type.label && `fields[0]=${type.label}`,
        ]
          .filter(Boolean)
          .join('&');
        const res = await side.api.get(`/api/${type.path}?${q}`);
        const c = this.comparable(res, side.name) as { body?: { data?: { documentId: string }[]; meta?: unknown } };
        reads[status ?? '-'] = c.body
          ? {
              total: (c.body.meta as { pagination?: { total?: number } })?.pagination?.total,
              docs: (c.body.data ?? []).map((d) => JSON.stringify(d)).sort(),
            }
          : c;
      }
      out[side.name] = reads;
    }
    return out;
  }

  /**
   * The events since the last call, once both receivers hold as many new ones and nothing has come
   * for a while: 150 ms when neither has any (a refused write, a read), 80 ms otherwise (Strapi
   * sends right after its answer, Vellum's outbox within its 50 ms poll). At most 3 s: a count that
   * stays unequal is a difference, reported as such.
   */
  private async settleWebhooks(): Promise<Record<SideName, unknown[]>> {
    const [a, b] = this.options.sides;
    const fresh = (side: SidePorts) => side.receiver.requests.length - this.webhookSeen[side.name];
    let last = `${fresh(a)}/${fresh(b)}`;
    let quietSince = Date.now();
    const end = Date.now() + 3000;
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      const now = `${fresh(a)}/${fresh(b)}`;
      if (now !== last) {
        last = now;
        quietSince = Date.now();
        continue;
      }
      if (fresh(a) === fresh(b) && Date.now() - quietSince >= (fresh(a) === 0 ? 150 : 80)) break;
    }
    const out = {} as Record<SideName, unknown[]>;
    for (const side of this.options.sides) {
      const fresh = side.receiver.requests.slice(this.webhookSeen[side.name]);
      this.webhookSeen[side.name] = side.receiver.requests.length;
      out[side.name] = fresh
        .map((r) => r.body as { event?: string; model?: string; uid?: string; entry?: unknown; media?: unknown })
        .filter((b) => b?.event?.startsWith('entry.') || b?.event?.startsWith('media.'))
        .map((b) => ({
          event: b.event,
          model: b.model,
          uid: b.uid,
          entry: localizationsSorted(this.normalise(without(b.entry, this.options.schema.stripped), side.name)),
          media: this.normalise(b.media, side.name),
        }));
    }
    return out;
  }

  private fail(message: string, allowedBy?: string): never {
    throw new SequenceFailure(message, this.transcript.join('\n'), allowedBy);
  }

  /** Fails on a difference unless the allow-list takes it (then the sequence ends, counted). */
  private check(what: string, op: Op, strapi: unknown, vellum: unknown, answers: Record<SideName, Response>): void {
    const found = differences(strapi, vellum, '$', [], 12);
    if (!found.length) return;
    const difference: Difference = { what, op, found, answers, schema: this.options.schema, newLocale: this.newLocale };
    const allowance = allowed(difference, this.options.known);
    const message = `${what} differ:\n    ${found.join('\n    ')}`;
    this.transcript.push(`  !! ${message}`);
    if (allowance) {
      this.options.counters.set(allowance.name, (this.options.counters.get(allowance.name) ?? 0) + 1);
      if (what.startsWith('answers')) this.answersAllowed = allowance.name;
      // Two refusals that differ: the states are still comparable, go on; anything else ends the sequence.
      if (
        allowance.continues ||
        (what.startsWith('answers') && answers.strapi.status >= 400 && answers.vellum.status >= 400)
      )
        return;
      this.fail(message, allowance.name);
    }
    this.fail(message);
  }

  private newLocale = false;
  /** The allowance that took this step's answers, if any: the events then differ as the answers do. */
  private answersAllowed: string | undefined;

  /** Whether the step names a document of a type with none yet (then mostly skipped: nothing to write to). */
  private pointless(op: Op): boolean {
    return 'n' in op && !this.docsOf(op.type).length && op.n % 3 !== 0;
  }

  async step(op: Op, index: number): Promise<void> {
    const count = (name: string) => void this.options.counters.set(name, (this.options.counters.get(name) ?? 0) + 1);
    if (this.pointless(op)) {
      count('#steps skipped (no document of the type yet)');
      return;
    }
    count('#steps run');
    const [strapiSide, vellumSide] = this.options.sides;
    this.newLocale = false;
    this.answersAllowed = undefined;
    // A write without locale on an i18n type writes the default locale, perhaps a new one too.
    if ((op.op === 'update' || op.op === 'cm-save' || op.op === 'cm-publish') && this.typeOf(op.type).i18n) {
      const doc = this.docAt(op.type, op.n);
      const before = doc && this.snapshots.get(doc.label);
      const reads = before ? (JSON.parse(before) as Record<string, { status: number }>) : {};
      const locale = op.locale ?? 'en';
      this.newLocale = (reads[`${locale}/draft`] ?? reads[`${locale}/-`])?.status === 404;
    }
    const prepared = [] as { request: Request; labels: Set<string> }[];
    for (const side of this.options.sides) prepared.push(await this.prepare(op, side));
    const answers = {} as Record<SideName, Response>;
    for (const [i, side] of this.options.sides.entries())
      answers[side.name] = await this.send(side, op, prepared[i]!.request);
    const r = prepared[0]!.request;
    const shown = (res: Response) =>
      JSON.stringify(res.status >= 400 ? res.body : this.normalise(res.body, 'strapi'))?.slice(0, 700);
    this.transcript.push(
      `#${index} ${r.method} ${r.path}${r.body !== undefined ? ` ${JSON.stringify(r.body)}` : ''}`,
      `   vellum: ${prepared[1]!.request.method} ${prepared[1]!.request.path}${prepared[1]!.request.body !== undefined ? ` ${JSON.stringify(prepared[1]!.request.body)}` : ''}`,
      `   strapi -> ${answers.strapi.status} ${shown(answers.strapi)}`,
      `   vellum -> ${answers.vellum.status} ${JSON.stringify(answers.vellum.status >= 400 ? answers.vellum.body : this.normalise(answers.vellum.body, 'vellum'))?.slice(0, 700)}`,
    );
    const labels = prepared[0]!.labels;
    // A new document: its label, by creation order, for both servers' documentIds.
    if (op.op === 'create' || op.op === 'cm-create' || op.op === 'cm-clone') {
      const ok = (res: Response) => res.status === 200 || res.status === 201;
      if (ok(answers.strapi) && ok(answers.vellum)) {
        const label = `${op.type}#${this.docsOf(op.type).length}`;
        const ids = {
          strapi: answers.strapi.body.data.documentId as string,
          vellum: answers.vellum.body.data.documentId as string,
        };
        count('#documents created');
        this.docs.push({ label, type: op.type, ids, rowIds: { strapi: {}, vellum: {} } });
        this.byId.strapi.set(ids.strapi, label);
        this.byId.vellum.set(ids.vellum, label);
        labels.add(label);
      }
    }
    // Publication actions go to different APIs (Strapi's admin content-manager answers the editor's view): status and error only.
    const view = (res: Response, side: SideName) =>
      op.op === 'action'
        ? { status: res.status, error: (res.body as { error?: { name?: string } } | null)?.error?.name }
        : sortedMeta(this.comparable(res, side));
    this.check(
      `answers of step #${index}`,
      op,
      view(answers.strapi, 'strapi'),
      view(answers.vellum, 'vellum'),
      answers,
    );

    // Touched: the documents named, those the written one linked before, and those linking to it.
    const touched = new Set(labels);
    for (const label of labels) for (const other of this.labelsIn(this.snapshots.get(label) ?? '')) touched.add(other);
    for (const [label, json] of this.snapshots)
      if ([...labels].some((l) => json.includes(`"${l}"`))) touched.add(label);
    const types = new Set<string>();
    for (const label of [...touched].sort()) {
      const doc = this.docs.find((d) => d.label === label);
      if (!doc) continue;
      types.add(doc.type);
      const state = await this.readDocument(doc);
      this.check(`state of ${label} after step #${index}`, op, state.strapi, state.vellum, answers);
      this.snapshots.set(label, JSON.stringify(state.strapi));
    }
    for (const uid of types) {
      const lists = await this.readList(this.typeOf(uid));
      this.check(`list of ${uid} after step #${index}`, op, lists.strapi, lists.vellum, answers);
    }
    if (op.op === 'single-put' || op.op === 'single-delete' || op.op === 'cm-single') {
      const type = this.typeOf(op.type);
      const populate = encodeQuery(deepPopulate(this.options.schema, type.attributes), 'populate').join('&');
      const reads = await Promise.all([strapiSide, vellumSide].map((s) => s.api.get(`/api/${type.path}?${populate}`)));
      this.check(
        `state of ${type.uid} after step #${index}`,
        op,
        this.comparable(reads[0]!, 'strapi'),
        this.comparable(reads[1]!, 'vellum'),
        answers,
      );
      if (op.op === 'cm-single') {
        const path = `/content-manager/single-types/${type.uid}`;
        const cm = await Promise.all([strapiSide, vellumSide].map((s) => s.cm('GET', path)));
        this.check(
          `content-manager state of ${type.uid} after step #${index}`,
          op,
          sortedMeta(this.comparable(cm[0]!, 'strapi')),
          sortedMeta(this.comparable(cm[1]!, 'vellum')),
          answers,
        );
      }
    }
    if (this.options.webhooks) {
      const events = await this.settleWebhooks();
      if (this.answersAllowed) {
        count(`#webhook events not compared (answers differ as ${this.answersAllowed} allows)`);
        return;
      }
      // In emission order is not comparable (Strapi's runner sends five at once): sorted, compared whole.
      const sorted = (list: unknown[]) =>
        list
          .map((e) => [JSON.stringify(e), e] as const)
          .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
          .map(([, e]) => e);
      this.check(`webhook events of step #${index}`, op, sorted(events.strapi), sorted(events.vellum), answers);
    }
  }

  async start(): Promise<void> {
    // Single types are shared by every run: each starts from none.
    for (const type of this.options.schema.types.values()) {
      if (type.kind !== 'singleType') continue;
      for (const side of this.options.sides) await side.api.delete(`/api/${type.path}`);
    }
    if (this.options.webhooks) await this.settleWebhooks();
  }

  get text(): string {
    return this.transcript.join('\n');
  }
}

/**
 * `value` without the keys named, at every depth (attributes Strapi's copy of the project lacks).
 * The versions of one document next to each other in a list (a type without draft and publish
 * lists every linked row) are put draft first: Strapi's order of them follows its row lookups.
 */
function without(value: unknown, keys: Set<string>): unknown {
  if (Array.isArray(value)) {
    const items = value.map((item) => without(item, keys));
    const doc = (item: unknown) =>
      item && typeof item === 'object' ? (item as { documentId?: unknown }).documentId : undefined;
    const draftFirst = (item: unknown) => ((item as { publishedAt?: unknown }).publishedAt === null ? 0 : 1);
    for (let i = 0; i + 1 < items.length; i++) {
      if (
        doc(items[i]) !== undefined &&
        doc(items[i]) === doc(items[i + 1]) &&
        draftFirst(items[i]) > draftFirst(items[i + 1])
      )
        [items[i], items[i + 1]] = [items[i + 1], items[i]];
    }
    return items;
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !keys.has(key))
      .map(([key, item]) => [key, without(item, keys)]),
  );
}

/**
 * An entry's `localizations` (an unpublish event's) by locale and status: both servers list them by
 * row id, and which row of a document is older depends on how each one recreates rows.
 */
function localizationsSorted(entry: unknown): unknown {
  if (!entry || typeof entry !== 'object' || !Array.isArray((entry as { localizations?: unknown }).localizations))
    return entry;
  const key = (item: unknown) =>
    JSON.stringify([(item as { locale?: unknown }).locale, (item as { publishedAt?: unknown }).publishedAt === null]);
  const localizations = [...(entry as { localizations: unknown[] }).localizations].sort((a, b) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0,
  );
  return { ...entry, localizations };
}

/**
 * A content-manager answer with its lists of versions (`meta.availableLocales`,
 * `meta.availableStatus`, `data.localizations`) by locale and status: both servers list them in
 * row order, and rows are recreated differently on each.
 */
function sortedMeta(value: unknown): unknown {
  const c = value as { body?: { data?: Record<string, unknown>; meta?: Record<string, unknown> } };
  if (!c?.body || typeof c.body !== 'object') return value;
  const key = (v: unknown) =>
    JSON.stringify([(v as { locale?: unknown }).locale, (v as { publishedAt?: unknown }).publishedAt === null]);
  const sort = (list: unknown) =>
    Array.isArray(list) ? [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) : list;
  const body = { ...c.body };
  if (body.meta && typeof body.meta === 'object')
    body.meta = {
      ...body.meta,
      ...('availableLocales' in body.meta ? { availableLocales: sort(body.meta.availableLocales) } : {}),
      ...('availableStatus' in body.meta ? { availableStatus: sort(body.meta.availableStatus) } : {}),
    };
  if (body.data && typeof body.data === 'object' && Array.isArray(body.data.localizations))
    body.data = { ...body.data, localizations: sort(body.data.localizations) };
  return { ...c, body };
}
