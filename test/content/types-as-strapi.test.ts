import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

/**
 * Attribute values as Strapi 5.54 accepts and answers them (issue 14, point 12), observed on the
 * real server with test/fixtures/all-types: time is `HH:mm:ss[.S{1,3}]` answered `HH:mm:ss.SSS`;
 * date takes text starting with a real `yyyy-MM-dd`; datetime and timestamp take what date-fns'
 * parseISO reads, or milliseconds; a timestamp is answered as milliseconds in a string.
 */
for (const dialect of DIALECTS) {
  describe(`attribute values as Strapi stores them [${dialect}]`, () => {
    let server: TestServer;
    let tag: string;
    let n = 0;
    before(async () => {
      server = await startServer(dialect, { project: fixture('all-types') });
      tag = `ty${randomUUID().slice(0, 6)}`;
    });
    after(() => server?.close());

    /** POSTs one attribute value: the value answered, or the error status. */
    const write = async (attribute: string, value: unknown): Promise<unknown> => {
      n += 1;
      const res = await server.api.post('/api/samples', { data: { name: `${tag}${n}`, [attribute]: value } });
      if (res.status !== 201) return res.status;
      const read = await server.api.get(`/api/samples/${res.body.data.documentId}`);
      assert.deepEqual(read.body.data[attribute], res.body.data[attribute], 'read back as written');
      return res.body.data[attribute];
    };
    const cases = async (attribute: string, table: [unknown, unknown][]) => {
      for (const [input, expected] of table)
        assert.deepEqual(await write(attribute, input), expected, `${attribute} ${JSON.stringify(input)}`);
    };

    it('time: HH:mm:ss with up to three fraction digits, answered HH:mm:ss.SSS', async () => {
      await cases('at', [
        ['10:20:30', '10:20:30.000'],
        ['10:20:30.1', '10:20:30.100'],
        ['23:59:59.999', '23:59:59.999'],
        ['10:20', 400],
        ['10:20:30.1234', 400],
        ['1:2:3', 400],
        ['24:00:00', 400],
        ['10:20:30Z', 400],
        [12, 400],
        ['', 400],
        [null, null],
      ]);
    });

    it('date: text starting with a real yyyy-MM-dd, no time zone applied', async () => {
      await cases('day', [
        ['2024-02-29', '2024-02-29'],
        ['2024-01-05T23:30:00-05:00', '2024-01-05'],
        ['2024-01-05 10:00', '2024-01-05'],
        ['2024-01-05Z', '2024-01-05'],
        ['2023-02-29', 400],
        ['2024-1-5', 400],
        ['20240105', 400],
        [1704412800000, 400],
        [' 2024-01-05', 400],
      ]);
    });

    it("datetime: what date-fns' parseISO reads, or milliseconds", async () => {
      await cases('moment', [
        ['2024-01-05T10:20:30Z', '2024-01-05T10:20:30.000Z'],
        ['2024-01-05T10:20:30.123456Z', '2024-01-05T10:20:30.123Z'],
        ['2024-01-05T10:20:30+02', '2024-01-05T08:20:30.000Z'],
        ['2024-01-05T10:20:30,5Z', '2024-01-05T10:20:30.500Z'],
        ['2024-01-05 10:20:30', '2024-01-05T10:20:30.000Z'],
        ['2024-01-05T10', '2024-01-05T10:00:00.000Z'],
        ['2024', '2024-01-01T00:00:00.000Z'],
        ['2024-01', '2024-01-01T00:00:00.000Z'],
        ['2024-W02-3', '2024-01-10T00:00:00.000Z'],
        ['2024-005', '2024-01-05T00:00:00.000Z'],
        ['20240105T102030Z', '2024-01-05T10:20:30.000Z'],
        ['2024-01-05T24:00:00Z', '2024-01-06T00:00:00.000Z'],
        [1704450030000, '2024-01-05T10:20:30.000Z'],
        ['1704450030000', '2024-01-05T10:20:30.000Z'],
        ['0', '1970-01-01T00:00:00.000Z'],
        ['2024-02-30T00:00:00Z', 400],
        ['2024-01-05T10:20:30z', 400],
        ['Jan 5 2024', 400],
        [true, 400],
        ['', 400],
      ]);
    });

    it('timestamp: the same input, answered as milliseconds in a string', async () => {
      await cases('stamp', [
        ['2024-01-05T10:20:30Z', '1704450030000'],
        ['2024-01-05T10:20:30.123Z', '1704450030123'],
        ['2024-01-05', '1704412800000'],
        [1704450030000, '1704450030000'],
        ['1704450030000', '1704450030000'],
        [0, '0'],
        ['abc', 400],
      ]);
    });

    it('filters take the same values; GraphQL answers a timestamp as a DateTime', async () => {
      const name = `${tag}f`;
      const res = await server.api.post('/api/samples', {
        data: {
          name,
          at: '10:20:30',
          stamp: '2024-01-05T10:20:30Z',
          moment: '2024-01-05T10:20:30Z',
          day: '2024-01-05',
        },
      });
      assert.equal(res.status, 201);
      const count = async (filter: string) => {
        const list = await server.api.get(`/api/samples?filters[name][$eq]=${name}&${filter}`);
        return list.status === 200 ? list.body.data.length : list.status;
      };
      assert.equal(await count('filters[at][$eq]=10:20:30'), 1);
      assert.equal(await count('filters[at][$eq]=10:20:30.000'), 1);
      assert.equal(await count('filters[at][$eq]=10:20'), 400);
      assert.equal(await count('filters[stamp][$eq]=1704450030000'), 1);
      assert.equal(await count('filters[stamp][$eq]=2024-01-05T10:20:30Z'), 1);
      assert.equal(await count('filters[moment][$eq]=1704450030000'), 1);
      assert.equal(await count('filters[moment][$gt]=2024-01-05'), 1);
      assert.equal(await count('filters[day][$eq]=2024-01-05T00:00:00Z'), 1);
      assert.equal(await count('filters[day][$gt]=2024-01'), 400);
      const gql = await server.api.post('/graphql', {
        query: `{ samples(filters: { name: { eq: "${name}" } }) { data { attributes { stamp moment } } } }`,
      });
      assert.deepEqual(gql.body.data.samples.data[0].attributes, {
        stamp: '2024-01-05T10:20:30.000Z',
        moment: '2024-01-05T10:20:30.000Z',
      });
    });

    it('boolean: true/false, their texts, and 1/0', async () => {
      await cases('active', [
        [1, true],
        ['1', true],
        [0, false],
        ['0', false],
        ['false', false],
        ['t', 400],
        ['yes', 400],
        ['', 400],
      ]);
    });

    it('email: an empty text is refused, null clears', async () => {
      await cases('contact', [
        ['a@b.co', 'a@b.co'],
        ['', 400],
        [null, null],
      ]);
    });
  });
}
