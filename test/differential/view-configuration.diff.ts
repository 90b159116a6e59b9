/**
 * The content manager's view configuration at Strapi 5.54's paths, side by side with Strapi:
 * `GET|PUT /content-manager/content-types/:uid/configuration`, `GET|PUT
 * /content-manager/components/:uid/configuration`, `GET /content-manager/content-types-settings`:
 * the defaults Strapi generates for a type with no stored configuration, a change and what it
 * answers after, and the refusals of bad ones. On demand: `npm run test:strapi -- view-configuration`.
 */
import { after, before, test } from 'node:test';
import { HttpClient, type Response } from '../helpers/http.js';
import { diffName, adminSessions, openDifferential, type Differential, type Side } from './harness.js';

const CM = '/content-manager';
type Metadatas = Record<string, { edit: Record<string, unknown>; list: Record<string, unknown> }>;

/** A configuration as read, made a change's body as Strapi's panel sends it: without each list's main field. */
interface Configuration {
  metadatas: Metadatas;
  settings: Record<string, unknown>;
  layouts: Record<string, unknown>;
  [key: string]: unknown;
}
function body(read: Configuration): Configuration {
  const { uid: _uid, ...rest } = structuredClone(read);
  for (const meta of Object.values(rest.metadatas)) delete meta.list.mainField;
  return rest;
}

let diff: Differential;
const sessions: Partial<Record<Side, HttpClient>> = {};

before(async () => {
  diff = await openDifferential({ name: diffName(import.meta.filename) });
  Object.assign(sessions, await adminSessions(diff));
});
after(() => diff?.close());

test('the default configurations', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const answers: Record<string, Response> = {};
      for (const uid of ['api::article.article', 'api::tag.tag', 'api::author.author', 'api::global.global'])
        answers[uid] = await client.get(`${CM}/content-types/${uid}/configuration`);
      answers.seo = await client.get(`${CM}/components/shared.seo/configuration`);
      answers.unknown = await client.get(`${CM}/content-types/api::nope.nope/configuration`);
      return answers;
    },
    { messages: true },
  );
});

test('a change of the list and the edit view, answered and read back', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const path = `${CM}/content-types/api::article.article/configuration`;
      const current = body((await client.get(path)).body.data.contentType);
      const metadatas = current.metadatas;
      metadatas.title.edit = {
        ...metadatas.title.edit,
        label: 'Headline',
        description: 'The title',
        placeholder: 'Write it',
      };
      metadatas.title.list.label = 'Headline';
      metadatas.author.edit.mainField = 'email';
      const answers: Record<string, Response> = {};
      answers.changed = await client.put(path, {
        ...current,
        settings: {
          ...current.settings,
          pageSize: 20,
          mainField: 'slug',
          defaultSortBy: 'views',
          defaultSortOrder: 'DESC',
        },
        metadatas,
        layouts: { ...current.layouts, list: ['title', 'author', 'views'] },
      });
      answers.read = await client.get(path);
      const {
        category: _c,
        isComponent: _i,
        ...seo
      } = body((await client.get(`${CM}/components/shared.seo/configuration`)).body.data.component);
      answers.component = await client.put(`${CM}/components/shared.seo/configuration`, {
        ...seo,
        settings: { bulkable: true, filterable: true, searchable: true, pageSize: 10, mainField: 'metaDescription' },
      });
      return answers;
    },
    { messages: true },
  );
});

test('every type’s settings', async () => {
  await diff.same(async (_api, side) => sessions[side]!.get(`${CM}/content-types-settings`), {
    messages: true,
    deliberate:
      'Vellum lists the types of the project and its own; Strapi also lists its plugins’ (releases, workflows, folders, ...)',
  });
});

test('refused changes', async () => {
  await diff.same(
    async (_api, side) => {
      const client = sessions[side]!;
      const path = `${CM}/content-types/api::tag.tag/configuration`;
      const read = (await client.get(path)).body.data.contentType;
      const current = body(read);
      return {
        asRead: await client.put(path, { ...read, uid: undefined }),
        notBoolean: await client.put(path, { ...current, settings: { ...current.settings, bulkable: 'yes' } }),
        label: await client.put(path, {
          ...current,
          metadatas: { ...current.metadatas, name: { edit: { label: 3 }, list: {} } },
        }),
        row: await client.put(path, {
          ...current,
          layouts: { ...current.layouts, edit: [[{ name: 'createdAt', size: 0 }]] },
        }),
        pageSize: await client.put(path, { ...current, settings: { ...current.settings, pageSize: 5 } }),
        column: await client.put(path, { ...current, layouts: { ...current.layouts, list: ['nope'] } }),
        unknown: await client.put(`${CM}/content-types/api::nope.nope/configuration`, current),
      };
    },
    { messages: true },
  );
});
