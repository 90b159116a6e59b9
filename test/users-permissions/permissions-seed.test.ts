/**
 * config/permissions seeds each grant once: a grant the file declares, revoked later with the CLI
 * or the admin API, stays revoked at the next CLI command and the next start; an action the file
 * names for the first time is granted at the next start.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { cliOutput } from '../helpers/cli.js';

/** The blog example's Public grants (config/permissions), as an override replaces the whole list. */
const BLOG_PUBLIC = [
  'api::*.find',
  'api::*.findOne',
  'plugin::upload.content-api.find',
  'plugin::upload.content-api.findOne',
];

for (const dialect of DIALECTS) {
  describe(`config/permissions seeds each grant once [${dialect}]`, () => {
    let project: TempProject;
    let server: TestServer;
    const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);
    const publicGrants = async () => {
      const roles = JSON.parse(await vellum('permissions', 'list')) as { type: string; permissions: string[] }[];
      return roles.find((role) => role.type === 'public')!.permissions;
    };
    /** Another node on the same database: it runs start-up's seeding again, as a restart does. */
    const restart = (config: Record<string, Record<string, unknown>> = {}) =>
      startServer(dialect, { project: project.dir, nodeOf: server, config });

    before(async () => {
      project = copyProject();
      server = await startServer(dialect, { project: project.dir });
      // The CLI finds the server's database through the project's configuration, as in production.
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
    });
    after(async () => {
      await server?.close();
      project?.remove();
    });

    it('a declared grant revoked with the CLI stays revoked at the next CLI command and the next start', async () => {
      assert.equal((await server.publicApi.get('/api/tags')).status, 200, 'the file grants it');
      assert.match(
        await vellum('permissions', 'revoke', 'public', 'api::tag.tag.find'),
        /Revoked for Public: api::tag\.tag\.find/,
      );
      assert.equal((await server.publicApi.get('/api/tags')).status, 403);

      // The next CLI command starts users-and-permissions again: the grant does not come back.
      assert.ok(!(await publicGrants()).includes('api::tag.tag.find'));
      assert.ok((await publicGrants()).includes('api::tag.tag.findOne'), 'the other declared grants stay');
      assert.equal((await server.publicApi.get('/api/tags')).status, 403);

      const node = await restart();
      try {
        assert.equal((await node.publicApi.get('/api/tags')).status, 403);
        assert.equal((await node.publicApi.get('/api/articles')).status, 200);
      } finally {
        await node.close();
      }
      assert.equal((await server.publicApi.get('/api/tags')).status, 403);
    });

    it('a declared grant revoked with the admin API stays revoked at the next start', async () => {
      const email = `${unique('admin')}@example.com`;
      await server.vellum.auth.admins.create(email, 'an-admin-password');
      const login = await server.publicApi.post('/admin/login', { email, password: 'an-admin-password' });
      const admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
      const category = (await server.api.post('/api/categories', { data: { name: unique('seeded') } })).body.data
        .documentId;
      assert.equal((await server.publicApi.get(`/api/categories/${category}`)).status, 200);

      const revoked = await admin.delete('/admin/content-api/roles/public/permissions/api::category.category.findOne');
      assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
      const node = await restart();
      try {
        assert.equal((await node.publicApi.get(`/api/categories/${category}`)).status, 403);
        assert.ok(
          !(await admin.get('/admin/content-api/roles/public')).body.data.permissions.includes(
            'api::category.category.findOne',
          ),
        );
        // Granted again by an administrator, it is there, and a restart keeps it.
        assert.equal(
          (
            await admin.post('/admin/content-api/roles/public/permissions', {
              actions: ['api::category.category.findOne'],
            })
          ).status,
          200,
        );
        assert.equal((await node.publicApi.get(`/api/categories/${category}`)).status, 200);
      } finally {
        await node.close();
      }
    });

    it('an action the file names for the first time is granted at the next start; one it stops naming is kept', async () => {
      const name = unique('seeded-author');
      assert.equal((await server.publicApi.post('/api/authors', { data: { name } })).status, 403);
      const added = await restart({ permissions: { public: [...BLOG_PUBLIC, 'api::author.author.create'] } });
      try {
        assert.equal((await added.publicApi.post('/api/authors', { data: { name } })).status, 201);
      } finally {
        await added.close();
      }
      // The file no longer names it: the database keeps what was granted (revoke it to take it away).
      const removed = await restart();
      try {
        assert.equal((await removed.publicApi.post('/api/authors', { data: { name: `${name}-2` } })).status, 201);
        await server.vellum.auth.roles.revoke((await server.vellum.auth.roles.get('public')).documentId, [
          'api::author.author.create',
        ]);
        assert.equal((await removed.publicApi.post('/api/authors', { data: { name: `${name}-3` } })).status, 403);
      } finally {
        await removed.close();
      }
    });
  });
}
