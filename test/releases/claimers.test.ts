/**
 * Releases published once with two claimers on one database: two nodes on PostgreSQL and MariaDB
 * (`startServer(dialect, { nodeOf })`, each its own pool and scheduler), one node on SQLite (which
 * serves one), each asked to publish the same release at the same moment: one publishes, the other
 * is answered "Release already published", each entry is published once (one `entry.publish`
 * each) and one `releases.publish` goes out. And the scheduled actions of earlier Vellums, moved
 * into one-entry releases by both nodes at once: each row moved once, each answered by
 * `/admin/scheduled-actions` as it was, the pending one published at its time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { registerFirstAdmin } from '../helpers/admins.js';
import { createRelease } from '../helpers/releases.js';
import { Receiver, eventually } from '../helpers/receiver.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const FAST = { server: { webhooks: { pollInterval: 50, timeout: 3000 }, cron: { scheduleInterval: 100 } } };
const CM = '/content-manager/collection-types';

for (const dialect of DIALECTS) {
  describe(`releases with two claimers [${dialect}]`, () => {
    let nodes: TestServer[];
    let admins: HttpClient[];
    let receiver: Receiver;

    before(async () => {
      const first = await startServer(dialect, { project: fixture('releases'), config: FAST });
      nodes =
        dialect === 'sqlite'
          ? [first, first]
          : [first, await startServer(dialect, { project: fixture('releases'), nodeOf: first, config: FAST })];
      const { token } = await registerFirstAdmin(first);
      admins = nodes.map((node) => new HttpClient(node.url, { authorization: `Bearer ${token}` }));
      receiver = await Receiver.start();
      await first.vellum.webhooks.create({
        name: unique('claimers'),
        url: receiver.url,
        events: ['releases.publish', 'entry.publish'],
      });
    });
    after(async () => {
      for (const node of [...new Set(nodes ?? [])].reverse()) await node.close();
      await receiver?.close();
    });

    const draft = async (client: HttpClient, path: string, body: unknown): Promise<string> => {
      const answer = await client.post(path, body);
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.data.documentId as string;
    };

    it('publishes a release once when two nodes are asked at the same moment', async () => {
      const [a, b] = admins as [HttpClient, HttpClient];
      const post = await draft(a, `${CM}/api::post.post?locale=en`, { title: unique('Both') });
      const page = await draft(b, `${CM}/api::page.page`, { heading: unique('Both') });
      const release = await createRelease(a, { name: unique('Race') });
      for (const body of [
        { contentType: 'api::post.post', entryDocumentId: post, locale: 'en', type: 'publish' },
        { contentType: 'api::page.page', entryDocumentId: page, type: 'publish' },
      ])
        assert.equal((await b.post(`/content-releases/${release.id}/actions`, body)).status, 201);
      const answers = await Promise.all([
        a.post(`/content-releases/${release.id}/publish`),
        b.post(`/content-releases/${release.id}/publish`),
      ]);
      assert.deepEqual(
        answers.map((answer) => answer.status).sort(),
        [200, 400],
        JSON.stringify(answers.map((answer) => answer.body)),
      );
      const refused = answers.find((answer) => answer.status === 400)!;
      assert.equal(refused.body.error.message, 'Release already published');
      // What the outbox holds once both calls have answered: the events of the one publication.
      const recorded = await nodes[0]!.vellum.database.system
        .selectFrom('vellum_webhook_events')
        .select(['event', 'body'])
        .where('event', 'in', ['releases.publish', 'entry.publish'])
        .execute();
      const bodies = recorded.map((row) => JSON.parse(row.body) as Record<string, any>);
      const releases = bodies.filter((body) => body.event === 'releases.publish' && body.release?.id === release.id);
      const entries = bodies.filter(
        (body) => body.event === 'entry.publish' && [post, page].includes(body.entry?.documentId),
      );
      assert.equal(releases.length, 1, 'one releases.publish');
      assert.equal(releases[0]!.isPublished, true);
      assert.equal(entries.length, 2, 'each entry published once');
      await receiver.until(
        () => receiver.delivered.some((request) => request.body.release?.id === release.id),
        'releases.publish delivered',
      );
    });

    it('moves the scheduled actions of earlier Vellums into one-entry releases once, keeping their state', async () => {
      const [a] = admins as [HttpClient, HttpClient];
      const pending = await draft(a, `${CM}/api::page.page`, { heading: unique('Legacy') });
      const now = Date.now();
      const row = (state: 'pending' | 'done' | 'failed' | 'cancelled', extra: Record<string, unknown> = {}) => ({
        action: 'publish' as const,
        uid: 'api::page.page',
        document_id: pending,
        locale: null,
        scheduled_at: now + 300,
        state,
        next_at: now + 300,
        attempts: 0,
        last_error: null,
        created_at: now - 1000,
        done_at: null,
        ...extra,
      });
      const legacy = nodes[0]!.vellum.database.system;
      await legacy
        .insertInto('vellum_scheduled_actions')
        .values([
          row('pending'),
          row('done', { scheduled_at: now - 500, done_at: now - 400, attempts: 1 }),
          row('failed', { scheduled_at: now - 500, done_at: now - 400, attempts: 1, last_error: 'No draft of page x' }),
          row('cancelled', { scheduled_at: now + 3_600_000, done_at: now - 100 }),
        ])
        .execute();
      const moved = await Promise.all([
        nodes[0]!.vellum.events.schedules.migrate(),
        nodes[1]!.vellum.events.schedules.migrate(),
      ]);
      assert.equal(moved[0] + moved[1], 4, 'each row moved once');
      const left = await legacy.selectFrom('vellum_scheduled_actions').select('id').execute();
      assert.deepEqual(left, []);
      const listed = (await a.get(`/admin/scheduled-actions?documentId=${pending}`)).body.data as Record<
        string,
        unknown
      >[];
      assert.deepEqual(listed.map((item) => [item.state, item.lastError, item.uid, item.documentId]).sort(), [
        ['cancelled', null, 'api::page.page', pending],
        ['done', null, 'api::page.page', pending],
        ['failed', 'No draft of page x', 'api::page.page', pending],
        ['pending', null, 'api::page.page', pending],
      ]);
      const next = listed.find((item) => item.state === 'pending')!;
      await eventually(
        async () => (await a.get(`/admin/scheduled-actions/${next.id}`)).body.data.state === 'done',
        'the moved action carried out',
      );
      assert.equal((await nodes[1]!.api.get(`/api/pages/${pending}`)).status, 200);
    });
  });
}
