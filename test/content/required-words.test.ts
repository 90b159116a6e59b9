/**
 * A required attribute left empty in a published entry, in Strapi 5.54's words
 * (test/fixtures/required-publish; test/differential/required-words.diff.ts pins Strapi's answers):
 * Strapi validates the stored entry, whose empty attributes are null, so each type answers with
 * its schema's type error (`string`/`null`, `number`/`NaN`, `array`/`null`, `object`/`null`) or
 * "must be defined.", with `value: null`, nested values named by their path (`parts[0].label`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, type TestServer } from '../helpers/server.js';
import { startUploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

/** What Strapi 5.54 answers for each scalar and component of the fixture's sheet, in schema order. */
const WORDS: [string, string][] = [
  ['title', 'title must be a `string` type, but the final value was: `null`.'],
  ['body', 'body must be a `string` type, but the final value was: `null`.'],
  ['email', 'email must be a `string` type, but the final value was: `null`.'],
  ['slug', 'slug must be a `string` type, but the final value was: `null`.'],
  ['secret', 'secret must be a `string` type, but the final value was: `null`.'],
  ['count', 'count must be a `number` type, but the final value was: `NaN`.'],
  ['big', 'big must be defined.'],
  ['price', 'price must be a `number` type, but the final value was: `NaN`.'],
  ['ratio', 'ratio must be a `number` type, but the final value was: `NaN`.'],
  ['flag', 'flag must be defined.'],
  ['day', 'day must be defined.'],
  ['at', 'at must be defined.'],
  ['time', 'time must be defined.'],
  ['kind', 'kind must be a `string` type, but the final value was: `null`.'],
  ['meta', 'meta must be defined.'],
  ['content', 'content must be a `array` type, but the final value was: `null`.'],
  ['part', 'part must be a `object` type, but the final value was: `null`.'],
];
const expected = WORDS.map(([name, message]) => ({ path: [name], message, name: 'ValidationError', value: null }));

/** Every required value but `left`; relations and media given (Vellum requires them on a published create, docs/rest.md "Bodies"). */
const complete = async (server: TestServer) => {
  const person = (await server.api.post('/api/people', { data: { name: unique('p') } })).body.data.documentId as string;
  return {
    title: 't',
    body: 'b',
    email: 'a@example.com',
    slug: unique('s'),
    secret: 'secret123',
    count: 1,
    big: '1',
    price: 1.5,
    ratio: 1.5,
    flag: true,
    day: '2020-01-01',
    at: '2020-01-01T00:00:00.000Z',
    time: '10:00:00.000',
    kind: 'a',
    meta: {},
    content: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }],
    owner: person,
    friends: [person],
    part: { label: 'l', size: 1 },
    parts: [],
    zone: [],
  } as Record<string, unknown>;
};

for (const dialect of DIALECTS) {
  describe(`required attributes of a published entry, in Strapi's words [${dialect}]`, () => {
    let server: TestServer;
    let media: number;
    before(async () => {
      // Its public folder in a temporary directory: the upload does not land in the fixture.
      server = await startUploadServer(dialect, {}, { project: fixture('required-publish') });
      const form = new FormData();
      form.append('files', new Blob([Buffer.from('a text file')], { type: 'text/plain' }), 'note.txt');
      const uploaded = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: server.api.defaultHeaders,
        body: form,
      });
      media = ((await uploaded.json()) as { id: number }[])[0]!.id;
    });
    after(() => server?.close());

    it('POST ?status=published with every scalar and the component null: each in its type words, value null', async () => {
      const data = {
        ...(await complete(server)),
        cover: media,
        images: [media],
        ...Object.fromEntries(WORDS.map(([name]) => [name, null])),
      };
      const res = await server.api.post('/api/sheets?status=published', { data });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.message, `${WORDS.length} errors occurred`);
      assert.deepEqual(res.body.error.details.errors, expected);
    });

    it('one missing: its words are the message', async () => {
      const data: Record<string, unknown> = { ...(await complete(server)), cover: media, images: [media] };
      delete data.title;
      const res = await server.api.post('/api/sheets?status=published', { data });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body.error, {
        status: 400,
        name: 'ValidationError',
        message: WORDS[0]![1],
        details: { errors: [expected[0]] },
      });
    });

    it('PUT ?status=published of an empty draft: the stored entry in the same words', async () => {
      const draft = await server.api.post('/api/sheets?status=draft', { data: { parts: [], zone: [] } });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      const res = await server.api.put(`/api/sheets/${draft.body.data.documentId}?status=published`, { data: {} });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body.error.details.errors, expected);
    });

    it('inside components: named by their path (part.label, parts[0].label)', async () => {
      const data = {
        ...(await complete(server)),
        cover: media,
        images: [media],
        part: { label: null, size: null },
        parts: [{ size: 1 }],
      };
      const res = await server.api.post('/api/sheets?status=published', { data });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.error.details.errors.map((e: { path: string[]; message: string }) => [e.path.join('.'), e.message]),
        [
          ['part.label', 'part.label must be a `string` type, but the final value was: `null`.'],
          ['part.size', 'part.size must be a `number` type, but the final value was: `NaN`.'],
          ['parts.0.label', 'parts[0].label must be a `string` type, but the final value was: `null`.'],
        ],
      );
    });
  });
}
