/**
 * `strapi.requestContext.get()` side by side with Strapi 5.54 (test/fixtures/request-context): a
 * lifecycle stamping the request's user and reading its body, a project controller's service
 * reading the ctx, and bootstrap outside any request. On demand: `npm run test:strapi -- request-context`.
 */
import { after, before, test } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, openDifferential, type Differential } from './harness.js';

let diff: Differential;
before(async () => {
  // GraphQL in Strapi 5's flat shape on both (Vellum's default for a project without @strapi/strapi is the spec's).
  diff = await openDifferential({
    name: diffName(import.meta.filename),
    project: fixture('request-context'),
    readyPath: '/api/notes',
    vellumConfig: { plugins: { graphql: { config: { v4CompatibilityMode: false } } } },
  });
});
after(() => diff?.close());

const run = Date.now().toString(36);

test('a lifecycle and a service read the request ctx; bootstrap reads undefined', async () => {
  await diff.same(
    async (api) => {
      // Both roles may use notes (the fixture grants nothing).
      for (const role of (await api.get('/api/users-permissions/roles')).body.roles as { id: number }[]) {
        const tree = (await api.get(`/api/users-permissions/roles/${role.id}`)).body.role.permissions;
        for (const state of Object.values(tree['api::note'].controllers.note) as { enabled: boolean }[])
          state.enabled = true;
        await api.put(`/api/users-permissions/roles/${role.id}`, { permissions: tree });
      }
      const anonymous = new HttpClient(api.baseUrl);
      const username = `rc${run}`;
      const signUp = await anonymous.post('/api/auth/local/register', {
        username,
        email: `${username}@example.com`,
        password: 'secret123',
      });
      const user = new HttpClient(api.baseUrl, { authorization: `Bearer ${signUp.body.jwt}` });
      const created = await user.post('/api/notes', { data: { title: `hello ${run}` } });
      return [
        created,
        await user.put(`/api/notes/${created.body.data.documentId}`, { data: { title: `again ${run}` } }),
        await anonymous.post('/api/notes', { data: { title: `anonymous ${run}` } }),
        await api.post('/api/notes', { data: { title: `token ${run}` } }),
        await user.get('/api/notes-whoami'),
        await anonymous.get('/api/notes-whoami'),
        await user.post('/graphql', {
          query: 'mutation($title: String) { createNote(data: { title: $title }) { author seenTitle } }',
          variables: { title: `gql ${run}` },
        }),
      ];
    },
    { messages: true, ignoreKeys: ['id', 'documentId'] },
  );
});
