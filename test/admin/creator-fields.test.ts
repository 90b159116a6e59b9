/**
 * The creator fields (specification 4.9, docs/rest.md "Creator fields"), on every dialect: writes
 * from the content manager record the administrator; a type with `options.populateCreatorFields`
 * populates `createdBy` and `updatedBy` on the content API with the administrator's public fields,
 * in the shape Strapi 5.54 answered (checked on it with the same schema); a type without the
 * option never shows them and refuses to populate them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HttpClient } from '../helpers/http.js';
import { inviteAdmin, registerFirstAdmin } from '../helpers/admins.js';
import { ARTICLE_SCHEMA, copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

const ARTICLES = '/admin/content-manager/collection-types/api::article.article';
// Strapi 5.54's `createdBy` of `GET /api/articles?populate=createdBy`: its keys, in its order.
const STRAPI_CREATOR_KEYS = [
  'id',
  'documentId',
  'firstname',
  'lastname',
  'username',
  'preferedLanguage',
  'createdAt',
  'updatedAt',
  'publishedAt',
];

for (const dialect of DIALECTS) {
  describe(`creator fields (${dialect})`, () => {
    let project: TempProject;
    let server: TestServer;
    let root: HttpClient;
    let editor: HttpClient;
    let rootId: number;
    let editorId: number;
    let documentId: string;

    before(async () => {
      project = copyProject();
      project.editJson(ARTICLE_SCHEMA, (json) => {
        json.options = { ...json.options, populateCreatorFields: true };
      });
      server = await startServer(dialect, { project: project.dir });
      const first = await registerFirstAdmin(server, {
        email: 'root@example.com',
        password: 'Passw0rd-Root',
        firstname: 'Root',
        lastname: 'Admin',
      });
      root = first.client;
      rootId = first.id;
      // Strapi's Editor role (id 2).
      const ed = await inviteAdmin(server, root, [2], {
        email: 'ed@example.com',
        firstname: 'Ed',
        lastname: 'Itor',
        password: 'Passw0rd-Ed',
      });
      editor = ed.client;
      editorId = ed.id;
      const created = await root.post(ARTICLES, { data: { title: 'Hello' } });
      documentId = created.body.data.documentId;
      assert.equal(
        (await editor.post(`${ARTICLES}/${documentId}/actions/publish`, { data: { title: 'Hello!' } })).status,
        200,
      );
    });
    after(async () => {
      await server?.close();
      project?.remove();
    });

    it('populates createdBy and updatedBy with the administrators’ public fields', async () => {
      const read = await server.api.get('/api/articles?populate=createdBy');
      const article = read.body.data.find((doc: { documentId: string }) => doc.documentId === documentId);
      assert.deepEqual(Object.keys(article.createdBy), STRAPI_CREATOR_KEYS);
      assert.equal(article.createdBy.id, rootId);
      assert.equal(article.createdBy.firstname, 'Root');
      assert.equal(article.createdBy.lastname, 'Admin');
      assert.equal('updatedBy' in article, false);
      const both = await server.api.get(`/api/articles/${documentId}?populate=*`);
      assert.equal(both.body.data.createdBy.id, rootId);
      assert.equal(both.body.data.updatedBy.id, editorId);
      assert.equal(both.body.data.updatedBy.lastname, 'Itor');
      for (const secret of ['email', 'password', 'isActive', 'blocked', 'registrationToken'])
        assert.equal(secret in both.body.data.createdBy, false, secret);
      const picked = await server.api.get(`/api/articles/${documentId}?populate[createdBy][fields][0]=firstname`);
      assert.deepEqual(picked.body.data.createdBy, {
        id: rootId,
        documentId: picked.body.data.createdBy.documentId,
        firstname: 'Root',
      });
    });

    it('never shows them without a populate, nor on a type without the option', async () => {
      const plain = await server.api.get(`/api/articles/${documentId}`);
      assert.equal('createdBy' in plain.body.data, false);
      const tag = await root.post('/admin/content-manager/collection-types/api::tag.tag', {
        data: { name: 'creator-tag' },
      });
      assert.equal(tag.status, 201);
      const refused = await server.api.get('/api/tags?populate=createdBy');
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.name, 'ValidationError');
      const star = await server.api.get('/api/tags?populate=*');
      for (const doc of star.body.data) assert.equal('createdBy' in doc, false);
    });

    it('filters and sorts on createdBy and updatedBy where the type shows them, as Strapi 5.54 does', async () => {
      const mine = await editor.post(ARTICLES, { data: { title: 'By Ed' } });
      assert.equal(mine.status, 201, JSON.stringify(mine.body));
      const titles = async (query: string) => {
        const answer = await server.api.get(`/api/articles?status=draft&fields[0]=title&sort=title&${query}`);
        assert.equal(answer.status, 200, `${query}: ${JSON.stringify(answer.body)}`);
        return answer.body.data.map((doc: { title: string }) => doc.title);
      };
      const expect = async (query: string, expected: string[]) =>
        assert.deepEqual(await titles(query), expected, query);
      await expect(`filters[createdBy][id][$eq]=${editorId}`, ['By Ed']);
      await expect(`filters[createdBy][$eq]=${editorId}`, ['By Ed']);
      await expect('filters[createdBy][firstname][$eq]=Root', ['Hello!']);
      await expect('filters[updatedBy][lastname][$containsi]=ITO', ['By Ed', 'Hello!']);
      await expect('filters[$or][0][createdBy][username][$null]=true&filters[$or][1][title][$eq]=none', [
        'By Ed',
        'Hello!',
      ]);
      // An article written through the content API has no creator.
      const anonymous = await server.api.post('/api/articles', { data: { title: 'Nobody’s' } });
      assert.equal(anonymous.status, 201, JSON.stringify(anonymous.body));
      await expect('filters[createdBy][id][$null]=true', ['Nobody’s']);
      const sorted = await server.api.get(
        // Without the document nobody wrote: where NULL sorts is each database's (as in Strapi).
        '/api/articles?status=draft&fields[0]=title&filters[createdBy][id][$notNull]=true&sort[0]=createdBy.firstname:desc&sort[1]=title',
      );
      assert.deepEqual(
        sorted.body.data.map((doc: { title: string }) => doc.title),
        ['Hello!', 'By Ed'],
      );
      // Strapi's refusals: private fields at their path, unknown names at the creator field's.
      const refusal = async (query: string) => (await server.api.get(`/api/${query}`)).body.error;
      assert.deepEqual(await refusal('articles?filters[createdBy][email][$eq]=root@example.com'), {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key email at createdBy.email',
        details: { param: 'filters', key: 'email', path: 'createdBy.email', source: 'query' },
      });
      assert.equal(
        (await refusal('articles?filters[createdBy][nothing]=1')).message,
        'Invalid key nothing at createdBy',
      );
      assert.equal((await refusal('articles?fields[0]=createdBy')).message, 'Invalid key createdBy');
      const tags = await refusal('tags?sort=createdBy.firstname');
      assert.deepEqual([tags.message, tags.details.path], ['Invalid key createdBy', 'createdBy']);
      assert.equal(
        (await refusal('tags?filters[updatedBy][id]=1')).message,
        'Invalid key createdBy'.replace('created', 'updated'),
      );
      // A renamed administrator: answers cached before follow the new name.
      await expect('filters[createdBy][firstname][$eq]=Edward', []);
      assert.equal((await editor.put('/admin/users/me', { firstname: 'Edward' })).status, 200);
      await expect('filters[createdBy][firstname][$eq]=Edward', ['By Ed']);
    });
  });
}
