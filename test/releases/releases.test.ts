/**
 * Releases (docs/releases.md) over HTTP on every dialect, at Strapi 5.54's paths and in its shapes
 * (`/content-releases`), on a project of a localized type (posts, title required), another type
 * (pages, heading required) and a type without draft and publish (notes): releases created,
 * listed, edited and deleted; actions added (validity and its reason from the publish rules),
 * changed and removed; publishing all or nothing, once (two concurrent calls: one publishes, one
 * `releases.publish` event); a scheduled release published by the leased job; the permissions
 * Strapi's routes require; and a seeded random sequence of all of it checked against a model.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ok, type HttpClient } from '../helpers/http.js';
import { createRole, emailOf, inviteAdmin, permission, registerFirstAdmin } from '../helpers/admins.js';
import { entriesOf } from '../helpers/audit.js';
import { createRelease, releaseFixture } from '../helpers/releases.js';
import { Receiver, eventually } from '../helpers/receiver.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const CM = '/content-manager/collection-types';
const POST = 'api::post.post';
const PAGE = 'api::page.page';
const R = '/content-releases';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOCUMENT_ID = /^[a-z0-9]{24}$/;

type Item = Record<string, any>;

/** A random generator with a seed (mulberry32): a failing sequence is replayed from its seed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const dialect of DIALECTS) {
  describe(`releases [${dialect}]`, () => {
    let server: TestServer;
    let root: HttpClient;
    let receiver: Receiver;

    before(async () => {
      server = await startServer(dialect, {
        project: fixture('releases'),
        config: { server: { webhooks: { pollInterval: 50 }, cron: { scheduleInterval: 100 } } },
      });
      root = (await registerFirstAdmin(server)).client;
      receiver = await Receiver.start();
      await server.vellum.webhooks.create({
        name: unique('releases'),
        url: receiver.url,
        events: ['releases.publish'],
      });
    });
    after(async () => {
      await server?.close();
      await receiver?.close();
    });

    const { post, page } = releaseFixture(() => root, 'Release');
    const isPublished = async (uid: string, documentId: string, locale?: string): Promise<boolean> => {
      const path = uid === POST ? `/api/posts/${documentId}?locale=${locale}` : `/api/pages/${documentId}`;
      const answer = await server.api.get(path);
      assert.ok(answer.status === 200 || answer.status === 404, JSON.stringify(answer.body));
      return answer.status === 200;
    };
    const release = (name = unique('Release'), schedule: { scheduledAt?: string; timezone?: string } = {}) =>
      createRelease(root, { name, ...schedule });
    const add = (id: number, body: Item) => root.post(`${R}/${id}/actions`, body);
    const events = (id: number) =>
      receiver.requests.filter((request) => request.body?.release?.id === id || request.body?.releaseId === id);

    it('creates, lists by tab, reads, renames and deletes releases in Strapi’s shapes', async () => {
      const name = unique('Spring');
      const created = await release(name);
      assert.deepEqual(
        { ...created, id: 0, documentId: '', createdAt: '', updatedAt: '' },
        {
          id: 0,
          documentId: '',
          name,
          releasedAt: null,
          scheduledAt: null,
          timezone: null,
          status: 'empty',
          createdAt: '',
          updatedAt: '',
          publishedAt: null,
          locale: null,
          failureReason: null,
        },
      );
      assert.match(created.documentId, DOCUMENT_ID);
      assert.match(created.createdAt, ISO);
      const read = (await ok(root.get(`${R}/${created.id}`))).data;
      assert.deepEqual(read.actions, { meta: { count: 0 } });
      assert.equal(read.createdBy.email, 'root@example.com');
      const pending = await ok(root.get(`${R}?page=1&pageSize=100&filters[releasedAt][$notNull]=false`));
      assert.ok(pending.data.some((item: Item) => item.id === created.id && item.actions.meta.count === 0));
      assert.equal(pending.meta.pendingReleasesCount, pending.meta.pagination.total);
      assert.deepEqual(Object.keys(pending.meta.pagination), ['page', 'pageSize', 'pageCount', 'total']);
      const done = await ok(root.get(`${R}?filters[releasedAt][$notNull]=true`));
      assert.ok(!done.data.some((item: Item) => item.id === created.id));

      // Strapi's refusals: a name taken by a pending release, no name, a date without zone, a past date.
      const taken = await root.post(R, { name });
      assert.equal(taken.status, 400);
      assert.equal(taken.body.error.message, `Release with name ${name} already exists`);
      const nameless = await root.post(R, { name: '  ' });
      assert.equal(nameless.status, 400);
      assert.deepEqual(nameless.body.error.details.errors[0].path, ['name']);
      assert.equal(nameless.body.error.message, 'name is a required field');
      const zoneless = await root.post(R, {
        name: unique('Z'),
        scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      assert.equal(zoneless.body.error.message, 'timezone is a required field');
      const past = await root.post(R, {
        name: unique('P'),
        scheduledAt: '2001-01-01T00:00:00.000Z',
        timezone: 'Europe/Paris',
      });
      assert.equal(past.status, 400);
      assert.equal(past.body.error.message, 'Scheduled at must be later than now');
      const badZone = await root.post(R, {
        name: unique('B'),
        scheduledAt: '2099-01-01T00:00:00.000Z',
        timezone: 'Mars/Olympus',
      });
      assert.equal(badZone.status, 400);
      const extra = await root.post(R, { name: unique('E'), colour: 'red' });
      assert.equal(extra.status, 400);

      const later = new Date(Date.now() + 86_400_000).toISOString();
      const renamed = (
        await ok(root.put(`${R}/${created.id}`, { name: `${name}!`, scheduledAt: later, timezone: 'Asia/Tokyo' }))
      ).data;
      assert.equal(renamed.name, `${name}!`);
      assert.equal(renamed.scheduledAt, later);
      assert.equal(renamed.timezone, 'Asia/Tokyo');
      const unscheduled = (await ok(root.put(`${R}/${created.id}`, { name: `${name}!` }))).data;
      assert.equal(unscheduled.scheduledAt, null);
      assert.equal(unscheduled.timezone, null);
      assert.equal((await ok(root.delete(`${R}/${created.id}`))).data.id, created.id);
      const gone = await root.get(`${R}/${created.id}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.message, `No release found for id ${created.id}`);
      assert.equal((await root.get(`${R}/nope`)).status, 404);
    });

    it('adds actions with their validity and its reason, and refuses what Strapi refuses', async () => {
      const valid = await post('Valid');
      const invalid = await post(null);
      const target = await release();
      const added = await ok(
        add(target.id, { contentType: POST, entryDocumentId: valid, locale: 'en', type: 'publish' }),
        201,
      );
      assert.deepEqual(
        { ...added.data, id: 0, documentId: '', createdAt: '', updatedAt: '' },
        {
          id: 0,
          documentId: '',
          type: 'publish',
          contentType: POST,
          entryDocumentId: valid,
          locale: 'en',
          isEntryValid: true,
          createdAt: '',
          updatedAt: '',
          publishedAt: null,
          release: { id: target.id },
        },
      );
      assert.equal((await ok(root.get(`${R}/${target.id}`))).data.status, 'ready');
      const again = await add(target.id, {
        contentType: POST,
        entryDocumentId: valid,
        locale: 'en',
        type: 'unpublish',
      });
      assert.equal(again.status, 400);
      assert.equal(again.body.error.name, 'AlreadyOnReleaseError');
      const bad = await ok(
        add(target.id, { contentType: POST, entryDocumentId: invalid, locale: 'en', type: 'publish' }),
        201,
      );
      assert.equal(bad.data.isEntryValid, false);
      assert.equal((await ok(root.get(`${R}/${target.id}`))).data.status, 'blocked');
      const listed = await ok(root.get(`${R}/${target.id}/actions?page=1&pageSize=10&groupBy=contentType`));
      assert.deepEqual(Object.keys(listed.data), ['Post']);
      const shown = listed.data.Post.find((action: Item) => action.entryDocumentId === invalid);
      assert.deepEqual(shown.contentType, { displayName: 'Post', mainFieldValue: null, uid: POST });
      assert.deepEqual(shown.locale, { name: 'English (en)', code: 'en' });
      assert.equal(shown.status, 'draft');
      assert.deepEqual(
        shown.problem.errors.map((error: Item) => error.path),
        [['title']],
      );
      assert.equal(listed.meta.pagination.total, 2);
      assert.equal(listed.meta.contentTypes[POST].kind, 'collectionType');
      // The entry fixed: the next read says so.
      await ok(root.put(`${CM}/${POST}/${invalid}?locale=en`, { title: 'Fixed' }));
      const fixed = await ok(root.get(`${R}/${target.id}/actions`));
      assert.ok(fixed.data.Post.every((action: Item) => action.isEntryValid && action.problem === null));
      assert.equal((await ok(root.get(`${R}/${target.id}`))).data.status, 'ready');

      const note = await root.post(`${R}/${target.id}/actions`, {
        contentType: 'api::note.note',
        entryDocumentId: 'x',
        type: 'publish',
      });
      assert.equal(note.status, 400);
      assert.equal(
        note.body.error.message,
        'Content type with uid api::note.note does not have draftAndPublish enabled',
      );
      const noId = await add(target.id, { contentType: PAGE, type: 'publish' });
      assert.equal(noId.body.error.message, 'Document id is required for collection type');
      const noType = await add(target.id, { contentType: 'api::nope.nope', entryDocumentId: 'x', type: 'publish' });
      assert.equal(noType.status, 404);
      const badKind = await add(target.id, { contentType: PAGE, entryDocumentId: 'x', type: 'delete' });
      assert.equal(badKind.status, 400);
      assert.equal(badKind.body.error.message, 'type must be one of the following values: publish, unpublish');

      const bulk = await ok(
        root.post(`${R}/${target.id}/actions/bulk`, [
          { contentType: POST, entryDocumentId: valid, locale: 'en', type: 'publish' },
          { contentType: POST, entryDocumentId: valid, locale: 'fr', type: 'publish' },
        ]),
        201,
      );
      assert.deepEqual(bulk.meta, { entriesAlreadyInRelease: 1, totalEntries: 2 });
      const frAction = bulk.data[0];
      assert.equal(frAction.isEntryValid, false, 'no French draft');
      const changed = (await ok(root.put(`${R}/${target.id}/actions/${frAction.id}`, { type: 'unpublish' }))).data;
      assert.equal(changed.type, 'unpublish');
      assert.equal(changed.isEntryValid, true);
      assert.equal((await ok(root.delete(`${R}/${target.id}/actions/${frAction.id}`))).data.id, frAction.id);
      const missing = await root.delete(`${R}/${target.id}/actions/${frAction.id}`);
      assert.equal(missing.status, 404);
      assert.equal(
        missing.body.error.message,
        `Action with id ${frAction.id} not found in release with id ${target.id} or it is already published`,
      );
      const attached = await ok(
        root.get(
          `${R}/getByDocumentAttached?contentType=${POST}&entryDocumentId=${valid}&locale=en&hasEntryAttached=true`,
        ),
      );
      assert.deepEqual(
        attached.data.map((item: Item) => [item.id, item.actions.map((action: Item) => action.type)]),
        [[target.id, ['publish']]],
      );
      const notAttached = await ok(
        root.get(
          `${R}/getByDocumentAttached?contentType=${POST}&entryDocumentId=${valid}&locale=en&hasEntryAttached=false`,
        ),
      );
      assert.ok(!notAttached.data.some((item: Item) => item.id === target.id));
      const mapped = await ok(
        root.get(`${R}/mapEntriesToReleases?contentTypeUid=${POST}&documentIds[]=${valid}&locale=en`),
      );
      assert.deepEqual(mapped.data[valid], [{ id: target.id, name: target.name }]);
    });

    it('publishes all of a release in one transaction or none of it, and once', async () => {
      const a = await post('A en', 'A fr');
      const b = await page('B');
      const c = await page(null);
      const target = await release();
      await ok(add(target.id, { contentType: POST, entryDocumentId: a, locale: 'en', type: 'publish' }), 201);
      await ok(add(target.id, { contentType: POST, entryDocumentId: a, locale: 'fr', type: 'publish' }), 201);
      await ok(add(target.id, { contentType: PAGE, entryDocumentId: b, type: 'publish' }), 201);
      const blocked = await ok(add(target.id, { contentType: PAGE, entryDocumentId: c, type: 'publish' }), 201);
      // Publishing with an invalid entry: a 400, nothing published, the release failed with the reason.
      const refused = await root.post(`${R}/${target.id}/publish`);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      for (const [uid, id, locale] of [
        [POST, a, 'en'],
        [POST, a, 'fr'],
        [PAGE, b],
        [PAGE, c],
      ] as const)
        assert.equal(await isPublished(uid, id, locale), false, `${uid} ${id} ${locale ?? ''} not published`);
      const failed = (await ok(root.get(`${R}/${target.id}`))).data;
      assert.equal(failed.status, 'failed');
      assert.match(failed.failureReason, new RegExp(`${PAGE} ${c}`));
      const again = await root.post(`${R}/${target.id}/publish`);
      assert.equal(again.body.error.message, 'Release failed to publish');
      await receiver.until(
        () =>
          receiver.requests.some(
            (request) => request.body?.event === 'releases.publish' && request.body.isPublished === false,
          ),
        'the failure event',
      );
      // Removing the invalid entry makes it ready; two concurrent publishes: one publishes, one is refused.
      await ok(root.delete(`${R}/${target.id}/actions/${blocked.data.id}`));
      assert.equal((await ok(root.get(`${R}/${target.id}`))).data.status, 'ready');
      const [first, second] = await Promise.all([
        root.post(`${R}/${target.id}/publish`),
        root.post(`${R}/${target.id}/publish`),
      ]);
      const answers = [first, second].sort((x, y) => x.status - y.status);
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 400],
        JSON.stringify(answers.map((x) => x.body)),
      );
      assert.equal(answers[1]!.body.error.message, 'Release already published');
      const published = answers[0]!.body;
      assert.equal(published.data.status, 'done');
      assert.match(published.data.releasedAt, ISO);
      assert.deepEqual(published.meta, { totalEntries: 3, totalPublishedEntries: 3, totalUnpublishedEntries: 0 });
      for (const [uid, id, locale] of [
        [POST, a, 'en'],
        [POST, a, 'fr'],
        [PAGE, b],
      ] as const)
        assert.equal(await isPublished(uid, id, locale), true, `${uid} ${id} ${locale ?? ''} published`);
      await receiver.until(
        () => events(target.id).some((request) => request.body.isPublished === true),
        'releases.publish',
      );
      const sent = events(target.id).filter((request) => request.body.isPublished === true);
      assert.equal(sent.length, 1, 'one releases.publish event');
      assert.deepEqual(Object.keys(sent[0]!.body), ['event', 'createdAt', 'isPublished', 'release']);
      assert.equal(sent[0]!.body.release.status, 'done');
      // Audited as the administrator's, each entry's publication in the same transaction.
      assert.deepEqual(
        (await entriesOf(root, b)).map((entry) => [entry.action, entry.user?.email]),
        [
          ['entry.create', 'root@example.com'],
          ['release.entry.add', 'root@example.com'],
          ['entry.publish', 'root@example.com'],
        ],
      );
      const triggers = await ok(
        root.get(`/admin/audit-logs?pageSize=100&filters[$and][0][action][$eq]=release.trigger`),
      );
      assert.deepEqual(
        triggers.results
          .filter((entry: Item) => entry.payload.subject === String(target.id))
          .map((entry: Item) => entry.payload.details.outcome)
          .sort(),
        ['failure', 'success'],
      );
      const done = await ok(root.get(`${R}?filters[releasedAt][$notNull]=true&pageSize=100`));
      assert.ok(done.data.some((item: Item) => item.id === target.id && item.actions.meta.count === 3));
      const late = await add(target.id, { contentType: PAGE, entryDocumentId: c, type: 'publish' });
      assert.equal(late.body.error.message, 'Release already published');
      assert.equal((await root.delete(`${R}/${target.id}`)).body.error.message, 'Release already published');
    });

    it('publishes a scheduled release at its time, on one node', async () => {
      const id = await page('Scheduled');
      const published = await post('Was published');
      await ok(root.post(`${CM}/${POST}/${published}/actions/publish?locale=en`, {}));
      const at = new Date(Date.now() + 800).toISOString();
      const scheduled = await release(unique('Timed'), { scheduledAt: at, timezone: 'Europe/Paris' });
      assert.equal(scheduled.scheduledAt, at);
      await ok(add(scheduled.id, { contentType: PAGE, entryDocumentId: id, type: 'publish' }), 201);
      await ok(
        add(scheduled.id, { contentType: POST, entryDocumentId: published, locale: 'en', type: 'unpublish' }),
        201,
      );
      await eventually(
        async () => (await ok(root.get(`${R}/${scheduled.id}`))).data.status === 'done',
        'the scheduled release',
      );
      assert.equal(await isPublished(PAGE, id), true);
      assert.equal(await isPublished(POST, published, 'en'), false);
    });

    it('lets an administrator do only what their role’s releases actions allow', async () => {
      const role = await createRole(root, unique('Readers'), [
        permission('plugin::content-releases.read'),
        permission('plugin::content-releases.create'),
      ]);
      const { client: reader } = await inviteAdmin(server, root, [role], {
        email: emailOf(unique('reader')),
        firstname: 'Reader',
        password: 'Passw0rd-Reader',
      });
      const own = (await ok(reader.post(R, { name: unique('Mine') }), 201)).data;
      await ok(reader.get(`${R}/${own.id}`));
      for (const [method, path, body] of [
        ['put', `${R}/${own.id}`, { name: 'x' }],
        ['delete', `${R}/${own.id}`, undefined],
        ['post', `${R}/${own.id}/publish`, {}],
        ['post', `${R}/${own.id}/actions`, { contentType: PAGE, entryDocumentId: 'x', type: 'publish' }],
      ] as const) {
        const answer = await reader.request(method.toUpperCase(), path, body === undefined ? {} : { body });
        assert.equal(answer.status, 403, `${method} ${path}`);
        assert.equal(answer.body.error.name, 'PolicyError');
      }
      assert.equal((await server.publicApi.get(R)).status, 401);
    });

    it('keeps to a model through a seeded random sequence of releases, actions, edits and publications', async () => {
      const seed = Number(process.env.SEQ_SEED ?? Date.now() % 100_000);
      const steps = Number(process.env.SEQ_STEPS ?? 40);
      const rand = random(seed);
      const pick = <T>(items: T[]): T => items[Math.floor(rand() * items.length)]!;
      const context = (step: number, what: string) => `seed ${seed}, step ${step}: ${what}`;

      interface Entry {
        key: string;
        uid: string;
        documentId: string;
        locale?: string;
        valid: boolean;
        published: boolean;
      }
      interface ModelRelease {
        id: number;
        actions: Map<string, { id: number; type: 'publish' | 'unpublish' }>;
        released: boolean;
        failed: boolean;
      }
      const entries: Entry[] = [];
      for (let i = 0; i < 2; i++) {
        const id = await post(`Post ${i}`, `Article ${i}`);
        for (const locale of ['en', 'fr'])
          entries.push({
            key: `${POST}:${id}:${locale}`,
            uid: POST,
            documentId: id,
            locale,
            valid: true,
            published: false,
          });
      }
      for (let i = 0; i < 2; i++) {
        const id = await page(`Page ${i}`);
        entries.push({ key: `${PAGE}:${id}`, uid: PAGE, documentId: id, valid: true, published: false });
      }
      const releases: ModelRelease[] = [];
      const pending = () => releases.filter((item) => !item.released);

      for (let step = 0; step < steps; step++) {
        const roll = rand();
        if (roll < 0.12 || pending().length === 0) {
          const created = await release(unique(`Seq ${step}`));
          releases.push({ id: created.id, actions: new Map(), released: false, failed: false });
        } else if (roll < 0.45) {
          const target = pick(pending());
          const entry = pick(entries);
          const type = rand() < 0.7 ? 'publish' : 'unpublish';
          const answer = await add(target.id, {
            contentType: entry.uid,
            entryDocumentId: entry.documentId,
            ...(entry.locale ? { locale: entry.locale } : {}),
            type,
          });
          if (target.actions.has(entry.key)) {
            assert.equal(answer.status, 400, context(step, 'a second action on one entry'));
            assert.equal(answer.body.error.name, 'AlreadyOnReleaseError');
          } else {
            assert.equal(answer.status, 201, context(step, JSON.stringify(answer.body)));
            assert.equal(answer.body.data.isEntryValid, type === 'unpublish' || entry.valid, context(step, 'validity'));
            target.actions.set(entry.key, { id: answer.body.data.id, type });
            target.failed = false;
          }
        } else if (roll < 0.55) {
          const target = pick(pending());
          const keys = [...target.actions.keys()];
          if (keys.length === 0) continue;
          const key = pick(keys);
          await ok(root.delete(`${R}/${target.id}/actions/${target.actions.get(key)!.id}`));
          target.actions.delete(key);
          target.failed = false;
        } else if (roll < 0.8) {
          const entry = pick(entries);
          const value = entry.valid && rand() < 0.5 ? null : unique('Title');
          const field = entry.uid === POST ? 'title' : 'heading';
          const path =
            entry.uid === POST
              ? `${CM}/${POST}/${entry.documentId}?locale=${entry.locale}`
              : `${CM}/${PAGE}/${entry.documentId}`;
          await ok(root.put(path, { [field]: value }), 200);
          entry.valid = value !== null;
        } else {
          const target = pick(pending());
          const actions = [...target.actions.entries()].map(([key, action]) => ({
            entry: entries.find((e) => e.key === key)!,
            ...action,
          }));
          const succeeds =
            !target.failed &&
            actions.length > 0 &&
            actions.every((action) => (action.type === 'publish' ? action.entry.valid : action.entry.published));
          const before = await Promise.all(
            entries.map((entry) => isPublished(entry.uid, entry.documentId, entry.locale)),
          );
          const answer = await root.post(`${R}/${target.id}/publish`);
          assert.equal(
            answer.status,
            succeeds ? 200 : target.failed ? 400 : answer.status,
            context(step, JSON.stringify(answer.body)),
          );
          if (succeeds) {
            target.released = true;
            for (const action of actions) action.entry.published = action.type === 'publish';
          } else {
            assert.ok(answer.status >= 400, context(step, 'a failing release is refused'));
            target.failed = true;
          }
          const afterwards = await Promise.all(
            entries.map((entry) => isPublished(entry.uid, entry.documentId, entry.locale)),
          );
          assert.deepEqual(
            afterwards,
            entries.map((entry) => entry.published),
            context(step, succeeds ? 'every action carried out' : 'nothing carried out'),
          );
          if (!succeeds) assert.deepEqual(afterwards, before, context(step, 'all or nothing'));
        }
      }
      // The stored statuses agree with the model, once the actions are listed (checked again).
      for (const item of releases) {
        await ok(root.get(`${R}/${item.id}/actions?pageSize=100`));
        const stored = (await ok(root.get(`${R}/${item.id}`))).data;
        assert.equal(stored.actions.meta.count, item.actions.size, context(steps, `release ${item.id}'s actions`));
        if (item.released) assert.equal(stored.status, 'done');
        else if (item.failed) assert.ok(['failed', 'ready', 'blocked'].includes(stored.status));
        else {
          const invalid = [...item.actions.entries()].some(
            ([key, action]) => action.type === 'publish' && !entries.find((e) => e.key === key)!.valid,
          );
          assert.equal(
            stored.status,
            item.actions.size === 0 ? 'empty' : invalid ? 'blocked' : 'ready',
            context(steps, `release ${item.id}'s status`),
          );
        }
      }
    });
  });
}
