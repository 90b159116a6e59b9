/**
 * The creator fields on the content API side by side with Strapi 5.54 (issue 34, specification
 * 4.9): a type with `options.populateCreatorFields` populates, filters and sorts on `createdBy` and
 * `updatedBy` (the administrator's public fields); a type without it refuses them in Strapi's words.
 * On demand: `npm run test:strapi -- creator-fields`. Pinned in test/admin/creator-fields.test.ts.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { ARTICLE_SCHEMA, copyProject, type TempProject } from '../helpers/projects.js';
import { diffName, openDifferential, type Differential, type Side } from './harness.js';

const ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!' };
const ARTICLES = '/content-manager/collection-types/api::article.article';
const CATEGORIES = '/content-manager/collection-types/api::category.category';

let project: TempProject;
let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};

before(async () => {
  project = copyProject();
  // Strapi's folder keeps its template's server configuration (its app keys).
  rmSync(join(project.dir, 'config'), { recursive: true, force: true });
  project.editJson(ARTICLE_SCHEMA, (json) => {
    json.options = { ...json.options, populateCreatorFields: true };
  });
  diff = await openDifferential({ name: diffName(import.meta.filename), project: project.dir });
  for (const [side, api] of [
    ['strapi', diff.strapi],
    ['vellum', diff.vellum],
  ] as const) {
    const anonymous = new HttpClient(api.baseUrl);
    if (side === 'vellum')
      await anonymous.post('/admin/register-admin', { ...ADMIN, firstname: 'Ada', lastname: 'Admin' });
    else {
      // Strapi's administrator (token.sh made it): named as Vellum's.
      const login = await anonymous.post('/admin/login', ADMIN);
      const client = new HttpClient(api.baseUrl, { authorization: `Bearer ${login.body.data.token}` });
      await client.put('/admin/users/me', { firstname: 'Ada', lastname: 'Admin' });
    }
    const login = await anonymous.post('/admin/login', ADMIN);
    assert.equal(login.status, 200, `${side}: ${JSON.stringify(login.body)}`);
    sessions[side] = new HttpClient(api.baseUrl, { authorization: `Bearer ${login.body.data.token}` });
  }
});
after(async () => {
  await diff?.close();
  project?.remove();
});

test('createdBy and updatedBy: populated, filtered and sorted where the type shows them, refused elsewhere', async () => {
  await diff.same(
    async (api, side) => {
      const admin = sessions[side]!;
      const answers: Record<string, Response> = {};
      for (const title of ['Creators one', 'Creators two'])
        assert.equal((await admin.post(`${ARTICLES}?locale=en`, { title })).status, 201);
      assert.equal((await admin.post(CATEGORIES, { name: 'Creators' })).status, 201);
      const me = await admin.get('/admin/users/me');
      const id = me.body.data.id as number;
      const list = (query: string) => api.get(`/api/articles?status=draft&fields[0]=title&sort=title&${query}`);
      answers.byId = await list(`filters[createdBy][id][$eq]=${id}`);
      answers.byOtherId = await list(`filters[createdBy][id][$eq]=${id + 100}`);
      answers.byName = await list('filters[createdBy][firstname][$eq]=Ada');
      answers.byUpdater = await list('filters[updatedBy][lastname][$containsi]=adm');
      answers.nullCreator = await list('filters[createdBy][id][$null]=true');
      answers.byEmail = await list('filters[createdBy][email][$eq]=admin@example.com');
      answers.byPassword = await list('filters[createdBy][password][$eq]=x');
      answers.byUnknown = await list('filters[createdBy][nothing][$eq]=x');
      answers.direct = await list(`filters[createdBy][$eq]=${id}`);
      answers.sorted = await api.get(
        '/api/articles?status=draft&fields[0]=title&sort[0]=createdBy.firstname&sort[1]=title:desc',
      );
      answers.sortedById = await api.get(
        '/api/articles?status=draft&fields[0]=title&sort[0]=createdBy.id:desc&sort[1]=title',
      );
      answers.populatedFiltered = await api.get(
        `/api/articles?status=draft&fields[0]=title&sort=title&populate[createdBy][fields][0]=firstname&populate[createdBy][filters][firstname][$eq]=Ada`,
      );
      answers.fieldsCreator = await api.get('/api/articles?fields[0]=createdBy');
      answers.categoryFilter = await api.get(`/api/categories?filters[createdBy][id][$eq]=${id}`);
      answers.categorySort = await api.get('/api/categories?sort=createdBy.firstname');
      answers.categoryUpdater = await api.get('/api/categories?filters[updatedBy][firstname][$eq]=Ada');
      return answers;
    },
    { messages: true, ignoreKeys: ['id'] },
  );
});
