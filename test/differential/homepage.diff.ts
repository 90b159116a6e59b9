/**
 * The home page's API side by side with Strapi 5.54 (issue 34): the same content manager writes
 * on both, then `GET /content-manager/homepage/recent-documents?action=update|publish` and
 * `GET /content-manager/homepage/count-documents` compared, by a Super Admin and by administrators
 * whose roles limit the types, locales, documents and fields they read, and a seeded random
 * sequence of two administrators' writes compared after every step. On demand:
 * `npm run test:strapi -- homepage`. Pinned in test/admin/homepage.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import { diffName, adminSessions, openDifferential, type Differential, type Side } from './harness.js';

const CM = '/content-manager/collection-types';
const POSTS = `${CM}/api::post.post`;
const PAGES = `${CM}/api::page.page`;
const NOTES = `${CM}/api::note.note`;
const COUNTERS = `${CM}/api::counter.counter`;
const HOME = '/content-manager/single-types/api::home.home';
const RECENT = '/content-manager/homepage/recent-documents';
const COUNT = '/content-manager/homepage/count-documents';

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};

before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename), project: fixture('homepage') });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

const run = Date.now().toString(36);

/** Returns once the clock has moved past the last answer: the next write gets a later timestamp. */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

/** A write, then a millisecond: both servers order the lists by timestamps. */
async function write(client: HttpClient, method: 'post' | 'put' | 'delete', path: string, body?: unknown) {
  const answer =
    method === 'delete' ? await client.delete(path) : await client[method](path, body === undefined ? {} : body);
  await nextMillisecond();
  return answer;
}

/**
 * A list as compared: a title that is the entry's documentId (a role that may not read the main
 * field) says so, the documentIds themselves differing between the servers.
 */
const titled = (answer: Response): Response => {
  const data = (answer.body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return answer;
  const entries = data.map((entry: Record<string, unknown>) =>
    entry.title === entry.documentId ? { ...entry, title: '<its documentId>' } : entry,
  );
  return { ...answer, body: { ...answer.body, data: entries } };
};

/** The two lists and the counts an administrator's home page reads. */
const homepage = async (client: HttpClient, counts = true): Promise<Record<string, Response>> => ({
  update: titled(await client.get(`${RECENT}?action=update`)),
  publish: titled(await client.get(`${RECENT}?action=publish`)),
  ...(counts ? { count: await client.get(COUNT) } : {}),
});

/**
 * What is compared of a write in the sequence: its status, and a refusal whole (the content
 * manager's answers themselves are test/differential/content-manager.diff.ts's).
 */
const outcome = (answer: Response): Response => (answer.status >= 400 ? answer : { ...answer, body: null, text: '' });

/** A role with these permissions and an administrator of it, registered on that side: their client. */
async function administrator(side: Side, name: string, permissions: unknown[]): Promise<HttpClient> {
  const root = sessions[side]!;
  const base = root.baseUrl;
  const role = await root.post('/admin/roles', { name });
  assert.equal(role.status, 201, `${side}: ${JSON.stringify(role.body)}`);
  const set = await root.put(`/admin/roles/${role.body.data.id}/permissions`, { permissions });
  assert.equal(set.status, 200, `${side}: ${JSON.stringify(set.body)}`);
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.com`;
  const invited = await root.post('/admin/users', { email, firstname: name, roles: [role.body.data.id] });
  const registered = await new HttpClient(base).post('/admin/register', {
    registrationToken: invited.body.data.registrationToken,
    userInfo: { firstname: name, password: 'Passw0rd-Home' },
  });
  assert.equal(registered.status, 200, `${side}: ${JSON.stringify(registered.body)}`);
  return new HttpClient(base, { authorization: `Bearer ${registered.body.data.token}` });
}

const permission = (action: string, subject: string, properties = {}, conditions: string[] = []) => ({
  action: `plugin::content-manager.explorer.${action}`,
  subject,
  properties,
  conditions,
});

test('refusals: a missing or unknown action', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      return {
        missing: await client.get(RECENT),
        empty: await client.get(`${RECENT}?action=`),
        unknown: await client.get(`${RECENT}?action=delete`),
        list: await client.get(`${RECENT}?action[0]=update`),
      };
    },
    { messages: true },
  );
});

// Vellum's 401 for an admin route without credentials says where to log in (its admin sign-in's
// message, the content manager's alike): status and name compared.
test('refusals: anybody but an administrator', async () => {
  await diff.same(async (api) => {
    const anonymous = new HttpClient(api.baseUrl);
    return {
      anonymous: await anonymous.get(`${RECENT}?action=update`),
      anonymousCount: await anonymous.get(COUNT),
      apiToken: await api.get(`${RECENT}?action=update`),
      apiTokenCount: await api.get(COUNT),
    };
  });
});

test('a Super Admin’s lists and counts through drafts, publication, edits, locales, discard and deletion', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const answers: Record<string, Response> = {};
      let step = 0;
      const look = async () => {
        step++;
        for (const [name, answer] of Object.entries(await homepage(client))) answers[`${step} ${name}`] = answer;
      };
      await look();
      const post = await write(client, 'post', `${POSTS}?locale=en`, { title: `Post ${run}`, body: 'b' });
      const id = post.body.data.documentId as string;
      await look();
      await write(client, 'post', `${POSTS}/${id}/actions/publish?locale=en`);
      await look();
      await write(client, 'put', `${POSTS}/${id}?locale=en`, { title: `Post ${run}, edited` });
      await look();
      await write(client, 'put', `${POSTS}/${id}?locale=fr`, { title: `Article ${run}` });
      await look();
      await write(client, 'post', `${POSTS}/${id}/actions/publish?locale=fr`);
      await look();
      await write(client, 'post', `${POSTS}/${id}/actions/discard?locale=en`);
      await look();
      await write(client, 'post', `${PAGES}?locale=fr`, { code: 3, summary: 's', heading: `Page ${run}` });
      await write(client, 'post', `${NOTES}?locale=fr`, { label: `Note ${run}` });
      await write(client, 'put', `${HOME}?locale=en`, { headline: `Home ${run}` });
      await look();
      await write(client, 'post', `${HOME}/actions/publish?locale=en`);
      await look();
      await write(client, 'post', `${POSTS}/${id}/actions/unpublish?locale=en`);
      await look();
      await write(client, 'delete', `${POSTS}/${id}?locale=fr`);
      await look();
      await write(client, 'post', `${CM}/plugin::users-permissions.user`, {
        username: `reader-${run}`,
        email: `reader-${run}@example.com`,
        password: 'Passw0rd-User',
        confirmed: true,
        blocked: false,
        role: { connect: [{ id: 1 }] },
      });
      await look();
      return answers;
    },
    { messages: true },
  );
});

test('a type without a string attribute is titled by its documentId', async () => {
  const { strapi, vellum } = await diff.both(async (_api, side) => {
    const client = sessions[side]!;
    const created = await write(client, 'post', COUNTERS, { value: 5 });
    const [first] = (await client.get(`${RECENT}?action=update`)).body.data;
    return { created, first: { status: 200, headers: new Headers(), text: '', body: first } };
  });
  for (const answers of [strapi, vellum] as Record<string, Response>[]) {
    assert.equal(answers.first!.body.contentTypeUid, 'api::counter.counter');
    assert.equal(answers.first!.body.title, answers.created!.body.data.documentId);
    assert.equal('status' in answers.first!.body, false);
  }
});

test('what a role lets an administrator see: types, locales, their own documents, titles', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const reader = await administrator(side, `Readers ${run}`, [
        permission('read', 'api::post.post', { fields: ['body'], locales: ['fr'] }, ['admin::is-creator']),
        permission('create', 'api::post.post', { fields: ['title', 'body'], locales: ['fr'] }),
        permission('update', 'api::post.post', { fields: ['title', 'body'], locales: ['fr'] }, ['admin::is-creator']),
        permission('publish', 'api::post.post', { locales: ['fr'] }, ['admin::is-creator']),
        permission('read', 'api::note.note', { fields: ['label'], locales: ['en'] }),
      ]);
      const answers: Record<string, Response> = {};
      answers.before = titled(await reader.get(`${RECENT}?action=update`));
      await write(client, 'post', `${POSTS}?locale=fr`, { title: `Not theirs ${run}` });
      await write(client, 'post', `${NOTES}?locale=en`, { label: `English note ${run}` });
      await write(client, 'post', `${NOTES}?locale=fr`, { label: `French note ${run}` });
      const mine = await write(reader, 'post', `${POSTS}?locale=fr`, { title: `Mine ${run}`, body: 'b' });
      answers.update = titled(await reader.get(`${RECENT}?action=update`));
      answers.publish = titled(await reader.get(`${RECENT}?action=publish`));
      await write(reader, 'post', `${POSTS}/${mine.body.data.documentId}/actions/publish?locale=fr`);
      answers.published = titled(await reader.get(`${RECENT}?action=publish`));
      const none = await administrator(side, `Nobody ${run}`, []);
      answers.none = titled(await none.get(`${RECENT}?action=update`));
      answers.noneCount = await none.get(COUNT);
      return answers;
    },
    { messages: true },
  );
});

test('counts: of every document of the readable types in Strapi, of those the role reads in Vellum', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const reader = await administrator(side, `Counters ${run}`, [
        permission('read', 'api::post.post', { locales: ['fr'] }, ['admin::is-creator']),
      ]);
      await write(client, 'post', `${POSTS}?locale=en`, { title: `Counted ${run}` });
      return reader.get(COUNT);
    },
    {
      deliberate:
        'Strapi counts every document of the types an administrator may read; Vellum only those their role lets them read (locales, "is creator")',
    },
  );
});

/** A random generator with a seed (mulberry32): the same steps on both servers. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('a seeded random sequence of two administrators’ writes, the lists compared after every step', async () => {
  const seed = Number(process.env.HOMEPAGE_SEED ?? 29);
  const steps = Number(process.env.HOMEPAGE_STEPS ?? 30);
  await diff.same(
    async (_api, side) => {
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const all = ['read', 'create', 'update', 'delete', 'publish'];
      const root = sessions[side]!;
      // Every locale named: a permission without `locales` on a localized type is saved by Strapi
      // with its default locale alone, by Vellum with every locale (the roles' API, not this one).
      const locales = { locales: ['en', 'fr'] };
      const editor = await administrator(side, `Editors ${run}`, [
        ...all.map((action) => permission(action, 'api::post.post', locales)),
        ...all.map((action) => permission(action, 'api::page.page', locales)),
        ...['read', 'create', 'update', 'delete'].map((action) => permission(action, 'api::note.note', locales)),
      ]);
      const author = await administrator(side, `Authors ${run}`, [
        ...all.map((action) =>
          permission(
            action,
            'api::post.post',
            action === 'delete' || action === 'publish' ? { locales: ['fr'] } : { fields: ['title'], locales: ['fr'] },
            action === 'create' ? [] : ['admin::is-creator'],
          ),
        ),
        permission('read', 'api::page.page', { fields: ['code'], ...locales }),
      ]);
      const paths = { post: POSTS, page: PAGES, note: NOTES } as const;
      const titleKey = { post: 'title', page: 'heading', note: 'label' } as const;
      type Kind = keyof typeof paths;
      // Documents by creation order (ids differ between the servers), and which locales they have.
      const documents: { kind: Kind; id: string; locales: Map<string, { by: string; published: boolean }> }[] = [];
      const answers: Record<string, Response> = {};
      for (let step = 0; step < steps; step++) {
        const actor = next() < 0.6 ? 'editor' : 'author';
        const client = actor === 'editor' ? editor : author;
        const candidates = documents.flatMap((document, index) =>
          [...document.locales.entries()]
            .filter(
              ([locale, version]) =>
                actor === 'editor' || (document.kind === 'post' && locale === 'fr' && version.by === 'author'),
            )
            .map(([locale]) => ({ index, locale })),
        );
        let op =
          candidates.length === 0
            ? 'create'
            : pick(['create', 'update', 'update', 'publish', 'unpublish', 'discard', 'delete', 'locale']);
        const target = candidates.length ? pick(candidates) : undefined;
        const document = target ? documents[target.index]! : undefined;
        const version = target ? document!.locales.get(target.locale)! : undefined;
        if (document?.kind === 'note' && ['publish', 'unpublish', 'discard'].includes(op)) op = 'update';
        if (version && !version.published && ['unpublish', 'discard'].includes(op)) op = 'publish';
        if (op === 'locale' && actor === 'author') op = 'update';
        const title = `${actor} ${op} ${step} ${run}`;
        const label = `${step} ${actor} ${op}${target ? ` #${target.index} ${target.locale}` : ''}`;
        if (op === 'create') {
          const kind: Kind = actor === 'author' ? 'post' : pick(['post', 'page', 'note'] as const);
          const locale = actor === 'author' ? 'fr' : pick(['en', 'fr']);
          const created = await write(client, 'post', `${paths[kind]}?locale=${locale}`, { [titleKey[kind]]: title });
          answers[label] = outcome(created);
          documents.push({
            kind,
            id: created.body.data.documentId,
            locales: new Map([[locale, { by: actor, published: false }]]),
          });
        } else {
          const path = `${paths[document!.kind]}/${document!.id}`;
          const locale = target!.locale;
          if (op === 'update') {
            answers[label] = outcome(
              await write(client, 'put', `${path}?locale=${locale}`, { [titleKey[document!.kind]]: title }),
            );
          } else if (op === 'locale') {
            const other = locale === 'en' ? 'fr' : 'en';
            answers[label] = outcome(
              await write(client, 'put', `${path}?locale=${other}`, { [titleKey[document!.kind]]: title }),
            );
            if (!document!.locales.has(other)) document!.locales.set(other, { by: actor, published: false });
          } else if (op === 'delete') {
            answers[label] = outcome(await write(client, 'delete', `${path}?locale=${locale}`));
            document!.locales.delete(locale);
          } else {
            answers[label] = outcome(await write(client, 'post', `${path}/actions/${op}?locale=${locale}`));
            if (op === 'publish') version!.published = true;
            if (op === 'unpublish') version!.published = false;
          }
        }
        for (const [name, observer] of [
          ['editor', editor],
          ['author', author],
          ['root', root],
        ] as const) {
          // The author's counts differ on purpose (the previous test).
          for (const [what, answer] of Object.entries(await homepage(observer, name !== 'author')))
            answers[`${label}: ${name} ${what}`] = answer;
        }
      }
      return answers;
    },
    { messages: true },
  );
});

test('the project statistics and an administrator’s widget layout', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const anonymous = new HttpClient(side === 'strapi' ? diff.strapi.baseUrl : diff.vellum.baseUrl);
      const answers: Record<string, Response> = {};
      answers.statistics = await client.get('/admin/homepage/key-statistics');
      answers.anonymousStatistics = await anonymous.get('/admin/homepage/key-statistics');
      answers.none = await client.get('/admin/homepage/layout');
      answers.saved = await client.put('/admin/homepage/layout', {
        widgets: [
          { uid: 'plugin::content-manager.last-edited-entries', width: 8 },
          { uid: 'plugin::admin.key-statistics', width: 4 },
        ],
        updatedAt: '2026-11-29T10:00:00.000Z',
      });
      answers.read = await client.get('/admin/homepage/layout');
      answers.versioned = await client.put('/admin/homepage/layout', {
        version: 3,
        widgets: [{ uid: 'plugin::admin.key-statistics', width: 12 }],
        updatedAt: '2026-11-29T11:00:00Z',
      });
      answers.readAgain = await client.get('/admin/homepage/layout');
      answers.empty = await client.put('/admin/homepage/layout', { widgets: [], updatedAt: '2026-11-29T12:00:00Z' });
      return answers;
    },
    // The harness makes API tokens on Strapi's side only (token.sh): test/admin/homepage.test.ts counts Vellum's.
    { messages: true, ignoreKeys: ['apiTokens'] },
  );
});

test('a widget layout refused: Strapi answers a 500, Vellum a 400 naming the problem', async () => {
  const { strapi, vellum } = await diff.both(async (_api, side) => {
    const client = sessions[side]!;
    return {
      width: await client.put('/admin/homepage/layout', { widgets: [{ uid: 'x', width: 5 }] }),
      extra: await client.put('/admin/homepage/layout', { widgets: [], colour: 'red' }),
      noWidgets: await client.put('/admin/homepage/layout', {}),
    };
  });
  for (const name of ['width', 'extra', 'noWidgets'] as const) {
    assert.equal((strapi as Record<string, Response>)[name].status, 500, name);
    assert.equal((vellum as Record<string, Response>)[name].status, 400, name);
  }
});
