/**
 * Webhook events side by side with Strapi 5.54 on the blog example: one webhook listening to every
 * event on each server, calling a local receiver; each scenario runs writes and answers, beside
 * their HTTP answers, the events they caused (name, model, uid, entry or media), ids and times
 * normalised. Strapi delivers up to five calls at once (its webhook runner's worker queue), so the
 * events of one scenario arrive in any order there: they are compared in the order they were
 * emitted, which is `ORDER` below within a scenario's step. On demand:
 * `npm run test:strapi -- webhooks`. Pinned for Vellum alone in test/events/webhook-bodies.test.ts.
 *
 * Observed on Strapi 5.54.0 (2026-11-28, blog example, SQLite):
 * - Events per write: POST (published) entry.create of the draft, then entry.publish; POST
 *   ?status=draft entry.create; PUT ?status=draft entry.update; PUT (published) entry.update of the
 *   draft, then entry.publish (the old published row is replaced silently: no entry.delete); PUT of a
 *   new locale entry.create (then entry.publish when published); DELETE one entry.delete per row
 *   removed (draft and published), bare rows. Types without draft and publish: entry.create /
 *   entry.update / entry.delete only.
 * - The content manager: publish saves the draft first (entry.update, then entry.publish, even with
 *   an empty body); unpublish (`actions/unpublish`) entry.unpublish of the published row read with
 *   the manager's deep populate: every relation, to-one too, as `{ count }`, media whole, components
 *   and zones deep, and `localizations`: every other row of the document, the same locale's draft
 *   included; the relations inside components and zones are counted too; discard
 *   (`actions/discard`) entry.draft-discard.
 * - DELETE ?locale=* one entry.delete per row of every locale (a page in en and fr, published:
 *   four); a localized type without draft and publish: one per locale.
 * - Entries: relations populated with all their fields (nothing private), media as whole files
 *   (id, documentId, name, alternativeText, caption, focalPoint, width, height, formats, hash, ext,
 *   mime, size, url, previewUrl, provider, provider_metadata, createdAt, updatedAt, publishedAt), no
 *   `locale` nor `localizations` on types without i18n (private there), no createdBy/updatedBy.
 * - Files: media.create, media.update, media.delete with `{ media }`, no `locale`.
 * - Users: register and POST /api/users entry.create, PUT /api/users/:id entry.update (model
 *   `user`, uid plugin::users-permissions.user, role populated, no password), DELETE nothing (the
 *   plugin deletes with the query engine).
 */
import { writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { fixture } from '../helpers/server.js';
import type { TempProject } from '../helpers/projects.js';
import { Receiver, type Received } from '../helpers/receiver.js';
import { diffName, openDifferential, type Differential, type Side } from './harness.js';
import { projectWithStrapiWebhook, WEBHOOK_EVENTS } from './strapi-webhook.js';

let diff: Differential;
const receivers: Partial<Record<Side, Receiver>> = {};
const admins: Partial<Record<Side, HttpClient>> = {};
const EVENTS = WEBHOOK_EVENTS;
/** The order Strapi emits a write's events in (the webhook runner may send them in another). */
const ORDER = [
  'entry.delete',
  'entry.unpublish',
  'entry.create',
  'entry.update',
  'entry.draft-discard',
  'entry.publish',
  'media.create',
  'media.update',
  'media.delete',
];
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const DUMP = process.env.WEBHOOKS_DIFF_DUMP;
const dumped: Record<string, unknown[]> = {};

const projects: TempProject[] = [];

interface Pair {
  diff: Differential;
  admins: Record<Side, HttpClient>;
}

/** Strapi and Vellum on a copy of `source`, each with a webhook of every event calling its receiver. */
async function openWithWebhooks(name: string, source?: string): Promise<Pair> {
  const project = projectWithStrapiWebhook(source, receivers.strapi!.url);
  projects.push(project);
  const opened = await openDifferential({
    name,
    project: project.dir,
    readyPath: source ? undefined : '/api/articles',
  });
  const strapiLogin = await new HttpClient(opened.strapi.baseUrl).post('/admin/login', {
    email: 'admin@example.com',
    password: 'Admin-Passw0rd!',
  });
  await opened.vellumServer.vellum.auth.admins.create('hooks-diff@example.com', 'an-admin-password');
  const vellumLogin = await opened.vellumServer.publicApi.post('/admin/login', {
    email: 'hooks-diff@example.com',
    password: 'an-admin-password',
  });
  const pair = {
    diff: opened,
    admins: {
      strapi: new HttpClient(opened.strapi.baseUrl, { authorization: `Bearer ${strapiLogin.body.data.token}` }),
      vellum: new HttpClient(opened.vellumServer.url, { authorization: `Bearer ${vellumLogin.body.data.token}` }),
    },
  };
  const created = await pair.admins.vellum.post('/admin/webhooks', {
    name: 'diff',
    url: receivers.vellum!.url,
    headers: {},
    events: EVENTS,
  });
  if (created.status !== 201) throw new Error(`vellum: webhook not created: ${created.status} ${created.text}`);
  return pair;
}

before(async () => {
  receivers.strapi = await Receiver.start();
  receivers.vellum = await Receiver.start();
  const pair = await openWithWebhooks(diffName(import.meta.filename));
  diff = pair.diff;
  Object.assign(admins, pair.admins);
});
after(async () => {
  if (DUMP) writeFileSync(DUMP, JSON.stringify(dumped, null, 2));
  await diff?.close();
  for (const project of projects) project.remove();
  for (const receiver of Object.values(receivers)) await receiver?.close();
});

/** Waits until no event has arrived for `quiet` ms (at most 15 s): Strapi emits after its answer. */
async function settle(receiver: Receiver, quiet = 600): Promise<void> {
  const end = Date.now() + 15_000;
  let count = receiver.requests.length;
  let since = Date.now();
  while (Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (receiver.requests.length !== count) {
      count = receiver.requests.length;
      since = Date.now();
    } else if (Date.now() - since >= quiet) return;
  }
}

const rank = (request: Received): number => ORDER.indexOf(request.body.event);
/** Within one step, emitted order: by event, then drafts before published versions, then by locale. */
const emitted = (a: Received, b: Received): number =>
  rank(a) - rank(b) ||
  Number(a.body.entry?.publishedAt != null) - Number(b.body.entry?.publishedAt != null) ||
  String(a.body.entry?.locale).localeCompare(String(b.body.entry?.locale));

/** The body of an event without its time (the `createdAt` of the event, not of the entry). */
const payload = (request: Received): Record<string, unknown> => {
  const { createdAt: _createdAt, ...rest } = request.body as Record<string, unknown>;
  // A user's role: its id would share a label with the user's own (both 1 on Strapi, not on Vellum).
  const role = (rest.entry as { role?: { id?: unknown } } | undefined)?.role;
  if (role && typeof role === 'object') role.id = '<role id>';
  return rest;
};

const asAnswer = (body: unknown): Response => ({ status: 200, headers: new Headers(), body, text: '' });

interface Steps {
  /** Runs one step (one request or a few), then records the events it caused. */
  step(name: string, run: () => Promise<Response | Response[] | void>): Promise<void>;
  answers: Record<string, Response>;
}

/** Runs `scenario`'s steps on one side, answering each step's HTTP answers and its events. */
async function withEvents(
  side: Side,
  label: string,
  scenario: (steps: Steps) => Promise<void>,
): Promise<Record<string, Response>> {
  const receiver = receivers[side]!;
  await settle(receiver, 300);
  const answers: Record<string, Response> = {};
  const log: unknown[] = [];
  const steps: Steps = {
    answers,
    async step(name, run) {
      const start = receiver.requests.length;
      const result = await run();
      await settle(receiver);
      const arrived = receiver.requests.slice(start);
      log.push({ step: name, arrived: arrived.map((r) => r.body.event), events: arrived.map((r) => r.body) });
      const events = [...arrived].sort(emitted).map(payload);
      const results = result === undefined ? [] : [result].flat();
      results.forEach(
        (response, i) =>
          (answers[`${name} answer ${i}`] = { ...response, body: response.status < 300 ? null : response.body }),
      );
      answers[`${name} events`] = asAnswer(events);
    },
  };
  await scenario(steps);
  dumped[`${label} ${side}`] = log;
  return answers;
}

/**
 * Keys whose values differ for reasons other than events: a file's stored name and hash; its size
 * (Strapi re-encodes the PNG it receives: 0.12 KB, Vellum stores the bytes sent: 0.07 KB); `slug`
 * (Vellum generates a uid from its targetField on a POST that omits it, as Strapi's admin panel
 * does, docs/coming-from-strapi.md; Strapi's REST stores null).
 */
const ignoreKeys = ['hash', 'url', 'size', 'slug'];

test('a localized draft-and-publish type: create, update, publish, locales, unpublish, discard, delete', async () => {
  await diff.same(
    async (api, side) =>
      withEvents(side, 'article', async ({ step }) => {
        let id = '';
        let author = '';
        let tag = '';
        await step('create author and tag', async () => {
          author = (await api.post('/api/authors', { data: { name: 'wh-author' } })).body.data.documentId;
          tag = (await api.post('/api/tags', { data: { name: 'wh-tag' } })).body.data.documentId;
        });
        await step('create draft', async () => {
          const created = await api.post('/api/articles?status=draft', {
            data: {
              title: 'wh-1',
              author,
              tags: [tag],
              seo: { metaTitle: 'M' },
              links: [{ label: 'L', url: 'https://example.com' }],
              blocks: [{ __component: 'shared.quote', body: 'Q' }],
            },
          });
          id = created.body.data.documentId;
          return created;
        });
        await step('update draft', () => api.put(`/api/articles/${id}?status=draft`, { data: { views: 3 } }));
        await step('update publishing', () => api.put(`/api/articles/${id}`, { data: { views: 4 } }));
        await step('create fr draft', () =>
          api.put(`/api/articles/${id}?locale=fr&status=draft`, { data: { title: 'wh-1 fr' } }),
        );
        await step('update fr publishing', () =>
          api.put(`/api/articles/${id}?locale=fr`, { data: { title: 'wh-1 fr 2' } }),
        );
        await step('delete fr', () => api.delete(`/api/articles/${id}?locale=fr`));
        await step('create published', async () => api.post('/api/articles', { data: { title: 'wh-2' } }));
        await step('delete', () => api.delete(`/api/articles/${id}`));
      }),
    { ignoreKeys },
  );
});

/** The content manager's publication actions: Strapi's admin API; Vellum's under /admin. */
const manager = (side: Side) => (side === 'strapi' ? '/content-manager' : '/admin/content-manager');

test('the content manager: publish, unpublish, discard the draft', async () => {
  await diff.same(
    async (api, side) =>
      withEvents(side, 'manager', async ({ step }) => {
        const admin = admins[side]!;
        const base = `${manager(side)}/collection-types/api::article.article`;
        let tag = '';
        await step('create tag', async () => {
          tag = (await api.post('/api/tags', { data: { name: 'wh-cm-tag' } })).body.data.documentId;
        });
        let id = '';
        await step('create draft', async () => {
          const created = await api.post('/api/articles?status=draft', {
            data: { title: 'wh-cm', tags: [tag], seo: { metaTitle: 'M' } },
          });
          id = created.body.data.documentId;
          return created;
        });
        await step('publish', () => admin.post(`${base}/${id}/actions/publish`, {}));
        await step('update draft', () => api.put(`/api/articles/${id}?status=draft`, { data: { views: 9 } }));
        await step('discard draft', () => admin.post(`${base}/${id}/actions/discard`, {}));
        await step('unpublish', () => admin.post(`${base}/${id}/actions/unpublish`, {}));
        await step('delete', () => api.delete(`/api/articles/${id}`));
      }),
    { ignoreKeys },
  );
});

test('types without i18n nor draft and publish, a single type with a component', async () => {
  await diff.same(
    async (api, side) =>
      withEvents(side, 'plain', async ({ step }) => {
        let author = '';
        await step('create author', async () => {
          const created = await api.post('/api/authors', {
            data: { name: 'wh-plain', email: 'wh@example.com', bio: 'b' },
          });
          author = created.body.data.documentId;
          return created;
        });
        await step('create category', () => api.post('/api/categories', { data: { name: 'wh-cat', slug: 'wh-cat' } }));
        await step('update author', () => api.put(`/api/authors/${author}`, { data: { bio: 'c' } }));
        await step('global', () =>
          api.put('/api/global', { data: { siteName: 'wh-site', defaultSeo: { metaTitle: 'T' } } }),
        );
        await step('delete author', () => api.delete(`/api/authors/${author}`));
      }),
    { ignoreKeys },
  );
});

/** `POST /api/upload` (or `?id=` to change a file's info) as a browser form sends it. */
async function uploadForm(
  api: HttpClient,
  query: string,
  fields: Record<string, string>,
  file?: Buffer,
): Promise<Response> {
  const form = new FormData();
  if (file) form.append('files', new Blob([file as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'pixel.png');
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(`${api.baseUrl}/api/upload${query}`, {
    method: 'POST',
    body: form,
    headers: { authorization: api.defaultHeaders.authorization! },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, text };
}

test('media: upload, update, an entry holding it, delete', async () => {
  await diff.same(
    async (api, side) =>
      withEvents(side, 'media', async ({ step }) => {
        let file = 0;
        await step('upload', async () => {
          const uploaded = await uploadForm(
            api,
            '',
            { fileInfo: JSON.stringify({ alternativeText: 'alt', caption: 'cap' }) },
            PNG,
          );
          file = uploaded.body[0].id;
          return uploaded;
        });
        await step('update info', () =>
          uploadForm(api, `?id=${file}`, { fileInfo: JSON.stringify({ alternativeText: 'alt 2' }) }),
        );
        let author = '';
        await step('entry with media', async () => {
          const created = await api.post('/api/authors', { data: { name: 'wh-media', avatar: file } });
          author = created.body.data.documentId;
          return created;
        });
        await step('article with media', () =>
          api.post('/api/articles', { data: { title: 'wh-media', cover: file, gallery: [file] } }),
        );
        await step('delete entry', () => api.delete(`/api/authors/${author}`));
        await step('delete file', () => api.delete(`/api/upload/files/${file}`));
      }),
    { ignoreKeys },
  );
});

test('users: register, update, delete', async () => {
  await diff.same(
    async (api, side) =>
      withEvents(side, 'users', async ({ step }) => {
        const anonymous = new HttpClient(api.baseUrl);
        let user = 0;
        await step('register', async () => {
          const registered = await anonymous.post('/api/auth/local/register', {
            username: 'wh-user',
            email: 'wh-user@example.com',
            password: 'a-Passw0rd!',
          });
          user = registered.body?.user?.id;
          return registered;
        });
        // Role ids differ between the two (their roles are seeded in another order): by type.
        const roles = await api.get('/api/users-permissions/roles');
        const role = roles.body.roles.find((r: { type: string }) => r.type === 'authenticated').id;
        await step('create', () =>
          api.post('/api/users', {
            username: 'wh-user-2',
            email: 'wh-user-2@example.com',
            password: 'a-Passw0rd!',
            role,
          }),
        );
        await step('update', () => api.put(`/api/users/${user}`, { username: 'wh-user-b' }));
        await step('delete', () => api.delete(`/api/users/${user}`));
      }),
    { ignoreKeys },
  );
});

/** The documentId a create answered, or a failure saying what it answered. */
function idOf(side: Side, created: Response): string {
  if (!created.body?.data?.documentId) throw new Error(`${side}: ${created.status} ${created.text.slice(0, 400)}`);
  return created.body.data.documentId;
}

test('relation-matrix: every relation kind, components and zones; localized types with and without draft and publish', async () => {
  const pair = await openWithWebhooks(`${diffName(import.meta.filename)}-matrix`, fixture('relation-matrix'));
  try {
    await pair.diff.same(
      async (api, side) =>
        withEvents(side, 'matrix', async ({ step }) => {
          const base = `${manager(side)}/collection-types/api::owner.owner`;
          let t = '';
          let owner = '';
          let label = '';
          let page = '';
          await step('create target', async () => {
            const created = await api.post('/api/targets', { data: { name: 'whm-t' } });
            t = idOf(side, created);
            return created;
          });
          const links = { caption: 'c', oneToOne: t, oneToMany: [t], manyToOne: t, manyToMany: [t] };
          await step('create owner', async () => {
            const created = await api.post('/api/owners', {
              data: {
                name: 'whm-o',
                oneToOneBi: t,
                oneToOneUni: t,
                oneToManyBi: [t],
                oneToManyUni: [t],
                manyToOneBi: t,
                manyToOneUni: t,
                manyToManyBi: [t],
                manyToManyUni: [t],
                block: links,
                blocks: [links],
                zone: [
                  { __component: 'matrix.links', ...links },
                  { __component: 'matrix.nested', heading: 'h', links: [links] },
                ],
              },
            });
            owner = idOf(side, created);
            return created;
          });
          await step('update owner draft', () =>
            api.put(`/api/owners/${owner}?status=draft`, { data: { name: 'whm-o2', zone: [] } }),
          );
          await step('unpublish owner', () => pair.admins[side].post(`${base}/${owner}/actions/unpublish`, {}));
          await step('delete owner', () => api.delete(`/api/owners/${owner}`));
          await step('create label', async () => {
            const created = await api.post('/api/labels', { data: { name: 'whm-l' } });
            label = idOf(side, created);
            return created;
          });
          await step('label fr', () => api.put(`/api/labels/${label}?locale=fr`, { data: { name: 'whm-l fr' } }));
          await step('create page', async () => {
            const created = await api.post('/api/pages', {
              data: {
                title: 'whm-p',
                target: t,
                labels: [label],
                links,
                sections: [{ __component: 'matrix.nested', heading: 'h', links: [links] }],
              },
            });
            page = idOf(side, created);
            return created;
          });
          await step('page fr', () => api.put(`/api/pages/${page}?locale=fr`, { data: { title: 'whm-p fr' } }));
          await step('delete page every locale', () => api.delete(`/api/pages/${page}?locale=*`));
          await step('delete label every locale', () => api.delete(`/api/labels/${label}?locale=*`));
        }),
      { ignoreKeys },
    );
  } finally {
    await pair.diff.close();
  }
});
