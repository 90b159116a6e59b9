/**
 * Administrators' roles in archives, against the real Strapi 5.54 (issue 34; docs/import-export.md
 * "Administrators' roles"). On demand: `npm run test:strapi -- roles-transfer`.
 *
 * - `vellum export` writes roles as Strapi's transfer engine writes `admin::role` and
 *   `admin::permission` entities and their links; `strapi import --force` of that archive restores
 *   the content and leaves the roles out (its CLI filters every `admin::` type, and keeps them out
 *   of what it deletes first): Strapi's own roles, their permissions and its administrators are as
 *   they were, Vellum's roles are not created.
 * - What Strapi's engine writes for its roles (test/differential/strapi-engine-export.mjs: the
 *   engine without the CLI's filter), imported by `vellum import`, gives Vellum the same roles and
 *   permissions as Strapi's admin API answers them.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { create as createTar } from 'tar';
import { openProject } from '../../src/app/open-project.js';
import { exportArchive, importArchive, Progress } from '../../src/features/transfer/index.js';
import { HttpClient, type Response } from '../helpers/http.js';
import { BLOG } from '../helpers/server.js';
import { diffName, openDifferential, type Differential, type Side } from './harness.js';

const ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!' };
const ARTICLE = 'api::article.article';
const ENGINE_EXPORT = join(import.meta.dirname, 'strapi-engine-export.mjs');

let diff: Differential;
let work: string;
const sessions: Partial<Record<Side, HttpClient>> = {};

const login = async (side: Side) => {
  const api = side === 'strapi' ? diff.strapi : diff.vellum;
  const res = await new HttpClient(api.baseUrl).post('/admin/login', ADMIN);
  assert.equal(res.status, 200, `${side}: ${JSON.stringify(res.body)}`);
  sessions[side] = new HttpClient(api.baseUrl, { authorization: `Bearer ${res.body.data.token}` });
};
const admin = (side: Side) => sessions[side]!;

/** Vellum's project, opened as the CLI opens it, on the test server's database. */
const vellumProject = () =>
  openProject(BLOG, {
    env: { NODE_ENV: 'test' },
    overrides: { server: { dirs: { public: join(work, 'public') } }, database: diff.vellumServer.databaseConfig },
  });

/** Every role with its permissions (ids included), as the admin API answers them. */
async function roles(client: HttpClient) {
  const list = await client.get('/admin/roles');
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const out: Record<string, unknown> = {};
  for (const role of list.body.data as { id: number; code: string }[])
    out[role.code] = { role, permissions: (await client.get(`/admin/roles/${role.id}/permissions`)).body.data };
  return out;
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'vellum-roles-diff-'));
  diff = await openDifferential({ name: diffName(import.meta.filename) });
  await new HttpClient(diff.vellum.baseUrl).post('/admin/register-admin', {
    ...ADMIN,
    firstname: 'Ada',
    lastname: 'Admin',
  });
  await login('strapi');
  await login('vellum');
});
after(async () => {
  await diff?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

test('strapi import of a Vellum archive restores its content, leaves its roles out and keeps Strapi’s own', async () => {
  // Strapi's own role, which an import must not touch.
  const kept = await admin('strapi').post('/admin/roles', { name: 'Kept on Strapi', description: 'Made there' });
  assert.equal(kept.status, 201);
  const keptPermissions = await admin('strapi').put(`/admin/roles/${kept.body.data.id}/permissions`, {
    permissions: [
      { action: 'plugin::content-manager.explorer.read', subject: 'api::tag.tag', properties: { fields: ['name'] } },
      { action: 'plugin::upload.read', subject: null },
    ],
  });
  assert.equal(keptPermissions.status, 200, JSON.stringify(keptPermissions.body));
  // Vellum's roles, which travel in its archive.
  const titles = await admin('vellum').post('/admin/roles', { name: 'Titles', description: 'Only titles' });
  assert.equal(titles.status, 201);
  assert.equal(
    (
      await admin('vellum').put(`/admin/roles/${titles.body.data.id}/permissions`, {
        permissions: [
          {
            action: 'plugin::content-manager.explorer.read',
            subject: ARTICLE,
            properties: { fields: ['title', 'seo.metaTitle'], locales: ['en'] },
            conditions: ['admin::is-creator'],
          },
        ],
      })
    ).status,
    200,
  );
  const editor = (await admin('vellum').get('/admin/roles/2/permissions')).body.data as {
    id?: number;
    action: string;
  }[];
  const noPublish = editor
    .filter((p) => p.action !== 'plugin::content-manager.explorer.publish')
    .map(({ id: _id, ...p }) => p);
  assert.equal((await admin('vellum').put('/admin/roles/2/permissions', { permissions: noPublish })).status, 200);
  assert.equal((await diff.vellum.post('/api/articles', { data: { title: 'From Vellum' } })).status, 201);

  const archive = join(work, 'vellum.tar.gz');
  const project = await vellumProject();
  try {
    const summary = await exportArchive(project, archive, new Progress(null));
    assert.equal(summary.types.get('admin::role')?.written, 4);
  } finally {
    await project.close();
  }

  const before = await roles(admin('strapi'));
  const imported = await diff.offline((strapi) =>
    strapi.node(['node_modules/@strapi/strapi/bin/strapi.js', 'import', '--force', '-f', archive]),
  );
  console.log(`# strapi import:\n${imported.stdout}`);
  assert.equal(imported.code, 0, imported.stderr);
  assert.match(imported.stdout, /Import process has been completed successfully/);
  assert.doesNotMatch(imported.stdout, /admin::/, 'no administrator type among what Strapi imported');
  // Its administrator signs in as before; its roles are exactly as they were, permission ids included.
  await login('strapi');
  assert.deepEqual(await roles(admin('strapi')), before);
  assert.ok(!Object.values(before).some((r) => (r as { role: { name: string } }).role.name === 'Titles'));
  // The content came over: the same answers on both sides.
  await diff.same((api) => api.get('/api/articles?fields[0]=title&sort=title&status=draft'));
});

test('Strapi’s roles as its transfer engine writes them, imported by vellum import: the same roles and permissions', async () => {
  const folder = join(work, 'strapi-engine');
  const exported = await diff.offline((strapi) => strapi.node([ENGINE_EXPORT, folder]));
  assert.equal(exported.code, 0, exported.stderr);
  const archive = join(work, 'strapi-engine.tar.gz');
  await createTar({ gzip: true, file: archive, cwd: folder, portable: true }, await readdir(folder));
  const project = await vellumProject();
  try {
    const summary = await importArchive(project, archive, new Progress(null));
    console.log(`# vellum import:\n${summary.lines().join('\n')}`);
  } finally {
    await project.close();
  }
  const strapiRoles = (await admin('strapi').get('/admin/roles')).body.data as { code: string; name: string }[];
  const custom = strapiRoles.find((role) => role.name === 'Kept on Strapi')!;
  await diff.same(
    async (_api, side) => {
      const client = admin(side);
      const list = (await client.get('/admin/roles')).body.data as { id: number; code: string }[];
      const answers: Record<string, Response> = {};
      for (const code of ['strapi-editor', 'strapi-author', custom.code]) {
        const role = list.find((r) => r.code === code)!;
        answers[`${code} role`] = await client.get(`/admin/roles/${role.id}`);
        const permissions = await client.get(`/admin/roles/${role.id}/permissions`);
        const data = (permissions.body.data as Record<string, unknown>[])
          .map(({ id: _id, ...permission }) => permission)
          .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
        answers[`${code} permissions`] = { ...permissions, body: { data } };
      }
      return answers;
    },
    { messages: true },
  );
  // A role made by the import is Strapi's, its documentId and times too.
  const ours = ((await admin('vellum').get('/admin/roles')).body.data as Record<string, unknown>[]).find(
    (role) => role.code === custom.code,
  )!;
  const theirs = strapiRoles.find((role) => role.code === custom.code) as unknown as Record<string, unknown>;
  for (const key of ['documentId', 'name', 'description', 'createdAt', 'updatedAt', 'publishedAt'])
    assert.equal(ours[key], theirs[key], key);
  // Vellum's administrators are as they were: Strapi's are not imported.
  await login('vellum');
  const users = (await admin('vellum').get('/admin/users')).body.data.pagination.total;
  assert.equal(users, 1);
});
