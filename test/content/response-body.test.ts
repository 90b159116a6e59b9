import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RawJson } from '../../src/core/documents/raw-json.js';
import { jsonBody } from '../../src/api/json-body.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const text = (value: unknown) => {
  const body = jsonBody(value);
  assert.equal(
    body.length,
    body.chunks.reduce((sum, chunk) => sum + chunk.length, 0),
  );
  return Buffer.concat(body.chunks).toString('utf8');
};

describe('response bodies are byte for byte what JSON.stringify writes', () => {
  it('matches JSON.stringify on every kind of value', () => {
    const tricky = {
      s: 'quote " backslash \\ newline \n tab \t nul \u0000 lone surrogate \ud800 emoji 😀 é 漢字',
      n: [0, -0, 1.5, -2e-7, 1e21, NaN, Infinity, -Infinity],
      b: [true, false],
      nil: null,
      skipped: undefined,
      fn: () => 1,
      arr: [undefined, () => 1, Symbol('x'), { a: undefined }],
      date: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)),
      nested: { deep: [{ deeper: [[], {}] }] },
      'key "quoted"': 1,
    };
    assert.equal(text(tricky), JSON.stringify(tricky));
    for (const value of [null, 1, 'x', [], {}, [null]]) assert.equal(text(value), JSON.stringify(value));
  });

  it('encodes large bodies without breaking multi-byte characters', () => {
    const big = { data: Array.from({ length: 200 }, (_, i) => ({ id: i, body: `😀 é ${'x'.repeat(500)} ${i}` })) };
    const body = jsonBody(big);
    // One Buffer since the encoder writes into a reused buffer (src/api/json-body.test.ts).
    assert.equal(Buffer.concat(body.chunks).toString('utf8'), JSON.stringify(big));
    assert.equal(body.length, Buffer.byteLength(JSON.stringify(big)));
  });

  it('copies stored JSON text through, and JSON.stringify of the same value gives the parsed value', () => {
    const value = { metadata: new RawJson('{"a":[1,2,{"b":null}]}'), content: [new RawJson('[]')] };
    assert.equal(text(value), '{"metadata":{"a":[1,2,{"b":null}]},"content":[[]]}');
    assert.equal(JSON.stringify(value), text(value));
  });
});

for (const dialect of DIALECTS) {
  describe(`json and blocks values in REST answers [${dialect}]`, () => {
    let server: TestServer;
    const metadata = { nested: { list: [1, 'two', null, true], unicode: 'é 😀 "q"' }, n: 1.25 };
    const content = [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello "world"\n' }] }];
    before(async () => {
      server = await startServer(dialect);
      for (let i = 0; i < 30; i++) {
        const res = await server.api.post('/api/articles', {
          data: { title: `Body ${i}`, body: 'x'.repeat(4000), metadata, content },
        });
        assert.equal(res.status, 201);
        assert.deepEqual(res.body.data.metadata, metadata);
      }
    });
    after(() => server?.close());

    it('come back as the values written, in lists, single reads and the earlier format', async () => {
      const list = await server.api.get('/api/articles?pagination[pageSize]=30');
      assert.equal(list.status, 200);
      assert.equal(list.body.data.length, 30);
      for (const article of list.body.data) {
        assert.deepEqual(article.metadata, metadata);
        assert.deepEqual(article.content, content);
      }
      const one = await server.api.get(`/api/articles/${list.body.data[0].documentId}`);
      assert.deepEqual(one.body.data.metadata, metadata);
      const legacy = await server.api.get('/api/articles?pagination[pageSize]=1', {
        headers: { 'Strapi-Response-Format': 'v4' },
      });
      assert.deepEqual(legacy.body.data[0].attributes.content, content);
    });

    it('a large page is sent with its exact Content-Length', async () => {
      const res = await fetch(`${server.url}/api/articles?pagination[pageSize]=30`, { headers: server.authHeaders });
      const raw = Buffer.from(await res.arrayBuffer());
      assert.ok(raw.length > 120_000);
      assert.equal(Number(res.headers.get('content-length')), raw.length);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(JSON.parse(raw.toString('utf8')).data.length, 30);
    });
  });
}
