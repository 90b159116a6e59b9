/**
 * What real Strapi 5 projects' code does that the other fixtures do not (test/fixtures/strapi-real-patterns,
 * written in our own words after the projects README's "Real projects tried" lists): Koa middlewares
 * added with `strapi.server.use`, a route middleware writing a field the user model lacks (Strapi's
 * query engine ignores it), a controller reading a JWT from a cookie through `strapi.plugins`,
 * `strapi.contentAPI`, `strapi.getModel`, `strapi.services` and `strapi.controllers`, and a Document
 * Service middleware reading a parameter of its own from the REST query.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

for (const dialect of DIALECTS) {
  describe(`patterns of real projects' code [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, { project: fixture('strapi-real-patterns') });
    });
    after(() => server?.close());

    /** A new user's JWT and documentId. */
    async function signUp(): Promise<{ jwt: string; documentId: string }> {
      const username = unique('writer');
      const registered = await server.publicApi.post('/api/auth/local/register', { username, email: `${username}@example.com`, password: 'secret123' });
      assert.equal(registered.status, 200, registered.text);
      return { jwt: registered.body.jwt, documentId: registered.body.user.documentId };
    }

    it('starts without warnings', () => {
      assert.deepEqual(server.vellum.warnings, []);
    });

    it('strapi.server.use in register and in bootstrap wraps every request, Vellum\'s own routes too, in Strapi\'s order', async () => {
      const list = await server.publicApi.get('/api/notes');
      assert.equal(list.status, 200);
      assert.equal(list.headers.get('x-early'), 'register');
      // Strapi mounts config/middlewares between register and bootstrap.
      assert.equal(list.headers.get('x-trail'), 'register,config,bootstrap');
      assert.equal(list.headers.get('x-late'), 'bootstrap 200');
      const refused = await server.publicApi.get('/api/notes/nope-such-id');
      assert.equal(refused.headers.get('x-late'), 'bootstrap 403');
      const health = await server.publicApi.get('/_health');
      assert.equal(health.status, 204);
      assert.equal(health.headers.get('x-early'), 'register');
    });

    it('a write of project code ignores the keys its model lacks, as Strapi\'s query engine does', async () => {
      const { jwt, documentId } = await signUp();
      const title = unique('note');
      // The route middleware stamps the owner, then counts on the user with a field it lacks.
      const created = await server.publicApi.post('/api/notes', { data: { title } }, { headers: { authorization: `Bearer ${jwt}` } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.owner, documentId);
      // strapi.db.query (a component item's stray key too), strapi.entityService, strapi.documents.
      const copies = await server.publicApi.post('/api/notes-copies', { title }, { headers: { authorization: `Bearer ${jwt}` } });
      assert.equal(copies.status, 200, copies.text);
      assert.deepEqual(copies.body, { row: `${title}-db`, labels: ['a'], entity: `${title}-es`, updated: `${title}-es2` });
      // REST still refuses an unknown key in a body, as Strapi does.
      const refused = await server.publicApi.post('/api/notes', { data: { title: `${title}-rest`, nope: 1 } }, { headers: { authorization: `Bearer ${jwt}` } });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.message, 'Invalid key nope');
    });

    it('a controller reads a JWT from a cookie through strapi.plugins, then lists through strapi.contentAPI and strapi.services', async () => {
      const mine = await signUp();
      const other = await signUp();
      const title = unique('mine');
      for (const who of [mine, other]) {
        const created = await server.publicApi.post('/api/notes', { data: { title, labels: [{ text: who.documentId }] } }, { headers: { authorization: `Bearer ${who.jwt}` } });
        assert.equal(created.status, 201, created.text);
      }
      const listed = await server.publicApi.get(`/api/notes/mine?filters[title]=${title}&withLabels=1`, { headers: { cookie: `theme=dark; session=${mine.jwt}` } });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.data.map((note: { owner: string }) => note.owner),
        [mine.documentId],
      );
      // The Document Service middleware turned the query's own withLabels into a populate.
      assert.deepEqual(listed.body.data[0].labels.map((label: { text: string }) => label.text), [mine.documentId]);
      const noSession = await server.publicApi.get('/api/notes/mine');
      assert.equal(noSession.status, 401);
      assert.equal(noSession.body.error.message, 'No session');
      const badSession = await server.publicApi.get('/api/notes/mine', { headers: { cookie: 'session=not-a-jwt' } });
      assert.equal(badSession.status, 401);
      assert.equal(badSession.body.error.message, 'Bad session');
    });

    it('strapi.getModel, strapi.controllers and strapi.contentAPI.validate answer as in Strapi', async () => {
      const { jwt } = await signUp();
      const auth = { headers: { authorization: `Bearer ${jwt}` } };
      const outline = await server.publicApi.get('/api/notes-outline', auth);
      assert.equal(outline.status, 200, outline.text);
      assert.deepEqual(outline.body, { attributes: ['title', 'owner', 'labels'], component: 'bits.label', controller: 'function', plugins: true });
      const invalid = await server.publicApi.get('/api/notes-outline?lookup[x]=1', auth);
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.error.name, 'ValidationError');
    });
  });
}
