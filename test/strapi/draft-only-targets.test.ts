/**
 * Relations from a type without draft and publish to one with it, when the target has only a
 * draft: Strapi 5.54 links such a row to the target's draft and published rows, so its filters
 * find the row whatever the status read, and populating shows the version of the status read
 * (the Document Service reads drafts by default). Compared with Strapi in test/differential/draft-only-targets.diff.ts;
 * a real project (strapi_danibosingeventos, docs/real-projects.md) found its order items by a draft-only budget.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const names = (list: { name?: string; title?: string }[]) => list.map((item) => item.name ?? item.title);

for (const dialect of DIALECTS) {
  describe(`relations to targets that have only a draft, from types without draft and publish [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('draft-only-targets') });
    });
    after(() => server?.close());

    it('the Document Service: filters find them in either status; populate shows the status read', async () => {
      const name = unique('d');
      const res = await server.publicApi.post(`/api/probe/draft-only-targets/${name}`, {});
      assert.equal(res.status, 200, res.text);
      const { draftOnly, published } = res.body;
      assert.deepEqual(names(draftOnly.badgeByHolder), [name]);
      assert.deepEqual(names(draftOnly.badgeByHolderPublished), [name]);
      assert.equal(draftOnly.badgeHolder?.name, name, 'the draft, read as draft');
      assert.equal(draftOnly.badgeHolderPublished, null);
      assert.deepEqual(names(draftOnly.labelByPage), [name]);
      assert.deepEqual(names(draftOnly.labelByPagePublished), [name]);
      assert.deepEqual(names(draftOnly.labelPages), [name]);
      assert.deepEqual(draftOnly.labelPagesPublished, []);
      assert.equal(published.badgeHolderPublished?.name, name);
      assert.deepEqual(names(published.labelPagesPublished), [name]);
      assert.deepEqual(names(published.badgeByHolderPublished), [name]);
    });

    it('the query engine populates every linked version, the draft first; relations inside components match either version', async () => {
      const name = unique('e');
      const res = await server.publicApi.post(`/api/probe/engine-reads/${name}`, {});
      assert.equal(res.status, 200, res.text);
      // Strapi 5.54's answers (test/differential/draft-only-targets.diff.ts).
      assert.deepEqual(res.body, {
        draftOnly: {
          engineHolder: 'draft',
          enginePages: ['draft'],
          byLinkDraft: [name],
          byLinkPublished: [name],
          linkPageDraft: name,
          linkPagePublished: null,
        },
        published: {
          engineHolder: 'draft',
          enginePages: ['draft', 'published'],
          byLinkDraft: [name],
          byLinkPublished: [name],
          linkPageDraft: name,
          linkPagePublished: name,
        },
      });
    });

    it('REST: a filter through the relation finds the row; populate shows the published version only', async () => {
      const name = unique('r');
      const holder = await server.api.post('/api/holders?status=draft', { data: { name } });
      assert.equal(holder.status, 201, holder.text);
      const badge = await server.api.post('/api/badges', { data: { name, holder: holder.body.data.documentId } });
      assert.equal(badge.status, 201, badge.text);
      const found = await server.api.get(`/api/badges?filters[holder][name][$eq]=${name}&populate=holder`);
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(
        found.body.data.map((item: { name: string }) => item.name),
        [name],
      );
      assert.equal(found.body.data[0].holder, null);
      const drafts = await server.api.get(
        `/api/badges?filters[holder][name][$eq]=${name}&populate=holder&status=draft`,
      );
      assert.equal(drafts.body.data[0].holder?.name, name);
    });
  });
}
