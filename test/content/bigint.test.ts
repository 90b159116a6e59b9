import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { graphql, graphqlData } from '../helpers/graphql.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * `biginteger` values beyond 2^53 round-trip exactly on every dialect: written as a string or as a
 * JSON number, read back as a string, filtered and sorted by their exact value. (Strapi 5.54 on
 * SQLite answers 9007199254740993 as "9007199254740992": Vellum deliberately keeps every digit.)
 */
const TWO_53 = '9007199254740992';
const TWO_53_PLUS_1 = '9007199254740993';
const TWO_53_PLUS_3 = '9007199254740995';
const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

for (const dialect of DIALECTS) {
  describe(`biginteger precision [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('all-types') });
    });
    after(() => server?.close());

    /** Creates samples named `<prefix>-<i>` with the given values; returns the prefix. */
    const seed = async (values: (string | null)[]) => {
      const prefix = `b${randomUUID().slice(0, 8)}`;
      for (const [i, big] of values.entries()) {
        const res = await server.api.post('/api/samples', { data: { name: `${prefix}-${i}`, big } });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        assert.equal(res.body.data.big, big);
      }
      return prefix;
    };
    const bigs = async (prefix: string, query: string) => {
      const res = await server.api.get(
        `/api/samples?filters[name][$startsWith]=${prefix}-&${query}&fields[0]=big&pagination[pageSize]=50`,
      );
      assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
      return res.body.data.map((d: { big: string }) => d.big);
    };

    it('a value above 2^53 written as a string comes back with every digit', async () => {
      const prefix = await seed([TWO_53_PLUS_1, MAX, MIN]);
      const list = await bigs(prefix, 'sort=name:asc');
      assert.deepEqual(list, [TWO_53_PLUS_1, MAX, MIN]);
      const created = await server.api.post('/api/samples', { data: { name: `${prefix}-x`, big: TWO_53_PLUS_3 } });
      const one = await server.api.get(`/api/samples/${created.body.data.documentId}`);
      assert.equal(one.body.data.big, TWO_53_PLUS_3);
      const updated = await server.api.put(`/api/samples/${created.body.data.documentId}`, {
        data: { big: TWO_53_PLUS_1 },
      });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.data.big, TWO_53_PLUS_1);
    });

    it('a JSON number above 2^53 is taken digit for digit, not rounded by the JSON parser', async () => {
      const name = `n${randomUUID().slice(0, 8)}`;
      const res = await server.api.request('POST', '/api/samples', {
        rawBody: `{"data":{"name":"${name}","big":${TWO_53_PLUS_1}}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.big, TWO_53_PLUS_1);
      const put = await server.api.request('PUT', `/api/samples/${res.body.data.documentId}`, {
        rawBody: `{"data":{"big":-${TWO_53_PLUS_3}}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      assert.equal(put.body.data.big, `-${TWO_53_PLUS_3}`);
      const safe = await server.api.post('/api/samples', { data: { name: `${name}-s`, big: 42 } });
      assert.equal(safe.body.data.big, '42');
    });

    it('numbers in strings and other attributes are left as the JSON parser reads them', async () => {
      const name = `j${randomUUID().slice(0, 8)}`;
      const res = await server.api.request('POST', '/api/samples', {
        rawBody: `{"data":{"name":"${name}","notes":"id 9007199254740993 \\" 12345678901234567890","big":"${TWO_53_PLUS_1}","extra":{"n":12345678901234567890,"s":"9007199254740993"}}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.data.notes, 'id 9007199254740993 " 12345678901234567890');
      // eslint-disable-next-line no-loss-of-precision -- the rounded number is what JSON.parse yields
      assert.deepEqual(res.body.data.extra, { n: 12345678901234567890, s: '9007199254740993' });
    });

    it('a value outside 64 bits or not an integer is a 400 naming the attribute', async () => {
      for (const big of ['9223372036854775808', '-9223372036854775809', '1.5', '12a', '']) {
        const res = await server.api.post('/api/samples', { data: { name: 'Bad big', big } });
        assert.equal(res.status, 400, big);
        assert.equal(res.body.error.name, 'ValidationError');
        assert.deepEqual(res.body.error.details.errors[0].path, ['big']);
      }
      const huge = await server.api.request('POST', '/api/samples', {
        rawBody: '{"data":{"name":"Bad big","big":92233720368547758080}}',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(huge.status, 400);
      assert.deepEqual(huge.body.error.details.errors[0].path, ['big']);
    });

    it('filters compare the exact value: 2^53 and 2^53+1 are different', async () => {
      const prefix = await seed([TWO_53, TWO_53_PLUS_1, TWO_53_PLUS_3, '-5']);
      assert.deepEqual(await bigs(prefix, `filters[big][$eq]=${TWO_53_PLUS_1}`), [TWO_53_PLUS_1]);
      assert.deepEqual(await bigs(prefix, `filters[big][$eq]=${TWO_53}`), [TWO_53]);
      assert.deepEqual(await bigs(prefix, `filters[big][$ne]=${TWO_53_PLUS_1}&sort=big:asc`), [
        '-5',
        TWO_53,
        TWO_53_PLUS_3,
      ]);
      assert.deepEqual(await bigs(prefix, `filters[big][$gt]=${TWO_53}&sort=big:asc`), [TWO_53_PLUS_1, TWO_53_PLUS_3]);
      assert.deepEqual(await bigs(prefix, `filters[big][$lte]=${TWO_53_PLUS_1}&sort=big:asc`), [
        '-5',
        TWO_53,
        TWO_53_PLUS_1,
      ]);
      assert.deepEqual(
        await bigs(prefix, `filters[big][$in][0]=${TWO_53_PLUS_1}&filters[big][$in][1]=-5&sort=big:asc`),
        ['-5', TWO_53_PLUS_1],
      );
      assert.deepEqual(await bigs(prefix, `filters[big][$notIn][0]=${TWO_53_PLUS_1}&sort=big:asc`), [
        '-5',
        TWO_53,
        TWO_53_PLUS_3,
      ]);
      assert.deepEqual(
        await bigs(
          prefix,
          `filters[big][$between][0]=${TWO_53_PLUS_1}&filters[big][$between][1]=${TWO_53_PLUS_3}&sort=big:asc`,
        ),
        [TWO_53_PLUS_1, TWO_53_PLUS_3],
      );
    });

    it('sorts by the exact value in both directions', async () => {
      const prefix = await seed([TWO_53_PLUS_3, TWO_53, MIN, TWO_53_PLUS_1, MAX]);
      assert.deepEqual(await bigs(prefix, 'sort=big:asc'), [MIN, TWO_53, TWO_53_PLUS_1, TWO_53_PLUS_3, MAX]);
      assert.deepEqual(await bigs(prefix, 'sort=big:desc'), [MAX, TWO_53_PLUS_3, TWO_53_PLUS_1, TWO_53, MIN]);
    });

    it('a filter value that is not a 64-bit integer is a 400', async () => {
      for (const value of ['abc', '1.5', '9223372036854775808']) {
        const res = await server.api.get(`/api/samples?filters[big][$eq]=${value}`);
        assert.equal(res.status, 400, value);
        assert.equal(res.body.error.name, 'ValidationError');
      }
    });

    it('GraphQL reads, filters and writes the exact value', async () => {
      const prefix = await seed([TWO_53, TWO_53_PLUS_1]);
      const data = await graphqlData(
        server,
        `{ samples(filters: { name: { startsWith: "${prefix}-" }, big: { eq: "${TWO_53_PLUS_1}" } }) { data { attributes { big } } } }`,
      );
      assert.deepEqual(
        data.samples.data.map((d: any) => d.attributes.big),
        [TWO_53_PLUS_1],
      );
      const literal = await graphqlData(
        server,
        `{ samples(filters: { name: { startsWith: "${prefix}-" }, big: { in: [${TWO_53}] } }) { data { attributes { big } } } }`,
      );
      assert.deepEqual(
        literal.samples.data.map((d: any) => d.attributes.big),
        [TWO_53],
      );
      const created = await graphqlData(
        server,
        `mutation { createSample(data: { name: "${prefix}-g", big: ${TWO_53_PLUS_3} }) { data { attributes { big } } } }`,
      );
      assert.equal(created.createSample.data.attributes.big, TWO_53_PLUS_3);
      // A variable holding a JSON number beyond 2^53 was rounded by the client or the parser: refused.
      const response = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...server.authHeaders },
        body: `{"query":"query($v: Long) { samples(filters: { big: { eq: $v } }) { data { id } } }","variables":{"v":${TWO_53_PLUS_1}}}`,
      });
      const body = (await response.json()) as { errors?: unknown[]; data?: { samples: { data: unknown[] } } };
      if (body.errors) assert.ok(body.errors.length > 0);
      else assert.fail(`a rounded Long was accepted: ${JSON.stringify(body)}`);
      const bad = await graphql(
        server,
        `
          {
            samples(filters: { big: { eq: "1.5" } }) {
              data {
                id
              }
            }
          }
        `,
      );
      assert.ok(bad.body.errors?.length);
    });
  });
}

for (const dialect of DIALECTS) {
  describe(`biginteger precision across versions [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('input-rules') });
    });
    after(() => server?.close());

    const populate = 'populate[line]=true&populate[lines]=true';
    const amounts = (doc: any) => [doc.amount, doc.line.amount, ...doc.lines.map((l: any) => l.amount)];

    it('publishing and discarding a draft copy the exact value, in components and zones too', async () => {
      const title = `l${randomUUID().slice(0, 8)}`;
      const data = {
        title,
        amount: TWO_53_PLUS_1,
        line: { amount: TWO_53_PLUS_3 },
        lines: [{ __component: 'rules.line', amount: MAX }],
      };
      const draft = await server.api.post(`/api/ledgers?status=draft&${populate}`, { data });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      const id = draft.body.data.documentId;
      const published = await server.api.post(`/api/ledgers/${id}/actions/publish?${populate}`);
      assert.equal(published.status, 200, JSON.stringify(published.body));
      const read = await server.api.get(`/api/ledgers/${id}?${populate}`);
      assert.deepEqual(amounts(read.body.data), [TWO_53_PLUS_1, TWO_53_PLUS_3, MAX]);
      const edited = await server.api.put(`/api/ledgers/${id}?status=draft`, { data: { amount: '1' } });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      const discarded = await server.api.post(`/api/ledgers/${id}/actions/discard-draft?${populate}`);
      assert.equal(discarded.status, 200, JSON.stringify(discarded.body));
      const draftRead = await server.api.get(`/api/ledgers/${id}?status=draft&${populate}`);
      assert.deepEqual(amounts(draftRead.body.data), [TWO_53_PLUS_1, TWO_53_PLUS_3, MAX]);
    });
  });
}
