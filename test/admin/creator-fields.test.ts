/**
 * The creator fields (specification 4.9, docs/rest.md "Creator fields"), on every dialect: writes
 * from the content manager record the administrator; a type with `options.populateCreatorFields`
 * populates `createdBy` and `updatedBy` on the content API with the administrator's public fields,
 * in the shape Strapi 5.54 answered (checked on it with the same schema); a type without the
 * option never shows them and refuses to populate them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
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
      const first = await server.publicApi.post('/admin/register-admin', {
        email: 'root@example.com',
        password: 'Passw0rd-Root',
        firstname: 'Root',
        lastname: 'Admin',
      });
      root = new HttpClient(server.url, { authorization: `Bearer ${first.body.data.token}` });
      rootId = first.body.data.user.id;
      const invited = await root.post('/admin/users', { email: 'ed@example.com', firstname: 'Ed', roles: [2] });
      const registered = await server.publicApi.post('/admin/register', {
        registrationToken: invited.body.data.registrationToken,
        userInfo: { firstname: 'Ed', lastname: 'Itor', password: 'Passw0rd-Ed' },
      });
      editor = new HttpClient(server.url, { authorization: `Bearer ${registered.body.data.token}` });
      editorId = registered.body.data.user.id;
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
  });
}
