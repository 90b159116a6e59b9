/**
 * Seeded random sequences of the content manager's writes by two administrators (create, update,
 * publish, unpublish, discard, delete, in random orders, on documents that exist or no longer do,
 * with bodies that fail validation and drafts that cannot be published), on every dialect: the audit
 * log of the run equals the list a model of the documents expects, entry for entry (action, who,
 * which document and locale, the attributes changed). A write that fails records nothing.
 *
 * A fixed seed (`VELLUM_SEQ_SEED`, default 29) and `VELLUM_SEQ_RUNS` runs (default 10), as the other
 * sequence tests (docs/contributing/sequences.md). A failure prints the seed and the shrunk sequence.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { adminClient, type Entry } from '../helpers/audit.js';
import type { HttpClient } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const SEED = Number(process.env.VELLUM_SEQ_SEED ?? 29);
const RUNS = Number(process.env.VELLUM_SEQ_RUNS ?? 10);
const ARTICLES = '/admin/content-manager/collection-types/api::article.article';
/** The attributes the sequences write, in the schema's order (the order entries name them in). */
const FIELDS = ['title', 'body', 'views', 'featured'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string | number | boolean | null>;
const DEFAULTS: Partial<Values> = { views: 0, featured: false };

type Command =
  | { kind: 'create'; actor: number; values: Partial<Values> }
  | { kind: 'update'; actor: number; doc: number; values: Partial<Values> }
  | { kind: 'invalid'; actor: number; doc: number }
  | { kind: 'publish' | 'unpublish' | 'discard' | 'delete'; actor: number; doc: number };

const value: Record<Field, fc.Arbitrary<Values[Field]>> = {
  title: fc.oneof(fc.constantFrom('alpha', 'beta', 'gamma'), fc.constant(null)),
  body: fc.oneof(fc.constantFrom('one', 'two'), fc.constant(null)),
  views: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(null)),
  featured: fc.boolean(),
};
const values = fc.record(value, { requiredKeys: [] });
const actor = fc.integer({ min: 0, max: 1 });
const doc = fc.nat({ max: 5 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), actor, values }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('update' as const), actor, doc, values }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('invalid' as const), actor, doc }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constantFrom('publish' as const, 'unpublish' as const, 'discard' as const, 'delete' as const),
      actor,
      doc,
    }),
  },
);

interface ModelDoc {
  label: string;
  documentId: string;
  draft: Values;
  published?: Values;
  deleted: boolean;
}

/** What an entry says, with documents by label. */
type Expected = [action: string, actor: number, doc: string, changed?: string[]];

const differing = (a: Values, b: Values): Field[] => FIELDS.filter((field) => a[field] !== b[field]);

for (const dialect of DIALECTS) {
  describe(`audit log of random write sequences [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect);
    });
    after(() => server?.close());

    it('equals the entries a model of the documents expects, write for write', { timeout: 600_000 }, async () => {
      let lines: string[] = [];
      let failing: string[] = [];
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(command, { minLength: 8, maxLength: 24 }), (commands) =>
            run(commands).catch((error: unknown) => {
              // The last failing run is the shrunk one: its requests are printed.
              failing = [...lines];
              throw error;
            }),
          ),
          { seed: SEED, numRuns: RUNS },
        );
      } catch (error) {
        console.error(`seed ${SEED}; the failing sequence's requests:\n${failing.join('\n')}`);
        throw error;
      }

      async function run(commands: Command[]): Promise<void> {
        lines = [];
        const admins = [await adminClient(server), await adminClient(server)];
        const ids = admins.map((admin) => admin.id);
        const prefix = unique('seq');
        const docs: ModelDoc[] = [];
        const expected: Expected[] = [];
        const send = async (admin: HttpClient, method: string, path: string, body?: unknown) => {
          const res = await admin.request(method, path, body === undefined ? {} : { body });
          lines.push(`${method} ${path.replace(ARTICLES, '')} ${body ? JSON.stringify(body) : ''} -> ${res.status}`);
          return res;
        };
        for (const step of commands) {
          const admin = admins[step.actor]!.client;
          const who = ids[step.actor]!;
          if (step.kind === 'create') {
            const label = `doc${docs.length}`;
            // A unique title, so generated slugs never meet when published.
            const data = { ...step.values, title: `${prefix} ${label} ${step.values.title ?? ''}` };
            const res = await send(admin, 'POST', ARTICLES, { data });
            assert.equal(res.status, 201, JSON.stringify(res.body));
            const draft: Values = { title: data.title, body: null, views: 0, featured: false, ...step.values };
            draft.title = data.title;
            docs.push({ label, documentId: res.body.data.documentId, draft, deleted: false });
            lines[lines.length - 1] += ` (${label})`;
            // What the create set: a value, other than the schema's default (views 0, featured false).
            const named = FIELDS.filter(
              (field) => data[field] !== undefined && data[field] !== null && data[field] !== DEFAULTS[field],
            );
            expected.push(['entry.create', who, label, named]);
            continue;
          }
          const target = docs.length ? docs[step.doc % docs.length] : undefined;
          if (!target) continue;
          const at = `${ARTICLES}/${target.documentId}`;
          const exists = !target.deleted;
          switch (step.kind) {
            case 'update': {
              const res = await send(admin, 'PUT', at, { data: step.values });
              if (!exists) {
                assert.equal(res.status, 404);
                break;
              }
              assert.equal(res.status, 200, JSON.stringify(res.body));
              const next = { ...target.draft, ...step.values };
              const changed = differing(target.draft, next);
              target.draft = next;
              if (changed.length) expected.push(['entry.update', who, target.label, changed]);
              break;
            }
            case 'invalid': {
              const res = await send(admin, 'PUT', at, { data: { views: 'many' } });
              assert.equal(res.status, exists ? 400 : 404);
              break;
            }
            case 'publish': {
              const res = await send(admin, 'POST', `${at}/actions/publish`, {});
              if (!exists) assert.equal(res.status, 404);
              // A draft without its required title cannot be published: nothing is written.
              else if (target.draft.title === null) assert.equal(res.status, 400, JSON.stringify(res.body));
              else {
                assert.equal(res.status, 200, JSON.stringify(res.body));
                target.published = { ...target.draft };
                expected.push(['entry.publish', who, target.label]);
              }
              break;
            }
            case 'unpublish': {
              const res = await send(admin, 'POST', `${at}/actions/unpublish`, {});
              if (!exists || !target.published) assert.equal(res.status, 404);
              else {
                assert.equal(res.status, 200, JSON.stringify(res.body));
                target.published = undefined;
                expected.push(['entry.unpublish', who, target.label]);
              }
              break;
            }
            case 'discard': {
              const res = await send(admin, 'POST', `${at}/actions/discard`, {});
              if (!exists || !target.published) assert.equal(res.status, 404);
              else {
                assert.equal(res.status, 200, JSON.stringify(res.body));
                const changed = differing(target.draft, target.published);
                target.draft = { ...target.published };
                expected.push(['entry.draft-discard', who, target.label, changed]);
              }
              break;
            }
            case 'delete': {
              const res = await send(admin, 'DELETE', at);
              if (!exists) assert.equal(res.status, 404);
              else {
                assert.equal(res.status, 204);
                target.deleted = true;
                expected.push(['entry.delete', who, target.label]);
              }
              break;
            }
          }
        }
        // The run's entries: its two administrators' (made for it), oldest first, page by page.
        const labels = new Map(docs.map((d) => [d.documentId, d.label]));
        const found: Expected[] = [];
        let next: string | null = null;
        const filter = `filters[$and][0][user][id][$in][0]=${ids[0]}&filters[$and][0][user][id][$in][1]=${ids[1]}&filters[$and][1][contentType][$eq]=api::article.article`;
        do {
          const page: { status: number; body: { results: Entry[]; pagination: { next: string | null } } } =
            await admins[0]!.client.get(
              `/admin/audit-logs?${filter}&sort=date:ASC&pageSize=7${next ? `&cursor=${next}` : ''}`,
            );
          assert.equal(page.status, 200, JSON.stringify(page.body));
          for (const entry of page.body.results) {
            assert.equal(entry.payload.locale, 'en');
            const row: Expected = [
              entry.action,
              entry.user!.id,
              labels.get(entry.payload.documentId!) ?? entry.payload.documentId!,
            ];
            if (entry.payload.changedFields) row.push(entry.payload.changedFields);
            found.push(row);
          }
          next = page.body.pagination.next;
        } while (next);
        assert.deepEqual(found, expected);
      }
    });
  });
}
