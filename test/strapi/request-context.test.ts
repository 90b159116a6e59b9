/**
 * `strapi.requestContext.get()` (test/fixtures/request-context): the request's Koa-like ctx where
 * project code runs during a request, as Strapi's AsyncLocalStorage gives it: a lifecycle stamping
 * `ctx.state.user` and reading `ctx.request.body` (on Vellum's own core routes), a service called by
 * a project controller, and undefined outside a request (bootstrap).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

for (const dialect of DIALECTS) {
  describe(`strapi.requestContext [${dialect}]`, () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(dialect, {
        project: fixture('request-context'),
        config: {
          permissions: {
            public: ['api::note.note.create', 'api::note.note.whoami'],
            authenticated: ['api::note.note.*'],
          },
          // Strapi 5's flat GraphQL shape.
          plugins: { graphql: { config: { v4CompatibilityMode: false } } },
        },
      });
    });
    after(() => server?.close());

    const signIn = async () => {
      const username = unique('rc');
      const answer = await server.publicApi.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return { username, client: new HttpClient(server.url, { authorization: `Bearer ${answer.body.jwt}` }) };
    };

    it("a lifecycle reads the signed-in user (ctx.state.user) and the request's body on a core route", async () => {
      const { username, client } = await signIn();
      const title = unique('note');
      const created = await client.post('/api/notes', { data: { title } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.author, username);
      assert.equal(created.body.data.seenTitle, title);
      const updated = await client.put(`/api/notes/${created.body.data.documentId}`, { data: { title: `${title}!` } });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.data.editor, username);
    });

    it('a GraphQL mutation: the lifecycle reads the same ctx (its user, the request body)', async () => {
      const { username, client } = await signIn();
      const title = unique('gql');
      const res = await client.post('/graphql', {
        query: 'mutation($title: String) { createNote(data: { title: $title }) { author seenTitle } }',
        variables: { title },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // The body of a GraphQL request is its query and variables: no `data` there, as in Strapi.
      assert.deepEqual(res.body, { data: { createNote: { author: username, seenTitle: null } } });
    });

    it('without credentials there is a ctx and no user; with an API token no user either', async () => {
      const title = unique('anon');
      const created = await server.publicApi.post('/api/notes', { data: { title } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.data.author, 'anonymous');
      assert.equal(created.body.data.seenTitle, title);
      const byToken = await server.api.post('/api/notes', { data: { title } });
      assert.equal(byToken.body.data.author, 'anonymous');
    });

    it('a service a project controller calls reads the same ctx; each request sees its own', async () => {
      const [a, b] = [await signIn(), await signIn()];
      const answers = await Promise.all([
        a.client.get('/api/notes-whoami'),
        b.client.get('/api/notes-whoami'),
        server.publicApi.get('/api/notes-whoami'),
      ]);
      for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.deepEqual(
        answers.map((answer) => [answer.body.inRequest, answer.body.user, answer.body.path]),
        [
          [true, a.username, '/api/notes-whoami'],
          [true, b.username, '/api/notes-whoami'],
          [true, null, '/api/notes-whoami'],
        ],
      );
    });

    it('outside a request (bootstrap) it is undefined', async () => {
      const answer = await server.publicApi.get('/api/notes-whoami');
      assert.deepEqual(answer.body.atBootstrap, {
        get: 'undefined',
        service: { inRequest: false, user: null, path: null },
      });
    });

    it('a write outside a request (as from bootstrap or a cron task) sees no request', async () => {
      const { documents, schema } = server.vellum;
      const note = await documents
        .of(schema.contentTypes.get('api::note.note')!)
        .create({ data: { title: unique('direct') } });
      assert.equal(note.author, 'no request');
    });
  });
}
