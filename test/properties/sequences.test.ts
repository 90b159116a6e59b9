/**
 * Invariants of random write sequences, over HTTP against a real server (issue 29, section 3).
 *
 * Each property generates a sequence of writes (create, partial PUT, relation writes, publish,
 * unpublish, discard, DELETE, in draft and published, in `en` and `fr`), runs it against a server
 * and a model of expected state (./model.ts), and after every step reads back every version the
 * sequence made and checks:
 * - each version equals the model: a partial write changed only what it names (plus the shared
 *   values it wrote in the other locales), publish copied the draft, unpublish kept the draft,
 *   discard restored the published values, relation lists are in the order the positions said;
 * - the shared (non-localized) attributes are equal across a document's locales, per status;
 * - `meta.pagination.total` equals what a walk through the pages finds;
 * - the webhook events of the write: one per row written, each carrying the row as stored.
 *
 * A fixed seed in CI; `VELLUM_SEQ_SEED` and `VELLUM_SEQ_RUNS` override it (docs/contributing/sequences.md). A failure
 * prints the seed and the shrunk sequence as the HTTP requests it sent, documents by name.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { insertFile } from '../helpers/files.js';
import { HttpClient, type Response } from '../helpers/http.js';
import { Receiver, type Received } from '../helpers/receiver.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import {
  connect,
  disconnect,
  inverseAfter,
  Model,
  type Doc,
  type Json,
  type LocaleVersions,
  type Position,
  type TypeSpec,
  type Version,
} from './model.js';

const SEED = Number(process.env.VELLUM_SEQ_SEED ?? 29);
const RUNS = Number(process.env.VELLUM_SEQ_RUNS ?? 10);
const LOCALES = ['en', 'fr'] as const;
type Status = 'draft' | 'published';

/** Requests of the current run, printed (documents, files and tags by name) when it is the counterexample. */
class Log {
  readonly lines: string[] = [];
  readonly names = new Map<string, string>();
  name(real: string | number, name: string): void {
    this.names.set(String(real), name);
  }
  text(): string {
    let text = this.lines.join('\n');
    const ids: string[] = [];
    for (const [real, name] of this.names) {
      if (real.length > 6) text = text.split(real).join(name);
      else ids.push(`${name} = id ${real}`);
    }
    return (ids.length ? `(${ids.join(', ')})\n` : '') + text;
  }
}

/** A client that writes every request it sends into the log. */
class LoggedApi {
  constructor(
    private readonly api: HttpClient,
    readonly log: Log,
  ) {}
  async send(method: string, path: string, body?: unknown) {
    const res = await this.api.request(method, path, body === undefined ? {} : { body });
    this.log.lines.push(`${method} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`}  -> ${res.status}`);
    return res;
  }
  get(path: string) {
    return this.api.get(path);
  }
}

/** Runs a property with the seed and prints the counterexample's requests (the last failing run is the shrunk one). */
async function check<T>(
  label: string,
  arbitrary: fc.Arbitrary<T>,
  run: (value: T, log: Log) => Promise<void>,
  runs = RUNS,
): Promise<void> {
  let failing: { log: Log; error: unknown } | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    const log = new Log();
    try {
      await run(value, log);
    } catch (error) {
      failing = { log, error };
      throw error;
    }
  });
  const details = await fc.check(property, { seed: SEED, numRuns: runs });
  if (!details.failed) return;
  const message = failing?.error instanceof Error ? failing.error.message : String(failing?.error);
  assert.fail(
    `${label}: invariant broken (VELLUM_SEQ_SEED=${SEED} VELLUM_SEQ_RUNS=${runs}: run ${details.numRuns} failed, ${details.numShrinks} shrinks)\n` +
      `${message}\n--- the shrunk sequence, as sent ---\n${failing?.log.text()}\n---`,
  );
}

// ---------------------------------------------------------------------------------------------
// Localized draft-and-publish types: blog articles, relation-matrix pages.

/** What a sequence step writes, by name: tags tag0.., files file0.. (the run makes them). */
type Data = Record<string, Json>;

type Op =
  | { op: 'create'; locale: string; draft: boolean; data: Data }
  | { op: 'update'; doc: number; locale: string; draft: boolean; data: Data }
  | { op: 'relation'; doc: number; locale: string; draft: boolean; write: RelationWrite }
  | { op: 'publish' | 'unpublish' | 'discard'; doc: number; locale: string }
  | { op: 'delete'; doc: number; locale: string | null };

type RelationWrite =
  | { kind: 'set'; keys: number[] }
  | { kind: 'disconnect'; keys: number[] }
  | {
      kind: 'connect';
      items: { key: number; position: 'none' | 'start' | 'end' | 'before' | 'after'; other: number }[];
    };

interface LocalizedType {
  label: string;
  project?: string;
  spec: TypeSpec;
  /** The attribute for `filters[...][$startsWith]` (localized, required). */
  titleField: string;
  /** A uid attribute written with a fresh value whenever the title is, or null. */
  uidField: string | null;
  /** The ordered relation the relation writes use, to `targets` rows made by the run. */
  relation: { attribute: string; plural: string; count: number } | null;
  files: number;
  /** The attributes an event of a deleted or unpublished row carries (it is sent without populate). */
  scalars: string[];
  populate: string;
  data: fc.Arbitrary<Data>;
  /** A read row (REST or an event's entry), with relation targets and files by name. */
  normalize(row: Record<string, any>, name: (real: string | number) => string): Version;
}

const pick = (value: Record<string, any> | null | undefined, fields: string[]): Version | null =>
  value ? Object.fromEntries(fields.map((field) => [field, value[field] ?? null])) : null;

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta');
const fileName = fc.nat(3).map((n) => `file${n}`);
const fileNames = fc.uniqueArray(fc.nat(3), { maxLength: 3 }).map((ns) => ns.map((n) => `file${n}`));

const ARTICLES: LocalizedType = {
  label: 'blog articles',
  spec: {
    plural: 'articles',
    defaultLocale: 'en',
    initial: {
      title: null,
      slug: null,
      body: null,
      views: 0,
      rating: null,
      featured: false,
      publishDate: null,
      kind: null,
      metadata: null,
      cover: null,
      gallery: [],
      tags: [],
      seo: null,
      links: [],
      blocks: [],
    },
    shared: new Set(['views', 'rating', 'featured', 'publishDate', 'kind', 'metadata', 'cover', 'gallery']),
  },
  titleField: 'title',
  uidField: 'slug',
  relation: { attribute: 'tags', plural: 'tags', count: 4 },
  files: 4,
  scalars: ['title', 'slug', 'body', 'views', 'rating', 'featured', 'publishDate', 'kind', 'metadata'],
  populate:
    'populate[tags]=true&populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[links]=true&populate[blocks]=true',
  data: fc.record(
    {
      title: word,
      body: maybe(word),
      views: fc.integer({ min: 1, max: 999 }),
      rating: maybe(fc.constantFrom(1.5, 2.25, 4)),
      featured: fc.boolean(),
      publishDate: maybe(fc.constantFrom('2024-01-02', '2025-12-31')),
      kind: maybe(fc.constantFrom('news', 'tutorial', 'opinion')),
      metadata: maybe(fc.constantFrom<Json>({ a: 1 }, [1, 'two'], { nested: { b: true } })),
      cover: maybe(fileName),
      gallery: fileNames,
      tags: fc.uniqueArray(fc.nat(3), { maxLength: 3 }).map((ns) => ns.map((n) => `tag${n}`)),
      seo: maybe(fc.record({ metaTitle: word, metaDescription: maybe(word) })),
      links: fc.array(
        fc.record({ label: word, url: maybe(fc.constantFrom('https://a.example', 'https://b.example')) }),
        { maxLength: 2 },
      ),
      blocks: fc.array(
        fc.oneof(
          fc.record({ __component: fc.constant('shared.quote'), title: maybe(word), body: maybe(word) }),
          fc.record({ __component: fc.constant('shared.rich-text'), body: maybe(word) }),
        ),
        { maxLength: 2 },
      ),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Data>,
  normalize(row, name) {
    return {
      title: row.title ?? null,
      slug: row.slug ?? null,
      body: row.body ?? null,
      views: row.views ?? null,
      rating: row.rating ?? null,
      featured: row.featured ?? null,
      publishDate: row.publishDate ?? null,
      kind: row.kind ?? null,
      metadata: row.metadata ?? null,
      cover: row.cover ? name(row.cover.id) : null,
      gallery: (row.gallery ?? []).map((file: { id: number }) => name(file.id)),
      tags: (row.tags ?? []).map((tag: { documentId: string }) => name(tag.documentId)),
      seo: pick(row.seo, ['metaTitle', 'metaDescription']),
      links: (row.links ?? []).map((link: Record<string, any>) => pick(link, ['label', 'url'])),
      blocks: (row.blocks ?? []).map((block: Record<string, any>) =>
        pick(block, block.__component === 'shared.quote' ? ['__component', 'title', 'body'] : ['__component', 'body']),
      ),
    };
  },
};

const PAGES: LocalizedType = {
  label: 'relation-matrix pages',
  project: fixture('relation-matrix'),
  spec: {
    plural: 'pages',
    defaultLocale: 'en',
    initial: { title: null, note: null, code: null, hero: null, links: null, sections: [], body: [] },
    // `note` has no i18n option: shared, as Strapi's rule says.
    shared: new Set(['note', 'code', 'hero', 'links', 'sections']),
  },
  titleField: 'title',
  uidField: null,
  relation: null,
  files: 4,
  scalars: ['title', 'note', 'code'],
  populate: 'populate[hero]=true&populate[links]=true&populate[sections]=true&populate[body]=true',
  data: fc.record(
    {
      title: word,
      note: maybe(word),
      code: maybe(word),
      hero: maybe(fileName),
      links: maybe(fc.record({ caption: maybe(word) })),
      sections: fc.array(
        fc.oneof(
          fc.record({ __component: fc.constant('matrix.links'), caption: maybe(word) }),
          fc.record({ __component: fc.constant('matrix.nested'), heading: maybe(word) }),
        ),
        { maxLength: 2 },
      ),
      body: fc.array(fc.record({ __component: fc.constant('matrix.links'), caption: maybe(word) }), { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ) as fc.Arbitrary<Data>,
  normalize(row, name) {
    const entry = (block: Record<string, any>) =>
      pick(block, block.__component === 'matrix.nested' ? ['__component', 'heading'] : ['__component', 'caption']);
    return {
      title: row.title ?? null,
      note: row.note ?? null,
      code: row.code ?? null,
      hero: row.hero ? name(row.hero.id) : null,
      links: pick(row.links, ['caption']),
      sections: (row.sections ?? []).map(entry),
      body: (row.body ?? []).map(entry),
    };
  },
};

const locale = fc.constantFrom(...LOCALES);
const doc = fc.nat(4);
const relationWrite: fc.Arbitrary<RelationWrite> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), keys: fc.uniqueArray(fc.nat(3), { maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('disconnect' as const),
    keys: fc.uniqueArray(fc.nat(3), { minLength: 1, maxLength: 2 }),
  }),
  fc.record({
    kind: fc.constant('connect' as const),
    items: fc.uniqueArray(
      fc.record({
        key: fc.nat(3),
        position: fc.constantFrom('none', 'none', 'start', 'end', 'before', 'after'),
        other: fc.nat(3),
      }),
      { minLength: 1, maxLength: 2, selector: (item) => item.key },
    ),
  }),
);

const opsFor = (type: LocalizedType): fc.Arbitrary<Op[]> => {
  const ops: fc.Arbitrary<Op>[] = [
    fc.record({
      op: fc.constant('create' as const),
      locale: fc.constantFrom('en', 'en', 'fr'),
      draft: fc.boolean(),
      data: type.data,
    }),
    fc.record({ op: fc.constant('update' as const), doc, locale, draft: fc.boolean(), data: type.data }),
    fc.record({ op: fc.constantFrom('publish' as const, 'unpublish' as const, 'discard' as const), doc, locale }),
    fc.record({ op: fc.constant('delete' as const), doc, locale: fc.constantFrom<string | null>(null, 'en', 'fr') }),
  ];
  const weighted = ops.map((arbitrary, at) => ({ arbitrary, weight: [2, 3, 2, 1][at]! }));
  // Relation writes weigh most: their order rules have the most cases.
  if (type.relation)
    weighted.push({
      arbitrary: fc.record({
        op: fc.constant('relation' as const),
        doc,
        locale,
        draft: fc.boolean(),
        write: relationWrite,
      }),
      weight: 4,
    });
  return fc.array(fc.oneof(...weighted), { minLength: 4, maxLength: 16 });
};

const ENTRY_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
];

/** The rows a write should send an event about: [event, locale, status]. */
type Expected = [string, string, Status][];

/** The events a step's write should have sent, checked once its state is. */
interface Pending {
  doc: Doc;
  expected: Expected;
  /** The document's versions before the write (a deleted or unpublished row's event carries them). */
  before: [string, LocaleVersions][] | null;
}

/** One sequence of one run, against the server and the model. */
class LocalizedRun {
  readonly model: Model;
  readonly prefix = unique('seq').replace('-', '');
  private counter = 0;
  /** Run names of relation targets and files -> their documentIds and ids. */
  private readonly real = new Map<string, string | number>();
  private readonly byReal = new Map<string, string>();
  private eventsSeen = 0;

  constructor(
    readonly type: LocalizedType,
    readonly server: TestServer,
    readonly api: LoggedApi,
    readonly receiver: Receiver | null,
  ) {
    this.model = new Model(type.spec);
  }

  private named(real: string | number, name: string): void {
    this.real.set(name, real);
    this.byReal.set(String(real), name);
    this.api.log.name(real, name);
  }
  readonly nameOf = (real: string | number): string => this.byReal.get(String(real)) ?? `?${real}`;

  async setUp(): Promise<void> {
    for (let n = 0; n < this.type.files; n++)
      this.named(await insertFile(this.server, `${this.prefix}-f${n}.png`), `file${n}`);
    const relation = this.type.relation;
    if (relation) {
      for (let n = 0; n < relation.count; n++) {
        const res: Response = await this.server.api.post(`/api/${relation.plural}`, {
          data: { name: `${this.prefix}-tag${n}` },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        this.named(res.body.data.documentId, `tag${n}`);
      }
    }
  }

  /** The run's values: titles under the run's prefix, fresh uids. */
  private concrete(data: Data, needsTitle: boolean): Data {
    const out: Data = { ...data };
    const title = this.type.titleField;
    if (title in out || needsTitle) out[title] = `${this.prefix} ${(out[title] as string | undefined) ?? 'title'}`;
    if (this.type.uidField && title in out) out[this.type.uidField] = `${this.prefix}-u${this.counter++}`;
    return out;
  }

  /** The request body of model values: names become documentIds and file ids. */
  private body(data: Data): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      const real = (v: Json) => (typeof v === 'string' && this.real.has(v) ? this.real.get(v)! : v);
      out[key] =
        Array.isArray(value) && value.every((v) => typeof v === 'string' && this.real.has(v)) && value.length > 0
          ? value.map(real)
          : real(value);
    }
    return out;
  }

  private query(locale: string | null, draft = false): string {
    const params = [locale ? `locale=${locale}` : '', draft ? 'status=draft' : ''].filter(Boolean);
    return params.length ? `?${params.join('&')}` : '';
  }

  async step(op: Op): Promise<Pending | undefined> {
    const { model } = this;
    const plural = this.type.spec.plural;
    const live = model.live;
    if (op.op === 'create') {
      const data = this.concrete(op.data, true);
      const res = await this.api.send(
        'POST',
        `/api/${plural}${this.query(op.locale === 'en' ? null : op.locale, op.draft)}`,
        { data: this.body(data) },
      );
      assert.equal(res.status, 201, `create: ${JSON.stringify(res.body)}`);
      const name = `doc${model.docs.length}`;
      this.named(res.body.data.documentId, name);
      model.create(name, res.body.data.documentId, op.locale, data, op.draft);
      const expected: Expected = [['entry.create', op.locale, 'draft']];
      if (!op.draft) expected.push(['entry.publish', op.locale, 'published']);
      return { doc: model.docs.at(-1)!, expected, before: null };
    }
    if (live.length === 0) return;
    const target = live[op.doc % live.length]!;
    const path = `/api/${plural}/${target.documentId}`;
    const before = structuredClone([...target.locales]);
    const has = target.locales.get(op.op === 'delete' ? (op.locale ?? 'en') : op.locale);
    switch (op.op) {
      case 'update': {
        const data = this.concrete(op.data, !has);
        const res = await this.api.send('PUT', `${path}${this.query(op.locale, op.draft)}`, { data: this.body(data) });
        assert.equal(res.status, 200, `update: ${JSON.stringify(res.body)}`);
        model.update(target, op.locale, data, op.draft);
        const expected: Expected = [[has ? 'entry.update' : 'entry.create', op.locale, 'draft']];
        if (!op.draft) expected.push(['entry.publish', op.locale, 'published']);
        return { doc: target, expected, before };
      }
      case 'relation': {
        if (!this.type.relation) return;
        // A locale the document has (a relation write is no way to create one).
        const locale: string = has ? op.locale : [...target.locales.keys()][0]!;
        const attribute = this.type.relation.attribute;
        const list = (target.locales.get(locale)!.draft[attribute] as string[]).slice();
        const tag = (n: number) => `tag${n}`;
        let next: string[];
        let write: Record<string, unknown>;
        if (op.write.kind === 'set') {
          next = op.write.keys.map(tag);
          write = { set: next.map((key) => this.real.get(key)) };
        } else if (op.write.kind === 'disconnect') {
          next = disconnect(list, op.write.keys.map(tag));
          write = { disconnect: op.write.keys.map((n) => this.real.get(tag(n))) };
        } else {
          // Positions name an entry linked before the write and not moved by it (else a 400, tested elsewhere).
          const moving = new Set(op.write.items.map((item) => tag(item.key)));
          const anchors = list.filter((key) => !moving.has(key));
          const items = op.write.items.map(({ key, position, other }) => {
            const anchor = anchors[other % Math.max(anchors.length, 1)];
            const pos: Position | undefined =
              position === 'start'
                ? { start: true }
                : position === 'end'
                  ? { end: true }
                  : (position === 'before' || position === 'after') && anchor
                    ? ({ [position]: anchor } as Position)
                    : undefined;
            return { key: tag(key), position: pos };
          });
          next = connect(list, items);
          write = {
            connect: items.map(({ key, position }) => {
              if (!position) return { documentId: this.real.get(key) };
              const real = Object.fromEntries(
                Object.entries(position).map(([k, v]) => [k, typeof v === 'string' ? this.real.get(v) : v]),
              );
              return { documentId: this.real.get(key), position: real };
            }),
          };
        }
        const res = await this.api.send('PUT', `${path}${this.query(locale, op.draft)}`, {
          data: { [attribute]: write },
        });
        assert.equal(res.status, 200, `relation write: ${JSON.stringify(res.body)}`);
        model.update(target, locale, { [attribute]: next }, op.draft);
        const expected: Expected = [['entry.update', locale, 'draft']];
        if (!op.draft) expected.push(['entry.publish', locale, 'published']);
        return { doc: target, expected, before };
      }
      case 'publish':
      case 'unpublish':
      case 'discard': {
        const action = op.op === 'discard' ? 'discard-draft' : op.op;
        const res = await this.api.send('POST', `${path}/actions/${action}?locale=${op.locale}`);
        const possible = has && (op.op === 'publish' || has.published);
        if (!possible) {
          assert.equal(res.status, 404, `${action} of a missing version: ${JSON.stringify(res.body)}`);
          return { doc: target, expected: [], before };
        }
        assert.equal(res.status, 200, `${action}: ${JSON.stringify(res.body)}`);
        model[op.op](target, op.locale);
        const event = { publish: 'entry.publish', unpublish: 'entry.unpublish', discard: 'entry.draft-discard' }[op.op];
        return { doc: target, expected: [[event, op.locale, op.op === 'discard' ? 'draft' : 'published']], before };
      }
      case 'delete': {
        const res = await this.api.send('DELETE', `${path}${this.query(op.locale)}`);
        const locale = op.locale ?? this.type.spec.defaultLocale;
        if (!has) {
          assert.equal(res.status, 404, `delete of a missing locale: ${JSON.stringify(res.body)}`);
          return { doc: target, expected: [], before };
        }
        assert.equal(res.status, 204, `delete: ${JSON.stringify(res.body)}`);
        model.delete(target, locale);
        const expected: Expected = [['entry.delete', locale, 'draft']];
        if (has.published) expected.push(['entry.delete', locale, 'published']);
        return { doc: target, expected, before };
      }
    }
  }

  /**
   * The write's events: one per row it wrote, each carrying the row as the model says it is now
   * (a deleted or unpublished row: as it was).
   */
  async events({ doc, expected, before }: Pending): Promise<void> {
    const receiver = this.receiver;
    if (!receiver) return;
    const mine = () =>
      receiver.delivered.filter((r) => this.model.docs.some((d) => d.documentId === r.body?.entry?.documentId));
    await receiver.until(
      () => mine().length >= this.eventsSeen + expected.length,
      `${expected.length} events of ${doc.name}`,
      10_000,
    );
    const got = mine().slice(this.eventsSeen);
    this.eventsSeen += got.length;
    const describe = (r: Received) =>
      `${r.body.event} ${this.nameOf(r.body.entry.documentId)} ${r.body.entry.locale} ${r.body.entry.publishedAt ? 'published' : 'draft'}`;
    const wanted = expected.map(([event, locale, status]) => `${event} ${doc.name} ${locale} ${status}`);
    assert.deepEqual(got.map(describe).sort(), wanted.sort(), 'the events of the write (one per row written)');
    const previous = new Map(before ?? []);
    for (const r of got) {
      const { event, entry } = r.body;
      const status: Status = entry.publishedAt ? 'published' : 'draft';
      const gone = event === 'entry.delete' || event === 'entry.unpublish';
      const source = gone ? previous.get(entry.locale) : doc.locales.get(entry.locale);
      const version = (status === 'draft' ? source?.draft : source?.published) ?? {};
      const sent = this.type.normalize(entry, this.nameOf);
      const compared = gone ? this.type.scalars : Object.keys(version);
      const only = (v: Version) => Object.fromEntries(compared.map((a) => [a, v[a]]));
      assert.deepEqual(only(sent), only(version), `the entry of ${describe(r)} is the row as stored`);
    }
  }

  /** Reads every version of the run in `status`, walking the pages, and checks totals. */
  private async readAll(status: Status): Promise<Map<string, Version>> {
    const filter = `filters[${this.type.titleField}][$startsWith]=${encodeURIComponent(this.prefix)}`;
    const rows = new Map<string, Version>();
    let total: number | undefined;
    for (let page = 1; ; page++) {
      const res = await this.api.get(
        `/api/${this.type.spec.plural}?locale=*&status=${status}&${filter}&${this.type.populate}&sort=id&pagination[pageSize]=4&pagination[page]=${page}`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const pagination = res.body.meta.pagination;
      total ??= pagination.total;
      assert.equal(pagination.total, total, `meta.pagination.total changes from page to page (${status})`);
      for (const row of res.body.data) {
        const key = `${this.nameOf(row.documentId)} ${row.locale}`;
        assert.ok(!rows.has(key), `${key} is listed twice (${status})`);
        rows.set(key, this.type.normalize(row, this.nameOf));
      }
      if (page >= pagination.pageCount) break;
    }
    assert.equal(
      rows.size,
      total ?? 0,
      `meta.pagination.total (${total}) is what a walk through the pages finds (${rows.size}), ${status}`,
    );
    return rows;
  }

  /** Every invariant, on what the server holds now. */
  async verify(lastOp: Op): Promise<void> {
    const spec = this.type.spec;
    const observed = { draft: await this.readAll('draft'), published: await this.readAll('published') };
    for (const status of ['draft', 'published'] as const) {
      // Shared attributes: one value per document and status, whatever the model says.
      const byDoc = new Map<string, [string, Version][]>();
      for (const [key, version] of observed[status]) {
        const [name] = key.split(' ');
        byDoc.set(name!, [...(byDoc.get(name!) ?? []), [key, version]]);
      }
      for (const versions of byDoc.values()) {
        const [first, ...others] = versions;
        for (const [key, version] of others) {
          for (const attribute of spec.shared) {
            assert.deepEqual(
              version[attribute],
              first![1][attribute],
              `shared attribute ${attribute}: ${key} and ${first![0]} differ (${status})`,
            );
          }
        }
      }
      // Each version as the model has it.
      const expected = new Map(
        this.model.rows(status).map(({ doc, locale, version }) => [`${doc.name} ${locale}`, version]),
      );
      assert.deepEqual(
        [...observed[status].keys()].sort(),
        [...expected.keys()].sort(),
        `the ${status} versions that exist`,
      );
      for (const [key, version] of expected) {
        const got = observed[status].get(key)!;
        const changed = Object.keys(version).filter(
          (attribute) => JSON.stringify(version[attribute]) !== JSON.stringify(got[attribute]),
        );
        assert.deepEqual(
          Object.fromEntries(changed.map((a) => [a, got[a]])),
          Object.fromEntries(changed.map((a) => [a, version[a]])),
          `${key} ${status}: got (actual) vs the model (expected)`,
        );
      }
    }
    // After a publish, the published version equals the draft (checked on what was read).
    if (lastOp.op === 'publish' || ((lastOp.op === 'update' || lastOp.op === 'relation') && !lastOp.draft)) {
      const doc = this.model.live[lastOp.doc % Math.max(this.model.live.length, 1)];
      const key = doc && `${doc.name} ${lastOp.locale}`;
      if (key && observed.published.has(key))
        assert.deepEqual(
          observed.published.get(key),
          observed.draft.get(key),
          `${key}: published equals the draft after publishing`,
        );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Relation order on both sides: relation-matrix owners.manyToManyBi <-> targets.manyToManyInv,
// with the owners' components and zone written beside them.

type RelOp =
  | { op: 'owner'; owner: number; write: RelationWrite }
  | { op: 'target'; target: number; write: RelationWrite }
  | { op: 'owner-fields'; owner: number; data: Data };

const ownerData: fc.Arbitrary<Data> = fc.record(
  {
    name: word,
    block: maybe(fc.record({ caption: maybe(word) })),
    blocks: fc.array(fc.record({ caption: maybe(word) }), { maxLength: 2 }),
    zone: fc.array(
      fc.oneof(
        fc.record({ __component: fc.constant('matrix.links'), caption: maybe(word) }),
        fc.record({ __component: fc.constant('matrix.nested'), heading: maybe(word) }),
      ),
      { maxLength: 2 },
    ),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Data>;

const relOps: fc.Arbitrary<RelOp[]> = fc.array(
  fc.oneof(
    fc.record({ op: fc.constant('owner' as const), owner: fc.nat(2), write: relationWrite }),
    fc.record({ op: fc.constant('target' as const), target: fc.nat(3), write: relationWrite }),
    fc.record({ op: fc.constant('owner-fields' as const), owner: fc.nat(2), data: ownerData }),
  ),
  { minLength: 1, maxLength: 14 },
);

class RelationRun {
  readonly prefix = unique('rel').replace('-', '');
  readonly owners: string[] = [];
  readonly targets: string[] = [];
  /** Draft lists by name: owner -> targets (its order), target -> owners (the inverse order). */
  readonly ownerLists = new Map<string, string[]>();
  readonly targetLists = new Map<string, string[]>();
  readonly ownerFields = new Map<string, Version>();
  private readonly real = new Map<string, string>();
  private readonly byReal = new Map<string, string>();

  constructor(
    readonly server: TestServer,
    readonly api: LoggedApi,
  ) {}

  private readonly nameOf = (real: string): string => this.byReal.get(real) ?? `?${real}`;

  async setUp(): Promise<void> {
    for (const [plural, names, count] of [
      ['targets', this.targets, 4],
      ['owners', this.owners, 3],
    ] as const) {
      for (let n = 0; n < count; n++) {
        const name = `${plural === 'owners' ? 'owner' : 'target'}${n}`;
        const res = await this.api.send('POST', `/api/${plural}?status=draft`, {
          data: { name: `${this.prefix} ${name}` },
        });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        this.real.set(name, res.body.data.documentId);
        this.byReal.set(res.body.data.documentId, name);
        this.api.log.name(res.body.data.documentId, name);
        names.push(name);
        (plural === 'owners' ? this.ownerLists : this.targetLists).set(name, []);
        if (plural === 'owners')
          this.ownerFields.set(name, { name: `${this.prefix} ${name}`, block: null, blocks: [], zone: [] });
      }
    }
  }

  /** The body of a relation write from the side whose other side is `others`, and the list it leaves. */
  private relationBody(
    list: string[],
    others: string[],
    write: RelationWrite,
  ): { next: string[]; body: Record<string, unknown> } {
    const other = (n: number) => others[n % others.length]!;
    const real = (name: string) => this.real.get(name)!;
    if (write.kind === 'set') {
      const next = [...new Set(write.keys.map(other))];
      return { next, body: { set: next.map(real) } };
    }
    if (write.kind === 'disconnect') {
      const keys = write.keys.map(other);
      return { next: disconnect(list, keys), body: { disconnect: keys.map(real) } };
    }
    const seen = new Set<string>();
    const chosen = write.items.filter((item) => !seen.has(other(item.key)) && seen.add(other(item.key)));
    const moving = new Set(chosen.map((item) => other(item.key)));
    const anchors = list.filter((key) => !moving.has(key));
    const items = chosen.map(({ key, position, other: o }) => {
      const anchor = anchors[o % Math.max(anchors.length, 1)];
      const pos: Position | undefined =
        position === 'start'
          ? { start: true }
          : position === 'end'
            ? { end: true }
            : (position === 'before' || position === 'after') && anchor
              ? ({ [position]: anchor } as Position)
              : undefined;
      return { key: other(key), position: pos };
    });
    const body = items.map(({ key, position }) =>
      position
        ? {
            documentId: real(key),
            position: Object.fromEntries(
              Object.entries(position).map(([k, v]) => [k, typeof v === 'string' ? real(v) : v]),
            ),
          }
        : { documentId: real(key) },
    );
    return { next: connect(list, items), body: { connect: body } };
  }

  async step(op: RelOp): Promise<void> {
    if (op.op === 'owner-fields') {
      const owner = this.owners[op.owner % this.owners.length]!;
      const data = { ...op.data };
      if ('name' in data) data.name = `${this.prefix} ${data.name}`;
      const res = await this.api.send('PUT', `/api/owners/${this.real.get(owner)}?status=draft`, { data });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      Object.assign(this.ownerFields.get(owner)!, structuredClone(data));
      return;
    }
    const fromOwner = op.op === 'owner';
    const self = fromOwner
      ? this.owners[op.owner % this.owners.length]!
      : this.targets[op.target % this.targets.length]!;
    const [mine, theirs] = fromOwner ? [this.ownerLists, this.targetLists] : [this.targetLists, this.ownerLists];
    const list = mine.get(self)!;
    const { next, body } = this.relationBody(list, fromOwner ? this.targets : this.owners, op.write);
    const plural = fromOwner ? 'owners' : 'targets';
    const attribute = fromOwner ? 'manyToManyBi' : 'manyToManyInv';
    const res = await this.api.send('PUT', `/api/${plural}/${this.real.get(self)}?status=draft`, {
      data: { [attribute]: body },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    mine.set(self, next);
    for (const [other, otherList] of theirs) theirs.set(other, inverseAfter(otherList, self, next.includes(other)));
  }

  async verify(): Promise<void> {
    for (const [plural, attribute, lists] of [
      ['owners', 'manyToManyBi', this.ownerLists],
      ['targets', 'manyToManyInv', this.targetLists],
    ] as const) {
      const populate =
        plural === 'owners'
          ? `populate[${attribute}]=true&populate[block]=true&populate[blocks]=true&populate[zone]=true`
          : `populate[${attribute}]=true`;
      const res = await this.api.get(
        `/api/${plural}?status=draft&filters[name][$startsWith]=${this.prefix}&${populate}&pagination[pageSize]=100`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const got = new Map<string, string[]>(
        res.body.data.map((row: Record<string, any>) => [
          this.nameOf(row.documentId),
          row[attribute].map((r: { documentId: string }) => this.nameOf(r.documentId)),
        ]),
      );
      for (const [name, list] of lists)
        assert.deepEqual(
          got.get(name),
          list,
          `${name}.${attribute} (draft): got (actual) vs the order the writes said (expected)`,
        );
      if (plural !== 'owners') continue;
      for (const row of res.body.data) {
        const entry = (b: Record<string, any>) =>
          pick(b, b.__component === 'matrix.nested' ? ['__component', 'heading'] : ['__component', 'caption']);
        const fields = {
          name: row.name,
          block: pick(row.block, ['caption']),
          blocks: row.blocks.map((b: Record<string, any>) => pick(b, ['caption'])),
          zone: row.zone.map(entry),
        };
        const owner = this.nameOf(row.documentId);
        assert.deepEqual(
          fields,
          this.ownerFields.get(owner),
          `${owner}: the fields a write did not name stay as they were`,
        );
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------

for (const dialect of DIALECTS) {
  describe(`write sequences keep their invariants [${dialect}]`, () => {
    let blog: TestServer;
    let matrix: TestServer;
    let receiver: Receiver;
    before(async () => {
      [blog, matrix] = await Promise.all([
        startServer(dialect, {
          config: { server: { webhooks: { pollInterval: 50, retryDelay: 50, maxRetryDelay: 200 } } },
        }),
        startServer(dialect, { project: fixture('relation-matrix') }),
      ]);
      receiver = await Receiver.start();
      await blog.vellum.auth.admins.create('sequences@example.com', 'an-admin-password');
      const login = await blog.publicApi.post('/admin/login', {
        email: 'sequences@example.com',
        password: 'an-admin-password',
      });
      const admin = new HttpClient(blog.url, { authorization: `Bearer ${login.body.data.token}` });
      const hook = await admin.post('/admin/webhooks', {
        name: unique('sequences'),
        url: receiver.url,
        headers: {},
        events: ENTRY_EVENTS,
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
    });
    after(async () => {
      await Promise.all([blog?.close(), matrix?.close()]);
      await receiver?.close();
    });

    for (const type of [ARTICLES, PAGES]) {
      it(`${type.label}: versions, shared values, publication, relation order, totals${type === ARTICLES ? ', events' : ''}`, async () => {
        const server = type === ARTICLES ? blog : matrix;
        await check(type.label, opsFor(type), async (ops, log) => {
          const run = new LocalizedRun(
            type,
            server,
            new LoggedApi(server.api, log),
            type === ARTICLES ? receiver : null,
          );
          await run.setUp();
          for (const op of ops) {
            const pending = await run.step(op);
            await run.verify(op);
            if (pending) await run.events(pending);
          }
        });
      });
    }

    it('relation-matrix owners and targets: order on both sides, set and connect from either side, components kept', async () => {
      await check('relation order', relOps, async (ops, log) => {
        const run = new RelationRun(matrix, new LoggedApi(matrix.api, log));
        await run.setUp();
        for (const op of ops) {
          await run.step(op);
          await run.verify();
        }
      });
    });
  });
}
