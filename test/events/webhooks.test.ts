/**
 * Webhooks over HTTP with a real receiver: the admin API (Strapi's routes, bodies and answers), bad
 * input, every event kind with Strapi 5's payload, headers and signatures, retries, order per
 * document, a receiver that hangs, the delivery log, the trigger, and the CLI. Each test has its own
 * receiver and webhook, and looks only at what its own documents caused.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { AUTHOR_SCHEMA, copyProject, type TempProject } from '../helpers/projects.js';
import { Receiver, eventually, type Answer, type Received } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';
import { cliOutput } from '../helpers/cli.js';

const ENTRY_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
];
const MEDIA_EVENTS = ['media.create', 'media.update', 'media.delete'];
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** The events a receiver got about one document, in order. */
const about = (receiver: Receiver, documentId: string) =>
  receiver.delivered.filter((r) => r.body?.entry?.documentId === documentId);

for (const dialect of DIALECTS) {
  describe(`webhooks [${dialect}]`, () => {
    let project: TempProject;
    let server: TestServer;
    let admin: HttpClient;
    const receivers: Receiver[] = [];

    /** A receiver and a webhook of `events` calling it. */
    const hook = async (events: string[], extra: Record<string, unknown> = {}, answer?: Answer) => {
      const receiver = await Receiver.start(answer);
      receivers.push(receiver);
      const created = await admin.post('/admin/webhooks', {
        name: unique('hook'),
        url: receiver.url,
        headers: {},
        events,
        ...extra,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return { receiver, webhook: created.body.data };
    };

    before(async () => {
      project = copyProject();
      // A private and a password attribute on authors: never in a payload, at any level.
      project.editJson(AUTHOR_SCHEMA, (json) => {
        json.attributes.secretNote = { type: 'string', private: true };
        json.attributes.pin = { type: 'password' };
      });
      server = await startServer(dialect, {
        project: project.dir,
        config: {
          server: {
            webhooks: {
              pollInterval: 50,
              retryDelay: 50,
              maxRetryDelay: 200,
              maxAttempts: 3,
              timeout: 3000,
              defaultHeaders: { 'X-Default': 'from-config' },
            },
          },
        },
      });
      await server.vellum.auth.admins.create('hooks@example.com', 'an-admin-password');
      const login = await server.publicApi.post('/admin/login', {
        email: 'hooks@example.com',
        password: 'an-admin-password',
      });
      admin = new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` });
    });
    after(async () => {
      await server?.close();
      for (const receiver of receivers) await receiver.close();
      project?.remove();
    });

    it("the admin API creates, lists, reads, updates and deletes webhooks in Strapi's shape", async () => {
      const name = unique('crud');
      const created = await admin.post('/admin/webhooks', {
        name,
        url: 'https://example.com/hook',
        headers: { Authorization: 'Bearer x' },
        events: ['entry.create', 'media.delete'],
      });
      assert.equal(created.status, 201);
      const { id } = created.body.data;
      assert.equal(typeof id, 'string');
      assert.deepEqual(created.body.data, {
        id,
        name,
        url: 'https://example.com/hook',
        headers: { Authorization: 'Bearer x' },
        events: ['entry.create', 'media.delete'],
        isEnabled: true,
      });
      assert.ok((await admin.get('/admin/webhooks')).body.data.some((webhook: { id: string }) => webhook.id === id));
      assert.deepEqual((await admin.get(`/admin/webhooks/${id}`)).body.data, created.body.data);
      const updated = await admin.put(`/admin/webhooks/${id}`, { isEnabled: false, events: ['entry.publish'] });
      assert.equal(updated.status, 200);
      assert.deepEqual(updated.body.data, { ...created.body.data, isEnabled: false, events: ['entry.publish'] });
      const deleted = await admin.delete(`/admin/webhooks/${id}`);
      assert.deepEqual(deleted.body.data, updated.body.data);
      assert.equal((await admin.get(`/admin/webhooks/${id}`)).status, 404);
      assert.equal((await admin.put(`/admin/webhooks/${id}`, { name: 'x' })).status, 404);
      assert.equal((await admin.delete('/admin/webhooks/999999')).status, 404);
      // Only administrators.
      assert.equal((await server.api.get('/admin/webhooks')).status, 401);
      assert.equal((await server.publicApi.get('/admin/webhooks')).status, 401);
    });

    it('a URL that is not http(s), an unknown event, a missing name, an unknown key: a 400 naming each', async () => {
      const base = { name: unique('bad'), url: 'https://example.com/hook', headers: {}, events: ['entry.create'] };
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ ...base, url: 'ftp://example.com/hook' }, 'url', /http or https/],
        [{ ...base, url: 'not a url' }, 'url', /valid URL/],
        [{ ...base, url: 'javascript:alert(1)' }, 'url', /http or https/],
        [{ ...base, events: ['entry.create', 'entry.nope'] }, 'events', /Webhook event entry.nope is not supported/],
        [{ ...base, events: 'entry.create' }, 'events', /array/],
        [{ ...base, name: '' }, 'name', /required/],
        [{ ...base, headers: { 'X-A': 3 } }, 'headers', /non-empty text/],
        [{ ...base, isEnabled: 'yes' }, 'isEnabled', /boolean/],
        [{ ...base, colour: 'red' }, 'colour', /unspecified keys/],
      ];
      for (const [body, path, message] of cases) {
        const res = await admin.post('/admin/webhooks', body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.error.name, 'ValidationError');
        const error = res.body.error.details.errors.find((e: { path: string[] }) => e.path[0] === path);
        assert.ok(error, `${path} named for ${JSON.stringify(body)}: ${JSON.stringify(res.body.error)}`);
        assert.match(error.message, message);
      }
      const { webhook } = await hook(['entry.create']);
      assert.equal((await admin.put(`/admin/webhooks/${webhook.id}`, { url: 'file:///etc/passwd' })).status, 400);
      assert.equal((await admin.put(`/admin/webhooks/${webhook.id}`, { events: ['nope'] })).status, 400);
      assert.equal((await admin.post('/admin/webhooks', [])).status, 400);
    });

    it("every entry event, in order, with Strapi 5's payload: model, uid, the entry deep-populated, nothing private", async () => {
      const { receiver } = await hook(ENTRY_EVENTS);
      const author = (
        await server.api.post('/api/authors', {
          data: { name: unique('Ann'), secretNote: 'hidden', pin: 'a-secret-pin' },
        })
      ).body.data;
      const tag = (await server.api.post('/api/tags', { data: { name: unique('tag') } })).body.data;
      const title = unique('Payload');
      const draft = await server.api.post('/api/articles?status=draft', {
        data: {
          title,
          author: author.documentId,
          tags: [tag.documentId],
          seo: { metaTitle: 'Meta' },
          blocks: [{ __component: 'shared.quote', body: 'Quoted' }],
          links: [{ label: 'L', url: 'https://example.com' }],
        },
      });
      assert.equal(draft.status, 201, JSON.stringify(draft.body));
      const id = draft.body.data.documentId;
      await server.api.put(`/api/articles/${id}?status=draft`, { data: { views: 7 } });
      await server.api.post(`/api/articles/${id}/actions/publish`);
      await server.api.put(`/api/articles/${id}?status=draft`, { data: { views: 8 } });
      await server.api.post(`/api/articles/${id}/actions/discard-draft`);
      await server.api.post(`/api/articles/${id}/actions/unpublish`);
      await server.api.post(`/api/articles/${id}/actions/publish`);
      assert.equal((await server.api.delete(`/api/articles/${id}`)).status, 204);
      const expected = [
        'entry.create',
        'entry.update',
        'entry.publish',
        'entry.update',
        'entry.draft-discard',
        'entry.unpublish',
        'entry.publish',
        'entry.delete',
        'entry.delete',
      ];
      await receiver.until(() => about(receiver, id).length >= expected.length, "the article's events");
      const events = about(receiver, id);
      assert.deepEqual(
        events.map((r) => r.body.event),
        expected,
      );

      const created = events[0]!.body;
      assert.deepEqual(Object.keys(created), ['event', 'createdAt', 'model', 'uid', 'entry']);
      assert.equal(created.model, 'article');
      assert.equal(created.uid, 'api::article.article');
      assert.ok(!Number.isNaN(Date.parse(created.createdAt)));
      const entry = created.entry;
      assert.equal(entry.title, title);
      assert.equal(entry.publishedAt, null);
      assert.equal(entry.locale, 'en');
      assert.equal(typeof entry.id, 'number');
      // Deep populate: relations with their fields (nothing private), components and zones.
      assert.equal(entry.author.name, author.name);
      assert.ok(!('secretNote' in entry.author) && !('pin' in entry.author), JSON.stringify(entry.author));
      assert.deepEqual(
        entry.tags.map((t: { name: string }) => t.name),
        [tag.name],
      );
      assert.equal(entry.seo.metaTitle, 'Meta');
      assert.equal(entry.blocks[0].__component, 'shared.quote');
      assert.equal(entry.blocks[0].body, 'Quoted');
      assert.equal(entry.links[0].label, 'L');
      assert.equal(entry.category, null);

      assert.equal(events[1]!.body.entry.views, 7);
      const published = events[2]!.body.entry;
      assert.ok(published.publishedAt, 'the published version');
      assert.equal(published.author.name, author.name);
      assert.equal(events[4]!.body.entry.views, 7, 'discarding restores the published values');
      // A removed row as it was, without populate (as Strapi sends it).
      const unpublished = events[5]!.body.entry;
      assert.ok(unpublished.publishedAt);
      assert.ok(!('author' in unpublished));
      assert.deepEqual(
        new Set(events.slice(7).map((r) => r.body.entry.publishedAt === null)),
        new Set([true, false]),
        'the draft and the published version deleted',
      );

      // Authors (no draft and publish, no i18n): create and update, no `locale` (as Strapi), nothing private.
      const authorEvents = receiver.delivered.filter((r) => r.body.entry?.documentId === author.documentId);
      assert.deepEqual(
        authorEvents.map((r) => r.body.event),
        ['entry.create'],
      );
      assert.equal(authorEvents[0]!.body.model, 'author');
      assert.ok(!('locale' in authorEvents[0]!.body.entry));
      assert.ok(authorEvents[0]!.body.entry.publishedAt);
      assert.ok(!('secretNote' in authorEvents[0]!.body.entry) && !('pin' in authorEvents[0]!.body.entry));
      assert.ok(!receiver.requests.some((r) => r.raw.includes('a-secret-pin') || r.raw.includes('hidden')));
    });

    it('a published create sends entry.create of the draft then entry.publish; a publishing update entry.update then entry.publish', async () => {
      const { receiver } = await hook(['entry.create', 'entry.update', 'entry.publish']);
      const id = (await server.api.post('/api/articles', { data: { title: unique('Published') } })).body.data
        .documentId;
      await server.api.put(`/api/articles/${id}`, { data: { views: 3 } });
      // A new locale of the document: entry.create (Strapi's create of that locale's draft), then entry.publish.
      await server.api.put(`/api/articles/${id}?locale=fr`, { data: { title: unique('Publié') } });
      await receiver.until(() => about(receiver, id).length >= 6, 'six events');
      const events = about(receiver, id);
      assert.deepEqual(
        events.map((r) => r.body.event),
        ['entry.create', 'entry.publish', 'entry.update', 'entry.publish', 'entry.create', 'entry.publish'],
      );
      assert.deepEqual(
        events.map((r) => r.body.entry.publishedAt === null),
        [true, false, true, false, true, false],
      );
      assert.deepEqual(
        events.map((r) => r.body.entry.locale),
        ['en', 'en', 'en', 'en', 'fr', 'fr'],
      );
    });

    it('media events with { media }: upload, update, delete', async () => {
      const { receiver } = await hook(MEDIA_EVENTS);
      const form = new FormData();
      form.append('files', new Blob([PNG], { type: 'image/png' }), `${unique('pixel')}.png`);
      const uploaded = await fetch(`${server.url}/api/upload`, {
        method: 'POST',
        headers: server.authHeaders,
        body: form,
      });
      assert.equal(uploaded.status, 201);
      const file = ((await uploaded.json()) as { id: number; name: string }[])[0]!;
      const info = new FormData();
      info.append('fileInfo', JSON.stringify({ alternativeText: 'A pixel' }));
      assert.equal(
        (
          await fetch(`${server.url}/api/upload?id=${file.id}`, {
            method: 'POST',
            headers: server.authHeaders,
            body: info,
          })
        ).status,
        200,
      );
      assert.equal((await server.api.delete(`/api/upload/files/${file.id}`)).status, 200);
      const mine = () => receiver.delivered.filter((r) => r.body.media?.id === file.id);
      await receiver.until(() => mine().length >= 3, 'three media events');
      assert.deepEqual(
        mine().map((r) => r.body.event),
        MEDIA_EVENTS,
      );
      const [created, updated, deleted] = mine().map((r) => r.body);
      assert.deepEqual(Object.keys(created), ['event', 'createdAt', 'media']);
      assert.equal(created.media.name, file.name);
      assert.equal(created.media.mime, 'image/png');
      assert.ok(created.media.url);
      assert.equal(updated.media.alternativeText, 'A pixel');
      assert.equal(deleted.media.alternativeText, 'A pixel');
      // Files are no entries: no entry event for them.
      assert.ok(!receiver.requests.some((r) => r.body.event?.startsWith('entry.')));
    });

    it("sends Strapi's headers, the configured and the webhook's, a delivery id, and an HMAC signature receivers can check", async () => {
      const secret = 'a-long-shared-secret';
      const { receiver } = await hook(['entry.create'], {
        headers: { Authorization: 'Bearer receiver-token' },
        secret,
      });
      const unsigned = await hook(['entry.create']);
      const id = (await server.api.post('/api/tags', { data: { name: unique('signed') } })).body.data.documentId;
      await receiver.until(() => about(receiver, id).length === 1, 'the signed event');
      const [request] = about(receiver, id) as [Received];
      assert.equal(request.headers['x-strapi-event'], 'entry.create');
      assert.match(String(request.headers['content-type']), /application\/json/);
      assert.equal(request.headers['x-default'], 'from-config');
      assert.equal(request.headers.authorization, 'Bearer receiver-token');
      assert.match(String(request.headers['x-vellum-delivery']), /^\d+$/);
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['x-vellum-signature']));
      assert.ok(match, String(request.headers['x-vellum-signature']));
      const expected = createHmac('sha256', secret).update(`${match[1]}.${request.raw}`).digest('hex');
      assert.equal(match[2], expected, 'the signature covers the timestamp and the exact body');
      assert.ok(Math.abs(Number(match[1]) - Date.now() / 1000) < 300);
      await unsigned.receiver.until(() => about(unsigned.receiver, id).length === 1, 'the unsigned event');
      assert.equal(about(unsigned.receiver, id)[0]!.headers['x-vellum-signature'], undefined);
    });

    it('retries a receiver that fails first, with the log showing status, tries, last error and duration; gives up after maxAttempts', async () => {
      let failures = 2;
      const { receiver, webhook } = await hook(['entry.create'], {}, () => (failures-- > 0 ? 503 : 200));
      const id = (await server.api.post('/api/tags', { data: { name: unique('retried') } })).body.data.documentId;
      await receiver.until(() => about(receiver, id).length === 1, 'the delivery after two failures');
      assert.equal(receiver.requests.filter((r) => r.body.entry?.documentId === id).length, 3);
      const ids = new Set(receiver.requests.map((r) => r.headers['x-vellum-delivery']));
      assert.equal(ids.size, 1, 'every attempt carries the same delivery id');
      let log: any;
      await eventually(async () => {
        log = (await admin.get(`/admin/webhooks/${webhook.id}/deliveries`)).body;
        return log.data[0]?.state === 'delivered';
      }, 'the log to show the delivery');
      const [entry] = log.data;
      assert.equal(entry.event, 'entry.create');
      assert.equal(entry.key, `api::tag.tag:${id}`);
      assert.equal(entry.attempts, 3);
      assert.equal(entry.statusCode, 200);
      assert.equal(entry.lastError, null);
      assert.equal(typeof entry.duration, 'number');
      assert.deepEqual(log.meta.pagination, { page: 1, pageSize: 25, pageCount: 1, total: 1 });

      const down = await hook(['entry.create'], {}, () => 500);
      const lost = (await server.api.post('/api/tags', { data: { name: unique('lost') } })).body.data.documentId;
      await eventually(
        async () =>
          (await admin.get(`/admin/webhooks/${down.webhook.id}/deliveries?state=failed`)).body.data.length === 1,
        'the delivery to be given up',
      );
      const [failed] = (await admin.get(`/admin/webhooks/${down.webhook.id}/deliveries?state=failed`)).body.data;
      assert.equal(failed.attempts, 3);
      assert.equal(failed.statusCode, 500);
      assert.match(failed.lastError, /refused/);
      assert.equal(down.receiver.requests.filter((r) => r.body.entry?.documentId === lost).length, 3);
      assert.equal((await admin.get(`/admin/webhooks/${down.webhook.id}/deliveries?state=bogus`)).status, 400);
    });

    it("delivers a document's events in commit order, one at a time, whatever fails first", async () => {
      let calls = 0;
      // Every other attempt fails: each event is retried, and none overtakes an earlier one.
      const { receiver } = await hook(['entry.update'], {}, () => (calls++ % 2 === 0 ? 500 : 200));
      const id = (await server.api.post('/api/tags', { data: { name: unique('ordered') } })).body.data.documentId;
      for (let i = 1; i <= 6; i++)
        assert.equal((await server.api.put(`/api/tags/${id}`, { data: { name: `${id} v${i}` } })).status, 200);
      await receiver.until(() => about(receiver, id).length === 6, 'six updates');
      assert.deepEqual(
        about(receiver, id).map((r) => r.body.entry.name),
        [1, 2, 3, 4, 5, 6].map((i) => `${id} v${i}`),
      );
    });

    it('a receiver that does not answer does not hold writes back', async () => {
      const { receiver } = await hook(['entry.create'], {}, () => 'hold');
      const names = [1, 2, 3, 4, 5].map(() => unique('held'));
      // Every write is answered while the receiver holds every request it got.
      for (const name of names) assert.equal((await server.api.post('/api/tags', { data: { name } })).status, 201);
      await receiver.until((r) => r.requests.length >= 1, 'a held request');
      assert.equal(receiver.delivered.length, 0);
      receiver.release();
    });

    it('only enabled webhooks, and only for the events they name', async () => {
      const publishOnly = await hook(['entry.publish']);
      const disabled = await hook(['entry.create'], { isEnabled: false });
      const id = (await server.api.post('/api/articles', { data: { title: unique('Filtered') } })).body.data.documentId;
      await publishOnly.receiver.until(() => about(publishOnly.receiver, id).length === 1, 'the publish event');
      // Re-enabled: later events arrive; the one before did not.
      assert.equal((await admin.put(`/admin/webhooks/${disabled.webhook.id}`, { isEnabled: true })).status, 200);
      await server.api.put(`/api/articles/${id}?locale=fr`, { data: { title: unique('Filtré') } });
      await disabled.receiver.until(() => about(disabled.receiver, id).length === 1, 'the event after enabling');
      assert.equal(about(disabled.receiver, id)[0]!.body.entry.locale, 'fr');
      await publishOnly.receiver.until(() => about(publishOnly.receiver, id).length === 2, 'the publish of fr');
      assert.deepEqual(
        about(publishOnly.receiver, id).map((r) => [r.body.event, r.body.entry.locale]),
        [
          ['entry.publish', 'en'],
          ['entry.publish', 'fr'],
        ],
      );
      assert.deepEqual(
        about(disabled.receiver, id).map((r) => r.body.event),
        ['entry.create'],
      );
    });

    it('the trigger calls the webhook now with trigger-test and answers its status', async () => {
      const { receiver, webhook } = await hook(['entry.create']);
      const res = await admin.post(`/admin/webhooks/${webhook.id}/trigger`);
      assert.deepEqual(res.body, { data: { statusCode: 200 } });
      const test = receiver.requests.find((r) => r.body.event === 'trigger-test');
      assert.ok(test);
      assert.equal(test.headers['x-strapi-event'], 'trigger-test');
      const refused = await hook(['entry.create'], {}, () => 418);
      const answer = (await admin.post(`/admin/webhooks/${refused.webhook.id}/trigger`)).body.data;
      assert.equal(answer.statusCode, 418);
      assert.match(answer.message, /refused/);
      // Nothing listening: Strapi's 500 with the error's message.
      const closed = await Receiver.start();
      await closed.close();
      const gone = (
        await admin.post('/admin/webhooks', { name: unique('gone'), url: closed.url, headers: {}, events: [] })
      ).body.data;
      const failed = (await admin.post(`/admin/webhooks/${gone.id}/trigger`)).body.data;
      assert.equal(failed.statusCode, 500);
      assert.ok(failed.message);
    });

    it('redirects are not followed (nothing reaches the other origin) and the log keeps a short excerpt of an answer', async () => {
      const elsewhere = await Receiver.start();
      receivers.push(elsewhere);
      const redirecting = createServer((request, response) => {
        request.resume();
        response.writeHead(307, { location: `${elsewhere.url}/stolen` }).end();
      });
      await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hook`;
        const webhook = (
          await admin.post('/admin/webhooks', {
            name: unique('redirect'),
            url,
            headers: { Authorization: 'Bearer receiver-secret' },
            events: ['entry.create'],
            secret: 'signing-secret',
          })
        ).body.data;
        const tried = (await admin.post(`/admin/webhooks/${webhook.id}/trigger`)).body.data;
        assert.equal(tried.statusCode, 307);
        assert.match(tried.message, /not followed/);
        await server.api.post('/api/tags', { data: { name: unique('redirected') } });
        await eventually(
          async () => (await admin.get(`/admin/webhooks/${webhook.id}/deliveries`)).body.data[0]?.attempts >= 1,
          'an attempt',
        );
        assert.equal(elsewhere.requests.length, 0, 'nothing reached the redirect target');
      } finally {
        await new Promise((resolve) => redirecting.close(resolve));
      }
      const talkative = createServer((request, response) => {
        request.resume();
        response.writeHead(500, { 'content-type': 'text/html' }).end(`<html>${'internal page '.repeat(500)}</html>`);
      });
      await new Promise<void>((resolve) => talkative.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(talkative.address() as AddressInfo).port}/hook`;
        const webhook = (
          await admin.post('/admin/webhooks', { name: unique('talkative'), url, headers: {}, events: [] })
        ).body.data;
        const answer = (await admin.post(`/admin/webhooks/${webhook.id}/trigger`)).body.data;
        assert.equal(answer.statusCode, 500);
        assert.ok(answer.message.startsWith('<html>internal page') && answer.message.length <= 200, answer.message);
      } finally {
        await new Promise((resolve) => talkative.close(resolve));
      }
    });

    it("with allowPrivateAddresses false (production's default), targets on loopback or private addresses are refused, at creation and at each attempt", async () => {
      const strict = await startServer(dialect, {
        nodeOf: server,
        project: project.dir,
        config: {
          server: { webhooks: { allowPrivateAddresses: false, pollInterval: 50, retryDelay: 50, maxAttempts: 1 } },
        },
      });
      try {
        const login = await strict.publicApi.post('/admin/login', {
          email: 'hooks@example.com',
          password: 'an-admin-password',
        });
        const strictAdmin = new HttpClient(strict.url, { authorization: `Bearer ${login.body.data.token}` });
        for (const url of [
          'http://127.0.0.1:9/x',
          'http://localhost/x',
          'http://[::1]/x',
          'http://10.1.2.3/x',
          'http://169.254.169.254/latest',
          'http://192.168.0.1/',
          'http://[::ffff:127.0.0.1]/',
        ]) {
          const res = await strictAdmin.post('/admin/webhooks', {
            name: unique('private'),
            url,
            headers: {},
            events: ['entry.create'],
          });
          assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
          assert.match(JSON.stringify(res.body.error), /isn't reachable over the public internet/, url);
        }
        const open = await strictAdmin.post('/admin/webhooks', {
          name: unique('public'),
          url: 'http://93.184.216.34/hook',
          headers: {},
          events: [],
        });
        assert.equal(open.status, 201, JSON.stringify(open.body));
        // One stored before the setting (here: made on the other node, whose setting allows it): never called.
        const receiver = await Receiver.start();
        receivers.push(receiver);
        const stored = (
          await admin.post('/admin/webhooks', {
            name: unique('stored'),
            url: receiver.url,
            headers: {},
            events: ['entry.create'],
          })
        ).body.data;
        const tried = (await strictAdmin.post(`/admin/webhooks/${stored.id}/trigger`)).body.data;
        assert.match(tried.message, /isn't reachable over the public internet/);
        assert.equal(receiver.requests.length, 0);
        await strictAdmin.delete(`/admin/webhooks/${stored.id}`);
        await strictAdmin.delete(`/admin/webhooks/${open.body.data.id}`);
      } finally {
        await strict.close();
      }
    });

    it("the CLI creates, lists and deletes webhooks on the project's database", async () => {
      const receiver = await Receiver.start();
      receivers.push(receiver);
      rmSync(join(project.dir, 'config/database.js'), { force: true });
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
      const vellum = (...args: string[]) => cliOutput([...args, '--project', project.dir]);
      const name = unique('cli');
      const out = await vellum(
        'webhook',
        'create',
        '--name',
        name,
        '--url',
        receiver.url,
        '--events',
        'entry.create,entry.delete',
        '--header',
        'X-Token: abc',
        '--secret',
        'cli-secret',
      );
      const id = /id (\d+)/.exec(out)?.[1];
      assert.ok(id, out);
      const listed = JSON.parse(await vellum('webhook', 'list')).find((webhook: { id: string }) => webhook.id === id);
      assert.deepEqual(listed, {
        id,
        name,
        url: receiver.url,
        headers: { 'X-Token': 'abc' },
        events: ['entry.create', 'entry.delete'],
        isEnabled: true,
      });
      // The running node delivers to it: the webhook is in the database.
      const tag = (await server.api.post('/api/tags', { data: { name: unique('via-cli') } })).body.data.documentId;
      await receiver.until(() => about(receiver, tag).length === 1, "delivery to the CLI's webhook");
      assert.ok(about(receiver, tag)[0]!.headers['x-vellum-signature']);
      await assert.rejects(
        vellum('webhook', 'create', '--name', 'x', '--url', 'ftp://nope', '--events', 'entry.nope'),
        /http or https[\s\S]*not supported/,
      );
      assert.match(await vellum('webhook', 'delete', id), new RegExp(name));
      assert.equal((await admin.get(`/admin/webhooks/${id}`)).status, 404);
    });
  });
}
