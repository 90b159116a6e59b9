/**
 * What real Strapi 5 projects' code does that the other fixtures do not (test/fixtures/strapi-real-patterns,
 * written in our own words after the projects docs/real-projects.md lists): Koa middlewares
 * added with `strapi.server.use`, a route middleware writing a field the user model lacks (Strapi's
 * query engine ignores it), a controller reading a JWT from a cookie through `strapi.plugins`,
 * `strapi.contentAPI`, `strapi.getModel`, `strapi.services` and `strapi.controllers`, and a Document
 * Service middleware reading a parameter of its own from the REST query, a global policy whose
 * file name is in camel case.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { copyProject } from '../helpers/projects.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { cliOutput } from '../helpers/cli.js';

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
const MANY_REGISTRATIONS = { plugins: { 'users-permissions': { config: { register: { ratelimit: { max: 1000 } } } } } };

for (const dialect of DIALECTS) {
  describe(`patterns of real projects' code [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      // Many users register from one address here: past the default registration limit.
      server = await startServer(dialect, { project: fixture('strapi-real-patterns'), config: MANY_REGISTRATIONS });
    });
    after(() => server?.close());

    /** A new user's JWT and documentId. */
    async function signUp(): Promise<{ jwt: string; documentId: string }> {
      const username = unique('writer');
      const registered = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      assert.equal(registered.status, 200, registered.text);
      return { jwt: registered.body.jwt, documentId: registered.body.user.documentId };
    }

    it('starts without warnings', () => {
      assert.deepEqual(server.vellum.warnings, []);
    });

    it("strapi.server.use in register and in bootstrap wraps every request, Vellum's own routes too, in Strapi's order", async () => {
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

    it("a write of project code ignores the keys its model lacks, as Strapi's query engine does", async () => {
      const { jwt, documentId } = await signUp();
      const title = unique('note');
      // The route middleware stamps the owner, then counts on the user with a field it lacks.
      const created = await server.publicApi.post(
        '/api/notes',
        { data: { title } },
        { headers: { authorization: `Bearer ${jwt}` } },
      );
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.data.owner, documentId);
      // strapi.db.query (a component item's stray key too), strapi.entityService, strapi.documents.
      const copies = await server.publicApi.post(
        '/api/notes-copies',
        { title },
        { headers: { authorization: `Bearer ${jwt}` } },
      );
      assert.equal(copies.status, 200, copies.text);
      assert.deepEqual(copies.body, {
        row: `${title}-db`,
        labels: ['a'],
        entity: `${title}-es`,
        updated: `${title}-es2`,
      });
      // REST still refuses an unknown key in a body, as Strapi does.
      const refused = await server.publicApi.post(
        '/api/notes',
        { data: { title: `${title}-rest`, nope: 1 } },
        { headers: { authorization: `Bearer ${jwt}` } },
      );
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.message, 'Invalid key nope');
    });

    it("a content-type without a router has no action: a stored grant of it is ignored, as Strapi's permission engine ignores it", async () => {
      const { jwt } = await signUp();
      const title = unique('topical');
      const copies = await server.publicApi.post(
        '/api/notes-copies',
        { title },
        { headers: { authorization: `Bearer ${jwt}` } },
      );
      assert.equal(copies.status, 200, copies.text);
      // The bootstrap granted Public api::topic.topic.find; topics have no router, so no such action exists.
      const asPublic = await server.publicApi.get(`/api/notes?filters[title]=${title}-db&populate=topic`);
      assert.equal(asPublic.status, 200, asPublic.text);
      assert.equal(asPublic.body.data.length, 1);
      assert.equal('topic' in asPublic.body.data[0], false);
      const filtered = await server.publicApi.get(`/api/notes?filters[topic][name]=${title}-topic`);
      assert.equal(filtered.status, 400);
      assert.equal(filtered.body.error.name, 'ValidationError');
      // A full-access token reads everything.
      const asToken = await server.api.get(`/api/notes?filters[title]=${title}-db&populate=topic`);
      assert.equal(asToken.body.data[0].topic.name, `${title}-topic`);
    });

    it("a route may name another API's controller; its action is that API's, and grantable", async () => {
      const { jwt } = await signUp();
      const title = unique('named');
      await server.publicApi.post('/api/notes-copies', { title }, { headers: { authorization: `Bearer ${jwt}` } });
      const names = await server.publicApi.get('/api/notes-topics', { headers: { authorization: `Bearer ${jwt}` } });
      assert.equal(names.status, 200, names.text);
      assert.ok(names.body.data.includes(`${title}-topic`));
      assert.equal((await server.publicApi.get('/api/notes-topics')).status, 403);
    });

    it('config/permissions may not grant an action of a content-type without a router', async () => {
      await assert.rejects(
        startServer(dialect, {
          project: fixture('strapi-real-patterns'),
          config: { ...MANY_REGISTRATIONS, permissions: { public: ['api::topic.topic.find'] } },
        }),
        /config\/permissions "public": "api::topic.topic.find" names no known action/,
      );
    });

    it("`vellum permissions grant` grants a custom route's action, and refuses one of a content-type without a router", async () => {
      const project = copyProject(fixture('strapi-real-patterns'));
      const node = await startServer(dialect, { project: project.dir, config: MANY_REGISTRATIONS });
      try {
        // The CLI finds the node's database through the project's configuration, as in production.
        rmSync(join(project.dir, 'config/database.js'), { force: true });
        project.write('config/database.json', JSON.stringify(node.databaseConfig));
        const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);
        assert.equal((await node.publicApi.get('/api/notes-outline')).status, 403);
        await vellum('permissions', 'grant', 'public', 'api::note.note.outline');
        assert.equal((await node.publicApi.get('/api/notes-outline')).status, 200);
        await assert.rejects(
          vellum('permissions', 'grant', 'public', 'api::topic.topic.find'),
          /names no known action/,
        );
      } finally {
        await node.close();
        project.remove();
      }
    });

    it('a controller reads a JWT from a cookie through strapi.plugins, then lists through strapi.contentAPI and strapi.services', async () => {
      const mine = await signUp();
      const other = await signUp();
      const title = unique('mine');
      for (const who of [mine, other]) {
        const created = await server.publicApi.post(
          '/api/notes',
          { data: { title, labels: [{ text: who.documentId }] } },
          { headers: { authorization: `Bearer ${who.jwt}` } },
        );
        assert.equal(created.status, 201, created.text);
      }
      const listed = await server.publicApi.get(`/api/notes/mine?filters[title]=${title}&withLabels=1`, {
        headers: { cookie: `theme=dark; session=${mine.jwt}` },
      });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(
        listed.body.data.map((note: { owner: string }) => note.owner),
        [mine.documentId],
      );
      // The Document Service middleware turned the query's own withLabels into a populate.
      assert.deepEqual(
        listed.body.data[0].labels.map((label: { text: string }) => label.text),
        [mine.documentId],
      );
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
      assert.deepEqual(outline.body, {
        attributes: ['title', 'owner', 'labels', 'topic'],
        component: 'bits.label',
        controller: 'function',
        plugins: true,
      });
      const invalid = await server.publicApi.get('/api/notes-outline?lookup[x]=1', auth);
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.error.name, 'ValidationError');
    });

    it('a global policy of src/policies is named after its file as it is (global::callerIsKnown), as Strapi names it', async () => {
      assert.equal((await server.publicApi.get('/api/notes-outline-checked')).status, 403);
      const passed = await server.publicApi.get('/api/notes-outline-checked', { headers: { 'x-caller': 'known' } });
      assert.equal(passed.status, 200, passed.text);
      assert.equal(passed.body.component, 'bits.label');
    });
  });
}
