/**
 * Scheduled publishing: `?at=<ISO date>` on the publish and unpublish actions stores the action,
 * the admin API lists and cancels it, one node carries it out when due (through the document
 * service: the usual webhook events fire), and bad input is a 400 naming `at`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { Receiver, eventually } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const soon = (ms = 600) => new Date(Date.now() + ms).toISOString();

for (const dialect of DIALECTS) {
  describe(`scheduled publishing [${dialect}]`, () => {
    let server: TestServer;
    let admin: HttpClient;
    let receiver: Receiver;

    before(async () => {
      server = await startServer(dialect, {
        config: { server: { webhooks: { pollInterval: 50 }, cron: { scheduleInterval: 100 } } },
      });
      await server.vellum.auth.admins.create('planner@example.com', 'an-admin-password');
      const login = await server.publicApi.post('/admin/login', {
        email: 'planner@example.com',
        password: 'an-admin-password',
      });
      admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
      receiver = await Receiver.start();
      await server.vellum.webhooks.create({
        name: unique('schedules'),
        url: receiver.url,
        events: ['entry.publish', 'entry.unpublish'],
      });
    });
    after(async () => {
      await server?.close();
      await receiver?.close();
    });

    const draft = async () =>
      (await server.api.post('/api/articles?status=draft', { data: { title: unique('Later') } })).body.data
        .documentId as string;
    const published = async (documentId: string) =>
      (await server.api.get(`/api/articles/${documentId}`)).status === 200;
    const action = async (id: number) => (await admin.get(`/admin/scheduled-actions/${id}`)).body.data;

    it('publishes a draft at the time given, once, firing entry.publish; the action is listed until then', async () => {
      const documentId = await draft();
      const at = soon(800);
      const res = await server.api.post(`/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(at)}`);
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const scheduled = res.body.data;
      assert.deepEqual(
        { ...scheduled, id: 0, createdAt: null },
        {
          id: 0,
          action: 'publish',
          uid: 'api::article.article',
          documentId,
          locale: 'en',
          scheduledAt: at,
          state: 'pending',
          attempts: 0,
          lastError: null,
          createdAt: null,
          doneAt: null,
        },
      );
      assert.equal(await published(documentId), false, 'not published yet');
      const listed = (await admin.get(`/admin/scheduled-actions?documentId=${documentId}`)).body.data;
      assert.deepEqual(
        listed.map((item: { id: number }) => item.id),
        [scheduled.id],
      );
      await eventually(() => published(documentId), 'the scheduled publication');
      await eventually(async () => (await action(scheduled.id)).state === 'done', 'the action to be marked done');
      const done = await action(scheduled.id);
      assert.equal(done.attempts, 1);
      assert.ok(Date.parse(done.doneAt) >= Date.parse(at));
      await receiver.until(
        () =>
          receiver.delivered.some((r) => r.body.event === 'entry.publish' && r.body.entry.documentId === documentId),
        'entry.publish',
      );
      assert.equal(receiver.delivered.filter((r) => r.body.entry.documentId === documentId).length, 1);
    });

    it('unpublishes at the time given, in the locale named', async () => {
      const documentId = (await server.api.post('/api/articles', { data: { title: unique('Ends') } })).body.data
        .documentId;
      await server.api.put(`/api/articles/${documentId}?locale=fr`, { data: { title: unique('Finit') } });
      const res = await server.api.post(
        `/api/articles/${documentId}/actions/unpublish?locale=fr&at=${encodeURIComponent(soon())}`,
      );
      assert.equal(res.status, 202);
      assert.equal(res.body.data.locale, 'fr');
      await eventually(
        async () => (await server.api.get(`/api/articles/${documentId}?locale=fr`)).status === 404,
        'the fr version unpublished',
      );
      assert.equal(await published(documentId), true, 'en stays published');
      await receiver.until(
        () =>
          receiver.delivered.some((r) => r.body.event === 'entry.unpublish' && r.body.entry.documentId === documentId),
        'entry.unpublish',
      );
    });

    it('cancels a pending action; a cancelled or finished one is a 400, an unknown one a 404', async () => {
      const documentId = await draft();
      const scheduled = (
        await server.api.post(`/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(soon(3_600_000))}`)
      ).body.data;
      const cancelled = await admin.delete(`/admin/scheduled-actions/${scheduled.id}`);
      assert.equal(cancelled.status, 200);
      assert.equal(cancelled.body.data.state, 'cancelled');
      assert.equal((await admin.delete(`/admin/scheduled-actions/${scheduled.id}`)).status, 400);
      assert.equal((await admin.delete('/admin/scheduled-actions/99999999')).status, 404);
      assert.equal((await admin.get('/admin/scheduled-actions/abc')).status, 404);
      assert.ok(
        (await admin.get('/admin/scheduled-actions?state=cancelled')).body.data.some(
          (item: { id: number }) => item.id === scheduled.id,
        ),
      );
      assert.equal((await admin.get('/admin/scheduled-actions?state=nope')).status, 400);
      assert.equal((await server.api.get('/admin/scheduled-actions')).status, 401);
    });

    it('a time in the past or not a date, discard-draft, a type without draft and publish: 400; an unknown document: 404; no grant: 403', async () => {
      const documentId = await draft();
      for (const at of [
        new Date(Date.now() - 60_000).toISOString(),
        'tomorrow',
        '2030-01-01',
        '2030-02-31T10:00:00Z',
      ]) {
        const res = await server.api.post(`/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(at)}`);
        assert.equal(res.status, 400, at);
        assert.equal(res.body.error.details.param, 'at', at);
      }
      assert.match(
        (
          await server.api.post(
            `/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(new Date(Date.now() - 1000).toISOString())}`,
          )
        ).body.error.message,
        /past/,
      );
      assert.equal(
        (await server.api.post(`/api/articles/${documentId}/actions/discard-draft?at=${encodeURIComponent(soon())}`))
          .status,
        400,
      );
      assert.equal(
        (await server.api.post(`/api/articles/nope/actions/publish?at=${encodeURIComponent(soon())}`)).status,
        404,
      );
      assert.equal(
        (
          await server.api.post(
            `/api/articles/${documentId}/actions/publish?locale=xx&at=${encodeURIComponent(soon())}`,
          )
        ).status,
        400,
      );
      const author = (await server.api.post('/api/authors', { data: { name: unique('Sam') } })).body.data.documentId;
      assert.equal(
        (await server.api.post(`/api/authors/${author}/actions/publish?at=${encodeURIComponent(soon())}`)).status,
        400,
      );
      assert.equal(
        (await server.publicApi.post(`/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(soon())}`))
          .status,
        403,
      );
      assert.deepEqual(
        (await admin.get(`/admin/scheduled-actions?documentId=${documentId}`)).body.data,
        [],
        'nothing was stored',
      );
    });

    it('an action that cannot be carried out is marked failed with its error', async () => {
      const documentId = await draft();
      const scheduled = (
        await server.api.post(`/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(soon())}`)
      ).body.data;
      assert.equal((await server.api.delete(`/api/articles/${documentId}`)).status, 204);
      await eventually(async () => (await action(scheduled.id)).state === 'failed', 'the action to fail');
      assert.match((await action(scheduled.id)).lastError, /No draft|No article/);
    });
  });
}
