/**
 * `countDraftRelations` of a single type side by side with Strapi 5.54, on the strapi5-shop
 * fixture (its home page's zone links products): what Strapi's panel asks before publishing the
 * single type, before it exists and once its draft links a draft product and a published one.
 * On demand: `npm run test:strapi -- single-type-draft-relations`. Pinned in
 * test/admin/content-manager-models.test.ts (the collection types' form is compared in
 * content-manager-models.diff.ts).
 */
import { after, before, test } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/paths.js';
import { adminSessions, diffName, openDifferential, type Differential, type Side } from './harness.js';

const HOME = '/content-manager/single-types/api::homepage.homepage/actions/countDraftRelations';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};
before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: fixture('strapi5-shop') });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const run = Date.now().toString(36);

test('countDraftRelations of a single type: none before it exists, then its draft’s links to unpublished products', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const before = await admin.get(HOME);
      const draft = await api.post('/api/products?status=draft', { data: { name: `draft-${run}` } });
      const published = await api.post('/api/products', { data: { name: `published-${run}` } });
      const products = [draft, published].map((product) => product.body.data.documentId);
      const home = await api.put('/api/homepage?status=draft', {
        data: { title: `home-${run}`, sections: [{ __component: 'blocks.related', heading: 'h', products }] },
      });
      return {
        before,
        written: { ...home, body: home.status },
        counted: await admin.get(HOME),
        publishedStatus: await admin.get(`${HOME}?status=published`),
        localeIgnored: await admin.get(`${HOME}?locale=fr`),
        badStatus: await admin.get(`${HOME}?status=nope`),
        unknownType: await admin.get('/content-manager/single-types/api::nope.nope/actions/countDraftRelations'),
        anonymous: await new HttpClient(api.baseUrl).get(HOME),
      };
    },
    { messages: true },
  );
});
