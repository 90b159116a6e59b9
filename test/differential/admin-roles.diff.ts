/**
 * Administrator roles and permissions side by side with Strapi 5.54 (issue 34): the same requests
 * to `/admin/roles`, `/admin/roles/:id/permissions`, `/admin/users` (invitations, registration,
 * the last Super Admin) and `/admin/permissions`, with their refusals word for word. On demand:
 * `npm run test:strapi -- admin-roles`.
 *
 * Both start with one administrator (token.sh registers Strapi's; Vellum's is registered here with
 * the same details). Generated values differ and are not compared: a custom role's `code`, the
 * invitation's `registrationToken`, the JWTs.
 */
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { diffName, adminSessions, openDifferential, type Differential, type Side } from './harness.js';

const ARTICLE = 'api::article.article';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};

before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename) });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const admin = (side: Side) => sessions[side]!;
const run = Date.now().toString(36);

test('roles: listed, created, renamed, refused, deleted', async () => {
  await diff.same(
    async (_api, side) => {
      const client = admin(side);
      const answers: Record<string, Response> = {};
      answers.list = await client.get('/admin/roles');
      answers.created = await client.post('/admin/roles', { name: `Reviewer ${run}`, description: 'Reviews' });
      const id = answers.created.body.data.id as number;
      answers.taken = await client.post('/admin/roles', { name: `Reviewer ${run}` });
      answers.empty = await client.post('/admin/roles', {});
      answers.unknownKey = await client.post('/admin/roles', { name: `Other ${run}`, colour: 'red' });
      answers.renamed = await client.put(`/admin/roles/${id}`, { name: `Reviewers ${run}` });
      answers.superAdmin = await client.put('/admin/roles/1', { name: 'Boss' });
      answers.one = await client.get(`/admin/roles/${id}`);
      answers.missing = await client.get('/admin/roles/999999');
      answers.deleted = await client.delete(`/admin/roles/${id}`);
      answers.deleteSuper = await client.delete('/admin/roles/1');
      return answers;
    },
    { messages: true, ignoreKeys: ['code'] },
  );
});

test('a role’s permissions: set, read back, refused in Strapi’s words', async () => {
  await diff.same(
    async (_api, side) => {
      const client = admin(side);
      const answers: Record<string, Response> = {};
      const role = await client.post('/admin/roles', { name: `Writers ${run}` });
      const id = role.body.data.id as number;
      const read = {
        action: 'plugin::content-manager.explorer.read',
        subject: ARTICLE,
        properties: { fields: ['title', 'seo.metaTitle'], locales: ['en'] },
        conditions: ['admin::is-creator'],
      };
      answers.set = await client.put(`/admin/roles/${id}/permissions`, {
        permissions: [read, { action: 'plugin::upload.read', subject: null, properties: {}, conditions: [] }],
      });
      answers.read = await client.get(`/admin/roles/${id}/permissions`);
      answers.unknownAction = await client.put(`/admin/roles/${id}/permissions`, {
        permissions: [{ action: 'plugin::content-manager.explorer.fly', subject: ARTICLE }],
      });
      answers.badSubject = await client.put(`/admin/roles/${id}/permissions`, {
        permissions: [{ action: 'plugin::content-manager.explorer.read', subject: 'api::nothing.nothing' }],
      });
      answers.duplicated = await client.put(`/admin/roles/${id}/permissions`, { permissions: [read, read] });
      answers.superAdmin = await client.put('/admin/roles/1/permissions', { permissions: [] });
      answers.replaced = await client.put(`/admin/roles/${id}/permissions`, { permissions: [] });
      await client.delete(`/admin/roles/${id}`);
      return answers;
    },
    { messages: true, ignoreKeys: ['code'] },
  );
});

test('a permission naming no locales is stored with the default locale; null stays every locale', async () => {
  await diff.same(
    async (_api, side) => {
      const client = admin(side);
      const answers: Record<string, Response> = {};
      const role = await client.post('/admin/roles', { name: `Locales ${run}` });
      const id = role.body.data.id as number;
      const on = (action: string, properties: Record<string, unknown>) => ({
        action: `plugin::content-manager.explorer.${action}`,
        subject: ARTICLE,
        properties,
        conditions: [],
      });
      answers.set = await client.put(`/admin/roles/${id}/permissions`, {
        permissions: [on('read', {}), on('update', { locales: [] }), on('delete', { locales: null })],
      });
      answers.read = await client.get(`/admin/roles/${id}/permissions`);
      await client.delete(`/admin/roles/${id}`);
      return answers;
    },
    { messages: true, ignoreKeys: ['code'] },
  );
});

test('administrators: invited, registered, limited by their role; one Super Admin kept', async () => {
  await diff.same(
    async (api, side) => {
      const client = admin(side);
      const anonymous = new HttpClient(api.baseUrl);
      const answers: Record<string, Response> = {};
      const email = `invited-${run}@example.com`;
      answers.invited = await client.post('/admin/users', { email, firstname: 'Ivy', lastname: 'Invited', roles: [3] });
      const code = answers.invited.body.data.registrationToken as string;
      answers.again = await client.post('/admin/users', { email, firstname: 'Ivy', roles: [3] });
      answers.empty = await client.post('/admin/users', {});
      answers.info = await anonymous.get(`/admin/registration-info?registrationToken=${code}`);
      answers.badInfo = await anonymous.get('/admin/registration-info?registrationToken=nope');
      answers.weak = await anonymous.post('/admin/register', {
        registrationToken: code,
        userInfo: { firstname: 'Ivy', password: 'weak' },
      });
      answers.registered = await anonymous.post('/admin/register', {
        registrationToken: code,
        userInfo: { firstname: 'Ivy', lastname: 'Invited', password: 'Passw0rd-Ivy' },
      });
      const author = new HttpClient(api.baseUrl, { authorization: `Bearer ${answers.registered.body.data.token}` });
      const authorId = answers.registered.body.data.user.id as number;
      answers.authorMe = await author.get('/admin/users/me');
      answers.authorUsers = await author.get('/admin/users');
      answers.authorRoles = await author.get('/admin/roles');
      answers.me = await client.get('/admin/users/me');
      const selfId = answers.me.body.data.id as number;
      answers.demoteSelf = await client.put(`/admin/users/${selfId}`, { roles: [2] });
      answers.deleteSelf = await client.delete(`/admin/users/${selfId}`);
      answers.edited = await client.put(`/admin/users/${authorId}`, { roles: [2], firstname: 'Ivy-Ed' });
      answers.page = await client.get('/admin/users?pageSize=1&page=2&sort=email:asc');
      answers.removed = await client.delete(`/admin/users/${authorId}`);
      answers.gone = await client.get(`/admin/users/${authorId}`);
      return answers;
    },
    {
      messages: true,
      ignoreKeys: ['registrationToken', 'token', 'accessToken', 'code', 'createdAt', 'updatedAt', 'publishedAt'],
    },
  );
});
