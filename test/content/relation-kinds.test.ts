import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`every relation kind, both sides [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('relations') });
    });
    after(() => server?.close());
    const create = async (plural: string, data: Record<string, unknown>) => {
      const res = await server.api.post(`/api/${plural}`, { data });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.documentId as string;
    };
    const get = async (plural: string, id: string, populate: string) =>
      (await server.api.get(`/api/${plural}/${id}?populate=${populate}`)).body.data;

    it('oneToOne keeps one holder per passport on both sides', async () => {
      const passport = await create('passports', { number: 'P1' });
      const ann = await create('people', { name: 'Ann', passport });
      assert.equal((await get('passports', passport, 'holder')).holder.documentId, ann);
      const bob = await create('people', { name: 'Bob', passport });
      assert.equal((await get('passports', passport, 'holder')).holder.documentId, bob);
      assert.equal((await get('people', ann, 'passport')).passport, null, 'moved away from Ann');
      const other = await create('passports', { number: 'P2', holder: ann });
      assert.equal((await get('people', ann, 'passport')).passport.documentId, other, 'set from the inverse side');
    });

    it('oneToOne and oneWay without an inverse side', async () => {
      const mentor = await create('people', { name: 'Mentor' });
      const idol = await create('people', { name: 'Idol' });
      const student = await create('people', { name: 'Student', mentor, idol });
      const doc = await get('people', student, 'mentor,idol');
      assert.equal(doc.mentor.documentId, mentor);
      assert.equal(doc.idol.documentId, idol);
      await server.api.put(`/api/people/${student}`, { data: { mentor: null, idol: { disconnect: [idol] } } });
      const cleared = await get('people', student, 'mentor,idol');
      assert.equal(cleared.mentor, null);
      assert.equal(cleared.idol, null);
    });

    it('oneToMany without inverse and manyWay keep order and positions', async () => {
      const friends = [
        await create('people', { name: 'F1' }),
        await create('people', { name: 'F2' }),
        await create('people', { name: 'F3' }),
      ];
      const pets = [await create('pets', { name: 'Rex' }), await create('pets', { name: 'Tom' })];
      const me = await create('people', { name: 'Me', friends: [friends[1], friends[0]], crew: pets });
      await server.api.put(`/api/people/${me}`, {
        data: { friends: { connect: [{ documentId: friends[2], position: { before: friends[0] } }] } },
      });
      const doc = await get('people', me, 'friends,crew');
      assert.deepEqual(
        doc.friends.map((f: any) => f.name),
        ['F2', 'F3', 'F1'],
      );
      assert.deepEqual(
        doc.crew.map((p: any) => p.name),
        ['Rex', 'Tom'],
      );
    });

    it('manyToOne / oneToMany: written from either side, visible from the other, cardinality kept', async () => {
      const owner = await create('people', { name: 'Owner' });
      const other = await create('people', { name: 'Other' });
      const p1 = await create('pets', { name: 'P1', owner });
      const p2 = await create('pets', { name: 'P2' });
      await server.api.put(`/api/people/${owner}`, {
        data: { pets: { connect: [{ documentId: p2, position: { start: true } }] } },
      });
      assert.deepEqual(
        (await get('people', owner, 'pets')).pets.map((p: any) => p.name),
        ['P2', 'P1'],
      );
      assert.equal((await get('pets', p2, 'owner')).owner.documentId, owner);
      await server.api.put(`/api/pets/${p1}`, { data: { owner: other } });
      assert.deepEqual(
        (await get('people', owner, 'pets')).pets.map((p: any) => p.name),
        ['P2'],
      );
      assert.deepEqual(
        (await get('people', other, 'pets')).pets.map((p: any) => p.name),
        ['P1'],
      );
      await server.api.put(`/api/people/${other}`, { data: { pets: { connect: [p2] } } });
      assert.deepEqual((await get('people', owner, 'pets')).pets, [], 'a pet has one owner');
    });

    it('self relations are removed when the target is deleted', async () => {
      const friend = await create('people', { name: 'Gone' });
      const me = await create('people', { name: 'Stays', friends: [friend], mentor: friend });
      await server.api.delete(`/api/people/${friend}`);
      const doc = await get('people', me, 'friends,mentor');
      assert.deepEqual(doc.friends, []);
      assert.equal(doc.mentor, null);
    });
  });
}
