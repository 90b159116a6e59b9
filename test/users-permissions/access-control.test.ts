/**
 * Access control beyond the route's own permission (docs/security.md "Access control"): linking
 * an upload into a document needs `update` on its type, replacing a file needs the upload plugin's
 * `update`; a write may not link documents of a type the caller may not read (answered as unknown
 * ones); media is populated only for callers that may read files; drafts are read by editors and
 * API tokens (`rest.draftAccess`), or by whoever may find the type (`draftAccess: 'find'`).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { HttpClient } from '../helpers/http.js';
import { startServer, DIALECTS, type TestServer } from '../helpers/server.js';
import { png, startUploadServer, type UploadPart, type UploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A client for a user whose own new role holds exactly `actions`. */
async function asRole(server: TestServer, actions: string[]): Promise<HttpClient> {
  const { roles, users, jwt } = server.vellum.auth;
  const role = await roles.create(unique('role'));
  await roles.grant(role.documentId, actions);
  const name = unique('user');
  const user = await users.create({
    username: name,
    email: `${name}@example.com`,
    password: 'secret123',
    role: role.documentId,
  });
  return new HttpClient(server.url, bearer(await jwt.sign(user.id as number)));
}

/** A client for a new custom API token holding exactly `actions`. */
async function asToken(
  server: TestServer,
  actions: string[],
  type: 'custom' | 'read-only' = 'custom',
): Promise<HttpClient> {
  const { accessKey } = await server.vellum.auth.tokens.create({
    name: unique('token'),
    type,
    permissions: type === 'custom' ? actions : undefined,
  });
  return new HttpClient(server.url, bearer(accessKey));
}

/** `POST /api/upload` (or `path`) as `client`. */
async function uploadAs(
  client: HttpClient,
  files: UploadPart[],
  fields: Record<string, string> = {},
  path = '/api/upload',
) {
  const form = new FormData();
  for (const file of files)
    form.append(
      'files',
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const response = await fetch(client.baseUrl + path, { method: 'POST', body: form, headers: client.defaultHeaders });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The same answer with the id it names (as a value, or a word in a text) replaced by a label. */
function withoutIds(body: unknown, id: string | number): unknown {
  if (body === id) return 'ID';
  if (typeof body === 'string') return body.replace(new RegExp(`\\b${id}\\b`, 'g'), 'ID');
  if (Array.isArray(body)) return body.map((item) => withoutIds(item, id));
  if (body && typeof body === 'object')
    return Object.fromEntries(Object.entries(body).map(([key, value]) => [key, withoutIds(value, id)]));
  return body;
}

for (const dialect of DIALECTS) {
  describe(`access control [${dialect}]`, () => {
    let server: UploadServer;
    before(async () => {
      server = await startUploadServer(dialect);
    });
    after(() => server?.close());

    const article = async (data: Record<string, unknown> = {}, query = '') =>
      (await server.api.post(`/api/articles${query}`, { data: { title: unique('a'), ...data } })).body.data as {
        id: number;
        documentId: string;
      };
    const author = async () =>
      (await server.api.post('/api/authors', { data: { name: unique('au') } })).body.data as {
        id: number;
        documentId: string;
      };
    const uploaded = async () =>
      (await uploadAs(server.api, [{ name: 'f.png', bytes: await png(4, 4) }])).body[0] as {
        id: number;
        name: string;
        url: string;
      };

    describe('upload links and replaces (point 5)', () => {
      it('linking an upload into a document needs update on its content-type: 403 before anything is stored', async () => {
        const target = await article();
        const uploader = await asRole(server, ['plugin::upload.content-api.upload']);
        const link = { ref: 'api::article.article', refId: target.documentId, field: 'cover' };
        const stored = server.stored();
        const refused = await uploadAs(uploader, [{ name: 'x.png', bytes: await png(4, 4) }], link);
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        assert.equal(refused.body.error.name, 'ForbiddenError');
        assert.deepEqual(server.stored(), stored, 'nothing stored');
        // An unknown document gets the same answer: a refusal tells nothing of which exist.
        const unknown = await uploadAs(uploader, [{ name: 'x.png', bytes: await png(4, 4) }], {
          ...link,
          refId: 'nosuchdocumentid00000000',
        });
        assert.deepEqual(unknown, refused);
        assert.equal((await server.api.get(`/api/articles/${target.documentId}?populate=cover`)).body.data.cover, null);

        const editor = await asRole(server, ['plugin::upload.content-api.upload', 'api::article.article.update']);
        const linked = await uploadAs(editor, [{ name: 'y.png', bytes: await png(4, 4) }], link);
        assert.equal(linked.status, 201, JSON.stringify(linked.body));
        assert.equal(
          (await server.api.get(`/api/articles/${target.documentId}?populate=cover`)).body.data.cover.id,
          linked.body[0].id,
        );
      });

      it('linking into a component needs update on the content-type of the document holding it', async () => {
        const target = await article({ seo: { metaTitle: 'm' } });
        const seoId = (await server.api.get(`/api/articles/${target.documentId}?populate=seo`)).body.data.seo
          .id as number;
        const link = { ref: 'shared.seo', refId: String(seoId), field: 'shareImage' };
        const refused = await uploadAs(
          await asRole(server, ['plugin::upload.content-api.upload', 'api::author.author.update']),
          [{ name: 'x.png', bytes: await png(4, 4) }],
          link,
        );
        assert.equal(refused.status, 403, JSON.stringify(refused.body));
        const editor = await asRole(server, ['plugin::upload.content-api.upload', 'api::article.article.update']);
        const linked = await uploadAs(editor, [{ name: 'y.png', bytes: await png(4, 4) }], link);
        assert.equal(linked.status, 201, JSON.stringify(linked.body));
        const seo = (await server.api.get(`/api/articles/${target.documentId}?populate[seo][populate]=shareImage`)).body
          .data.seo;
        assert.equal(seo.shareImage.id, linked.body[0].id);
      });

      it("replacing a file's bytes or info needs the upload plugin's update, a grant apart from upload", async () => {
        const file = await uploaded();
        const uploader = await asRole(server, [
          'plugin::upload.content-api.upload',
          'plugin::upload.content-api.findOne',
        ]);
        const renamed = await uploadAs(
          uploader,
          [],
          { fileInfo: JSON.stringify({ name: 'renamed.png' }) },
          `/api/upload?id=${file.id}`,
        );
        assert.equal(renamed.status, 403, JSON.stringify(renamed.body));
        const replaced = await uploadAs(
          uploader,
          [{ name: 'other.png', bytes: await png(8, 8) }],
          {},
          `/api/upload?id=${file.id}`,
        );
        assert.equal(replaced.status, 403, JSON.stringify(replaced.body));
        const kept = (await server.api.get(`/api/upload/files/${file.id}`)).body;
        assert.deepEqual([kept.name, kept.url], [file.name, file.url]);

        const updater = await asRole(server, ['plugin::upload.content-api.update']);
        const done = await uploadAs(
          updater,
          [{ name: 'other.png', bytes: await png(8, 8) }],
          { fileInfo: JSON.stringify({ name: 'renamed.png' }) },
          `/api/upload?id=${file.id}`,
        );
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.name, 'renamed.png');
        assert.notEqual(done.body.url, file.url);
        // `update` alone uploads nothing new.
        assert.equal((await uploadAs(updater, [{ name: 'new.png', bytes: await png(4, 4) }])).status, 403);
      });
    });

    describe('relation writes respect read permission (point 6)', () => {
      it('connecting a target of a type the writer may not find is the 400 of an unknown one, in every form', async () => {
        const known = await author();
        const writer = await asRole(server, ['api::article.article.create', 'api::article.article.update']);
        const unknownDocumentId = 'nosuchdocumentid00000000';
        const unknownId = 2_000_000_000;
        const forms: [string, (ref: string | number) => unknown, string | number, string | number][] = [
          ['shorthand documentId', (ref) => ref, known.documentId, unknownDocumentId],
          ['numeric id', (ref) => ref, known.id, unknownId],
          ['connect', (ref) => ({ connect: [ref] }), known.documentId, unknownDocumentId],
          ['set of {id}', (ref) => ({ set: [{ id: ref }] }), known.id, unknownId],
        ];
        const title = unique('linked');
        for (const [form, value, existing, missing] of forms) {
          const refused = await writer.post('/api/articles', { data: { title, author: value(existing) } });
          const unknown = await writer.post('/api/articles', { data: { title, author: value(missing) } });
          assert.equal(refused.status, 400, `${form}: ${refused.text}`);
          assert.deepEqual(withoutIds(refused.body, existing), withoutIds(unknown.body, missing), form);
        }
        assert.equal(
          (await server.api.get(`/api/articles?status=draft&filters[title][$eq]=${title}`)).body.data.length,
          0,
          'nothing created',
        );

        // Updating an existing document likewise; it keeps its author.
        const owned = await article({ author: known.documentId });
        const other = await author();
        const changed = await writer.put(`/api/articles/${owned.documentId}`, { data: { author: other.documentId } });
        assert.equal(changed.status, 400, changed.text);
        assert.equal(
          (await server.api.get(`/api/articles/${owned.documentId}?populate=author`)).body.data.author.documentId,
          known.documentId,
        );
        // Disconnecting one disconnects nothing (as an unknown one); `null` still clears the relation.
        assert.equal(
          (
            await writer.put(`/api/articles/${owned.documentId}`, {
              data: { author: { disconnect: [known.documentId] } },
            })
          ).status,
          200,
        );
        assert.equal(
          (await server.api.get(`/api/articles/${owned.documentId}?populate=author`)).body.data.author.documentId,
          known.documentId,
        );
        assert.equal((await writer.put(`/api/articles/${owned.documentId}`, { data: { author: null } })).status, 200);
        assert.equal(
          (await server.api.get(`/api/articles/${owned.documentId}?populate=author`)).body.data.author,
          null,
        );

        const reader = await asRole(server, ['api::article.article.create', 'api::author.author.find']);
        const linked = await reader.post('/api/articles', { data: { title: unique('ok'), author: known.documentId } });
        assert.equal(linked.status, 201, linked.text);
      });

      it('from the inverse side (author.articles) too', async () => {
        const target = await article();
        const mine = await author();
        const writer = await asRole(server, ['api::author.author.update']);
        const refused = await writer.put(`/api/authors/${mine.documentId}`, {
          data: { articles: { connect: [target.documentId] } },
        });
        const unknown = await writer.put(`/api/authors/${mine.documentId}`, {
          data: { articles: { connect: ['nosuchdocumentid00000000'] } },
        });
        assert.equal(refused.status, 400, refused.text);
        assert.deepEqual(
          withoutIds(refused.body, target.documentId),
          withoutIds(unknown.body, 'nosuchdocumentid00000000'),
        );
        assert.equal(
          (await server.api.get(`/api/articles/${target.documentId}?populate=author`)).body.data.author,
          null,
        );
      });

      it('GraphQL writes answer as REST', async () => {
        const known = await author();
        const writer = await asRole(server, ['api::article.article.create']);
        const create = (ref: string) =>
          graphql(
            server,
            `
              mutation ($data: ArticleInput!) {
                createArticle(data: $data) {
                  data {
                    id
                  }
                }
              }
            `,
            { data: { title: unique('gq'), author: ref } },
            { anonymous: true, headers: writer.defaultHeaders },
          );
        const refused = await create(known.documentId);
        const unknown = await create('nosuchdocumentid00000000');
        assert.equal(refused.body.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(refused.body));
        assert.deepEqual(
          withoutIds(refused.body, known.documentId),
          withoutIds(unknown.body, 'nosuchdocumentid00000000'),
        );
      });
    });

    describe('media populate respects the upload read grant (point 7)', () => {
      it('media is left out of populate for a caller without plugin::upload.content-api.find, as relations', async () => {
        const file = await uploaded();
        const target = await article({
          cover: file.id,
          gallery: [file.id],
          seo: { metaTitle: 'm', shareImage: file.id },
        });
        const path = `/api/articles/${target.documentId}?populate[cover]=true&populate[gallery]=true&populate[seo][populate]=shareImage`;
        const blind = await asRole(server, ['api::article.article.findOne']);
        const hidden = (await blind.get(path)).body.data;
        assert.deepEqual(
          [hidden.cover, hidden.gallery, hidden.seo.shareImage, hidden.seo.metaTitle],
          [undefined, undefined, undefined, 'm'],
        );
        assert.equal((await blind.get(`/api/articles/${target.documentId}?populate=*`)).body.data.cover, undefined);
        const query = `{ article(id: "${target.documentId}") { data { attributes { cover { data { id } } } } } }`;
        const gql = await graphql(server, query, {}, { anonymous: true, headers: blind.defaultHeaders });
        assert.equal(gql.body.data?.article.data.attributes.cover.data, null, JSON.stringify(gql.body));

        const seeing = await asRole(server, ['api::article.article.findOne', 'plugin::upload.content-api.find']);
        const shown = (await seeing.get(path)).body.data;
        assert.deepEqual(
          [shown.cover.id, shown.gallery.map((f: { id: number }) => f.id), shown.seo.shareImage.id],
          [file.id, [file.id], file.id],
        );
      });
    });

    describe('drafts (point 8)', () => {
      it('Public may not read drafts (403), in REST and GraphQL; published reads are unchanged', async () => {
        const draft = await article({}, '?status=draft');
        for (const path of [
          `/api/articles?status=draft&filters[documentId][$eq]=${draft.documentId}`,
          `/api/articles/${draft.documentId}?status=draft`,
          `/api/articles?publicationFilter=never-published`,
          `/api/articles?hasPublishedVersion=false`,
        ]) {
          const res = await server.publicApi.get(path);
          assert.equal(res.status, 403, `${path}: ${res.text}`);
          assert.equal(res.body.error.name, 'ForbiddenError');
        }
        assert.equal((await server.publicApi.get('/api/articles?status=published')).status, 200);
        const gql = await graphql(
          server,
          `{ articles(publicationState: PREVIEW, filters: { id: { eq: "${draft.documentId}" } }) { data { id } } }`,
          {},
          { anonymous: true },
        );
        assert.equal(gql.body.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(gql.body));
      });

      it('a role that may create or update the type reads its drafts; API tokens read drafts of what they may find', async () => {
        const draft = await article({}, '?status=draft');
        const path = `/api/articles?status=draft&filters[documentId][$eq]=${draft.documentId}`;
        const ids = async (client: HttpClient) => {
          const res = await client.get(path);
          assert.equal(res.status, 200, res.text);
          return res.body.data.map((d: { documentId: string }) => d.documentId);
        };
        assert.deepEqual(
          await ids(await asRole(server, ['api::article.article.find', 'api::article.article.update'])),
          [draft.documentId],
        );
        assert.deepEqual(
          await ids(await asRole(server, ['api::article.article.find', 'api::article.article.create'])),
          [draft.documentId],
        );
        assert.deepEqual(await ids(await asToken(server, [], 'read-only')), [draft.documentId]);
        // A token and a role of equal grants: the token's answer (cached) is not the role's.
        assert.deepEqual(await ids(await asToken(server, ['api::article.article.find'])), [draft.documentId]);
        assert.equal((await (await asRole(server, ['api::article.article.find'])).get(path)).status, 403);
      });

      it('in a read of drafts, relations to types whose drafts the caller may not read are left out', async () => {
        const owner = await author();
        const draft = await article({ author: owner.documentId }, '?status=draft');
        const path = `/api/authors/${owner.documentId}?status=draft&populate=articles`;
        assert.equal((await server.publicApi.get(path)).body.data.articles, undefined);
        const editor = await asRole(server, [
          'api::author.author.findOne',
          'api::article.article.find',
          'api::article.article.update',
        ]);
        assert.deepEqual(
          (await editor.get(path)).body.data.articles.map((a: { documentId: string }) => a.documentId),
          [draft.documentId],
        );
        assert.equal(
          (await server.publicApi.get(`/api/authors/${owner.documentId}?status=draft&filters[articles][title][$eq]=x`))
            .status,
          400,
        );
      });

      it('a caller that may delete a type reads the draft it deletes (earlier response format)', async () => {
        const draft = await article({}, '?status=draft');
        const deleter = await asRole(server, ['api::article.article.delete']);
        const res = await deleter.delete(`/api/articles/${draft.documentId}`, {
          headers: { 'Strapi-Response-Format': 'v4' },
        });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body.data.attributes.title !== undefined, true);
      });

      it("rest.draftAccess: 'find' is Strapi's rule: whoever may find a type reads its drafts", async () => {
        const strapiLike = await startServer(dialect, {
          nodeOf: server,
          config: { api: { rest: { draftAccess: 'find' } } },
        });
        try {
          const draft = await article({}, '?status=draft');
          const res = await strapiLike.publicApi.get(
            `/api/articles?status=draft&filters[documentId][$eq]=${draft.documentId}`,
          );
          assert.equal(res.status, 200, res.text);
          assert.equal(res.body.data[0].documentId, draft.documentId);
        } finally {
          await strapiLike.close();
        }
      });
    });
  });
}
