/**
 * Which owners keep a target when another owner connects it, as Strapi 5.54 does (observed on the
 * real server with test/fixtures/relation-matrix): only a bidirectional relation whose owner side
 * is one-to-one or one-to-many takes the target from other owner documents; relations without an
 * inverse side and relations inside components and dynamic-zone entries never do. Drafts and
 * published versions are linked separately: a draft write takes a target from other drafts only,
 * and the published versions follow when the document is published.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

type Names = string | string[] | null;
interface Versions {
  draft: Names;
  published: Names | 'none';
}

const TO_MANY = new Set([
  'oneToManyBi',
  'oneToManyUni',
  'manyToManyBi',
  'manyToManyUni',
  'manyWay',
  'oneToMany',
  'manyToMany',
]);
const valueFor = (attribute: string, documentId: string) => (TO_MANY.has(attribute) ? [documentId] : documentId);
const namesOf = (value: any): Names =>
  value == null ? null : Array.isArray(value) ? value.map((v) => v.name) : value.name;

for (const dialect of DIALECTS) {
  describe(`relation exclusivity, as Strapi 5 [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relation-matrix') });
    });
    after(() => server?.close());

    const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
    const create = async (plural: string, data: Record<string, unknown>, query = '') => {
      const res = await server.api.post(`/api/${plural}${query}`, { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data as { documentId: string; name: string };
    };
    const target = (label: string, query = '') => create('targets', { name: unique(label) }, query);
    const owner = (label: string, data: Record<string, unknown> = {}, query = '') =>
      create('owners', { name: unique(label), ...data }, query);
    const write = async (plural: string, documentId: string, data: Record<string, unknown>, query = '') => {
      const res = await server.api.put(`/api/${plural}/${documentId}${query}`, { data });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    };
    /** The names one relation holds, in the draft and in the published version. */
    const versions = async (plural: string, documentId: string, attribute: string): Promise<Versions> => {
      const draft = await server.api.get(`/api/${plural}/${documentId}?status=draft&populate=${attribute}`);
      const published = await server.api.get(`/api/${plural}/${documentId}?populate=${attribute}`);
      assert.equal(draft.status, 200, JSON.stringify(draft.body));
      return {
        draft: namesOf(draft.body.data[attribute]),
        published: published.status === 404 ? 'none' : namesOf(published.body.data[attribute]),
      };
    };
    const both = (names: Names): Versions => ({ draft: names, published: names });
    const one = (attribute: string, name: string): Names => (TO_MANY.has(attribute) ? [name] : name);
    const none = (attribute: string): Names => (TO_MANY.has(attribute) ? [] : null);

    for (const attribute of [
      'oneToOneUni',
      'oneToManyUni',
      'oneWay',
      'manyWay',
      'manyToOneUni',
      'manyToManyUni',
      'manyToOneBi',
      'manyToManyBi',
    ]) {
      it(`${attribute}: a second owner leaves the first its target, published or draft`, async () => {
        const t = await target('t');
        const first = await owner('first', { [attribute]: valueFor(attribute, t.documentId) });
        await owner('second', { [attribute]: valueFor(attribute, t.documentId) });
        const third = await owner('third');
        await write('owners', third.documentId, { [attribute]: valueFor(attribute, t.documentId) }, '?status=draft');
        assert.deepEqual(await versions('owners', first.documentId, attribute), both(one(attribute, t.name)));
        assert.deepEqual(await versions('owners', third.documentId, attribute), {
          draft: one(attribute, t.name),
          published: none(attribute),
        });
      });
    }

    it('oneToOneBi: a draft takes the target from other drafts; publishing takes it from published versions', async () => {
      const t = await target('t');
      const first = await owner('first', { oneToOneBi: t.documentId });
      const second = await owner('second');
      await write('owners', second.documentId, { oneToOneBi: t.documentId }, '?status=draft');
      assert.deepEqual(await versions('owners', first.documentId, 'oneToOneBi'), { draft: null, published: t.name });
      assert.deepEqual(await versions('owners', second.documentId, 'oneToOneBi'), { draft: t.name, published: null });
      assert.deepEqual(await versions('targets', t.documentId, 'oneToOneInv'), {
        draft: second.name,
        published: first.name,
      });
      await write('owners', second.documentId, {});
      assert.deepEqual(await versions('owners', first.documentId, 'oneToOneBi'), both(null));
      assert.deepEqual(await versions('owners', second.documentId, 'oneToOneBi'), both(t.name));
      assert.deepEqual(await versions('targets', t.documentId, 'oneToOneInv'), both(second.name));
    });

    it('oneToManyBi (the mappedBy side of a manyToOne): a target has one owner, per status', async () => {
      const [t, t2] = [await target('t'), await target('t2')];
      const first = await owner('first', { oneToManyBi: [t.documentId, t2.documentId] });
      const second = await owner('second');
      await write('owners', second.documentId, { oneToManyBi: { connect: [t.documentId] } }, '?status=draft');
      assert.deepEqual(await versions('owners', first.documentId, 'oneToManyBi'), {
        draft: [t2.name],
        published: [t.name, t2.name],
      });
      assert.deepEqual(await versions('owners', second.documentId, 'oneToManyBi'), { draft: [t.name], published: [] });
      assert.deepEqual(await versions('targets', t.documentId, 'manyToOneInv'), {
        draft: second.name,
        published: first.name,
      });
      await write('owners', second.documentId, {});
      assert.deepEqual(await versions('owners', first.documentId, 'oneToManyBi'), both([t2.name]));
      assert.deepEqual(await versions('owners', second.documentId, 'oneToManyBi'), both([t.name]));
      assert.deepEqual(await versions('targets', t.documentId, 'manyToOneInv'), both(second.name));
    });

    it('oneToManyBi: a draft set and a positioned connect change the draft only until published', async () => {
      const [t, t2, t3] = [await target('t'), await target('t2'), await target('t3')];
      const first = await owner('first', { oneToManyBi: [t2.documentId] });
      const second = await owner('second', { oneToManyBi: [t.documentId] });
      await write(
        'owners',
        first.documentId,
        { oneToManyBi: { connect: [{ documentId: t3.documentId, position: { start: true } }] } },
        '?status=draft',
      );
      assert.deepEqual(await versions('owners', first.documentId, 'oneToManyBi'), {
        draft: [t3.name, t2.name],
        published: [t2.name],
      });
      await write('owners', first.documentId, {});
      assert.deepEqual(await versions('owners', first.documentId, 'oneToManyBi'), both([t3.name, t2.name]));
      await write('owners', first.documentId, { oneToManyBi: { set: [t.documentId] } }, '?status=draft');
      assert.deepEqual(await versions('owners', first.documentId, 'oneToManyBi'), {
        draft: [t.name],
        published: [t3.name, t2.name],
      });
      assert.deepEqual(await versions('owners', second.documentId, 'oneToManyBi'), { draft: [], published: [t.name] });
      assert.deepEqual(await versions('targets', t2.documentId, 'manyToOneInv'), {
        draft: null,
        published: first.name,
      });
      await write('owners', first.documentId, {});
      assert.deepEqual(await versions('owners', first.documentId, 'oneToManyBi'), both([t.name]));
      assert.deepEqual(await versions('owners', second.documentId, 'oneToManyBi'), both([]));
      assert.deepEqual(await versions('targets', t2.documentId, 'manyToOneInv'), both(null));
    });

    // From the target's side: oneToOneInv and oneToManyInv are mappedBy sides, manyToOneInv owns its table.
    for (const [attribute, inverse] of [
      ['oneToOneBi', 'oneToOneInv'],
      ['oneToManyBi', 'manyToOneInv'],
      ['manyToOneBi', 'oneToManyInv'],
      ['manyToManyBi', 'manyToManyInv'],
    ] as const) {
      it(`${inverse}: a target's draft connecting an owner changes drafts only until the target is published`, async () => {
        const [t0, t1] = [await target('t0'), await target('t1')];
        const o = await owner('o', { [attribute]: valueFor(attribute, t0.documentId) });
        const inverseMany = inverse === 'oneToManyInv' || inverse === 'manyToManyInv';
        const inverseOf = (name: string | null): Names => (inverseMany ? (name === null ? [] : [name]) : name);
        await write(
          'targets',
          t1.documentId,
          { [inverse]: inverseMany ? { connect: [o.documentId] } : o.documentId },
          '?status=draft',
        );
        // The owner's side holds one target (t1 replaces t0) or many (t1 joins t0).
        const ownerHoldsOne = attribute === 'oneToOneBi' || attribute === 'manyToOneBi';
        const draftList = ownerHoldsOne ? one(attribute, t1.name) : [t0.name, t1.name];
        assert.deepEqual(await versions('owners', o.documentId, attribute), {
          draft: draftList,
          published: one(attribute, t0.name),
        });
        assert.deepEqual(await versions('targets', t0.documentId, inverse), {
          draft: inverseOf(ownerHoldsOne ? null : o.name),
          published: inverseOf(o.name),
        });
        assert.deepEqual(await versions('targets', t1.documentId, inverse), {
          draft: inverseOf(o.name),
          published: inverseOf(null),
        });
        await write('targets', t1.documentId, {});
        assert.deepEqual(await versions('owners', o.documentId, attribute), both(draftList));
        assert.deepEqual(
          await versions('targets', t0.documentId, inverse),
          both(inverseOf(ownerHoldsOne ? null : o.name)),
        );
        assert.deepEqual(await versions('targets', t1.documentId, inverse), both(inverseOf(o.name)));
      });
    }

    it('oneToOneInv: a target taking an owner leaves that owner no other target and itself no other owner', async () => {
      const [t0, t1] = [await target('t0'), await target('t1')];
      const first = await owner('first', { oneToOneBi: t0.documentId });
      const second = await owner('second', { oneToOneBi: t1.documentId });
      await write('targets', t1.documentId, { oneToOneInv: first.documentId });
      assert.deepEqual(await versions('owners', first.documentId, 'oneToOneBi'), both(t1.name));
      assert.deepEqual(await versions('owners', second.documentId, 'oneToOneBi'), both(null));
      assert.deepEqual(await versions('targets', t0.documentId, 'oneToOneInv'), both(null));
      assert.deepEqual(await versions('targets', t1.documentId, 'oneToOneInv'), both(first.name));
    });

    it('publishing a target that was linked as a draft only links the published owners', async () => {
      const t = await target('t', '?status=draft');
      const o = await owner('o', { oneToOneBi: t.documentId });
      assert.deepEqual(await versions('owners', o.documentId, 'oneToOneBi'), { draft: t.name, published: null });
      await write('targets', t.documentId, {});
      assert.deepEqual(await versions('owners', o.documentId, 'oneToOneBi'), both(t.name));
      assert.deepEqual(await versions('targets', t.documentId, 'oneToOneInv'), both(o.name));
    });

    it('a target without draft and publish is one row: a draft taking it takes it from published versions too', async () => {
      const badge = await create('badges', { name: unique('badge') });
      const first = await owner('first', { badge: badge.documentId });
      const second = await owner('second');
      await write('owners', second.documentId, { badge: badge.documentId }, '?status=draft');
      assert.deepEqual(await versions('owners', first.documentId, 'badge'), both(null));
      assert.deepEqual(await versions('owners', second.documentId, 'badge'), { draft: badge.name, published: null });
      // From the badge's side (no status of its own), a connect item's status picks the owner's version.
      const third = await owner('third');
      const other = await create('badges', { name: unique('other'), holder: third.documentId });
      assert.deepEqual(await versions('owners', third.documentId, 'badge'), both(other.name));
      await write('badges', badge.documentId, {
        holder: { connect: [{ documentId: third.documentId, status: 'draft' }] },
      });
      assert.deepEqual(await versions('owners', third.documentId, 'badge'), {
        draft: badge.name,
        published: other.name,
      });
      assert.deepEqual(await versions('owners', second.documentId, 'badge'), both(null));
    });

    it('publishing a target keeps its place in its owners lists', async () => {
      const [t0, t1] = [await target('t0'), await target('t1')];
      const o = await owner('o', {
        manyToManyBi: [t0.documentId, t1.documentId],
        oneToManyBi: [t0.documentId, t1.documentId],
      });
      await write('targets', t0.documentId, { name: `${t0.name}!` });
      assert.deepEqual(await versions('owners', o.documentId, 'manyToManyBi'), both([`${t0.name}!`, t1.name]));
      assert.deepEqual(await versions('owners', o.documentId, 'oneToManyBi'), both([`${t0.name}!`, t1.name]));
    });

    it('discarding a draft restores its links at the draft status, from either side', async () => {
      const t = await target('t');
      const first = await owner('first', { oneToOneBi: t.documentId });
      const second = await owner('second');
      await write('owners', second.documentId, { oneToOneBi: t.documentId }, '?status=draft');
      assert.equal((await server.api.post(`/api/owners/${first.documentId}/actions/discard-draft`)).status, 200);
      assert.deepEqual(await versions('owners', first.documentId, 'oneToOneBi'), both(t.name));
      assert.deepEqual(await versions('owners', second.documentId, 'oneToOneBi'), both(null));

      const t2 = await target('t2');
      const third = await owner('third', { manyToOneBi: t2.documentId });
      await write('targets', t2.documentId, { oneToManyInv: [] }, '?status=draft');
      assert.deepEqual(await versions('owners', third.documentId, 'manyToOneBi'), { draft: null, published: t2.name });
      assert.equal((await server.api.post(`/api/targets/${t2.documentId}/actions/discard-draft`)).status, 200);
      assert.deepEqual(await versions('owners', third.documentId, 'manyToOneBi'), both(t2.name));
      assert.deepEqual(await versions('targets', t2.documentId, 'oneToManyInv'), both([third.name]));
    });

    const COMPONENT_POPULATE =
      'populate[block][populate]=*&populate[blocks][populate]=*&populate[zone][on][matrix.links][populate]=*&populate[zone][on][matrix.nested][populate][links][populate]=*';
    /** Every place a component relation appears in an owner: block, each of blocks, each zone entry (nested links inside). */
    const componentValues = async (documentId: string, attribute: string, status = '') => {
      const res = await server.api.get(`/api/owners/${documentId}?${COMPONENT_POPULATE}${status}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const data = res.body.data;
      return {
        block: namesOf(data.block?.[attribute]),
        blocks: data.blocks.map((item: any) => namesOf(item[attribute])),
        zone: data.zone.map((entry: any) =>
          entry.__component === 'matrix.nested'
            ? entry.links.map((l: any) => namesOf(l[attribute]))
            : namesOf(entry[attribute]),
        ),
      };
    };

    for (const attribute of ['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany', 'oneWay', 'manyWay']) {
      it(`components and zone entries (${attribute}): every entry of every owner keeps its target`, async () => {
        const t = await target('t');
        const v = valueFor(attribute, t.documentId);
        const components = {
          block: { [attribute]: v },
          blocks: [{ [attribute]: v }, { [attribute]: v }],
          zone: [
            { __component: 'matrix.links', [attribute]: v },
            { __component: 'matrix.nested', links: [{ [attribute]: v }, { [attribute]: v }] },
          ],
        };
        const first = await owner('first', components);
        const second = await owner('second', components);
        const third = await owner('third');
        await write('owners', third.documentId, components, '?status=draft');
        const name = one(attribute, t.name);
        const expected = { block: name, blocks: [name, name], zone: [name, [name, name]] };
        for (const o of [first, second]) {
          assert.deepEqual(await componentValues(o.documentId, attribute), expected);
          assert.deepEqual(await componentValues(o.documentId, attribute, '&status=draft'), expected);
        }
        assert.deepEqual(await componentValues(third.documentId, attribute, '&status=draft'), expected);
        // Editing one owner's component keeps the others'.
        await write('owners', second.documentId, { block: { caption: 'edited', [attribute]: v } });
        assert.deepEqual(await componentValues(first.documentId, attribute), expected);
      });
    }
  });
}
