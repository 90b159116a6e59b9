/**
 * The admin panel's media library API on every dialect: `GET /admin/upload/files` answers a page
 * (`{ results, pagination }`, as Strapi's admin does) searched, filtered by kind and sorted;
 * `POST /admin/upload?id=` edits a file's name, alternative text and caption (JSON or multipart),
 * which the content API then answers; bad input is a 4xx naming the problem.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpClient } from '../helpers/http.js';
import { adminClient } from '../helpers/admins.js';
import { DIALECTS } from '../helpers/server.js';
import { pdf, png, startUploadServer, upload, type UploadPart, type UploadServer } from '../helpers/uploads.js';
import { unique } from '../helpers/unique.js';

const FILES = '/admin/upload/files';

for (const dialect of DIALECTS) {
  describe(`admin media library API [${dialect}]`, () => {
    let server: UploadServer;
    let admin: HttpClient;
    /** `POST /admin/upload` (multipart) as the administrator. */
    const adminUpload = (files: UploadPart[], fields: Record<string, string> = {}, path = '/admin/upload') =>
      upload({ ...server, authHeaders: admin.defaultHeaders }, files, fields, path);
    const prefix = unique('lib');

    before(async () => {
      server = await startUploadServer(dialect);
      admin = (await adminClient(server)).client;
      const uploaded = await adminUpload([
        { name: `${prefix}-b.png`, bytes: await png(40, 30) },
        { name: `${prefix}-a.png`, bytes: await png(20, 20) },
        { name: `${prefix}-c.pdf`, bytes: pdf() },
      ]);
      assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    });
    after(() => server?.close());

    const search = `filters[name][$startsWith]=${prefix}`;

    it('answers a page of files with its count; page and pageSize work at the top level too', async () => {
      const first = await admin.get(`${FILES}?${search}&pagination[pageSize]=2&sort=name:asc`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.deepEqual(first.body.pagination, { page: 1, pageSize: 2, pageCount: 2, total: 3 });
      assert.deepEqual(
        first.body.results.map((f: any) => f.name),
        [`${prefix}-a.png`, `${prefix}-b.png`],
      );
      assert.equal(first.body.results[0].isUrlSigned, false);
      const second = await admin.get(`${FILES}?${search}&page=2&pageSize=2&sort=name:asc`);
      assert.deepEqual(
        second.body.results.map((f: any) => f.name),
        [`${prefix}-c.pdf`],
      );
      assert.equal(second.body.pagination.page, 2);
      // The content API keeps its bare array.
      const content = await server.api.get(`/api/upload/files?${search}`);
      assert.ok(Array.isArray(content.body));
      assert.equal(content.body.length, 3);
    });

    it('filters by kind (MIME type) and sorts by name or date', async () => {
      const images = await admin.get(`${FILES}?${search}&filters[mime][$startsWith]=image/&sort=name:desc`);
      assert.deepEqual(
        images.body.results.map((f: any) => f.name),
        [`${prefix}-b.png`, `${prefix}-a.png`],
      );
      const others = await admin.get(
        `${FILES}?${search}&filters[$and][0][mime][$notContains]=image/&filters[$and][1][mime][$notContains]=video/&filters[$and][2][mime][$notContains]=audio/`,
      );
      assert.deepEqual(
        others.body.results.map((f: any) => f.mime),
        ['application/pdf'],
      );
      const newest = await admin.get(`${FILES}?${search}&sort=createdAt:desc&sort=id:desc`);
      assert.equal(newest.body.results.length, 3);
      const searched = await admin.get(`${FILES}?filters[name][$containsi]=${encodeURIComponent(`${prefix}-A`)}`);
      assert.deepEqual(
        searched.body.results.map((f: any) => f.name),
        [`${prefix}-a.png`],
      );
    });

    it("edits a file's name, alternative text and caption (JSON or multipart); the content API answers them", async () => {
      const [file] = (await admin.get(`${FILES}?${search}&filters[name][$endsWith]=-a.png`)).body.results;
      const json = await admin.post(`/admin/upload?id=${file.id}`, {
        fileInfo: { alternativeText: 'A blue square', caption: 'Blue', name: `${prefix}-square.png` },
      });
      assert.equal(json.status, 200, JSON.stringify(json.body));
      assert.deepEqual(
        [json.body.alternativeText, json.body.caption, json.body.name, json.body.url],
        ['A blue square', 'Blue', `${prefix}-square.png`, file.url],
      );
      const form = await adminUpload(
        [],
        { fileInfo: JSON.stringify({ caption: null }) },
        `/admin/upload?id=${file.id}`,
      );
      assert.equal(form.status, 200, JSON.stringify(form.body));
      const read = await server.api.get(`/api/upload/files/${file.id}`);
      assert.deepEqual(
        [read.body.alternativeText, read.body.caption, read.body.name],
        ['A blue square', null, `${prefix}-square.png`],
      );
      // The content API's way, for a token with the upload's update grant.
      const viaApi = await server.api.post(`/api/upload?id=${file.id}`, { fileInfo: { caption: 'From the API' } });
      assert.equal(viaApi.status, 200, JSON.stringify(viaApi.body));
      assert.equal((await admin.get(`${FILES}/${file.id}`)).body.caption, 'From the API');
    });

    it('refuses bad input with a 4xx naming the problem, and other callers with 401', async () => {
      const [file] = (await admin.get(`${FILES}?${search}&pagination[pageSize]=1`)).body.results;
      const emptyName = await admin.post(`/admin/upload?id=${file.id}`, { fileInfo: { name: '' } });
      assert.equal(emptyName.status, 400);
      assert.match(emptyName.body.error.message, /fileInfo\.name/);
      const wrongType = await admin.post(`/admin/upload?id=${file.id}`, { fileInfo: { alternativeText: 42 } });
      assert.equal(wrongType.status, 400);
      assert.match(wrongType.body.error.message, /alternativeText/);
      const badId = await admin.post('/admin/upload?id=abc', { fileInfo: {} });
      assert.equal(badId.status, 400);
      assert.match(badId.body.error.message, /file id/);
      assert.equal((await admin.post('/admin/upload?id=999999', { fileInfo: {} })).status, 404);
      const badPage = await admin.get(`${FILES}?pageSize=many`);
      assert.equal(badPage.status, 400, JSON.stringify(badPage.body));
      assert.equal((await server.api.post(`/admin/upload?id=${file.id}`, { fileInfo: { caption: 'x' } })).status, 401);
      assert.equal((await server.api.get(FILES)).status, 401);
    });

    it('deletes a file: gone from the list, the content API and storage', async () => {
      const [file] = (await admin.get(`${FILES}?${search}&filters[mime][$eq]=application/pdf`)).body.results;
      assert.ok(server.isStored(file.url));
      assert.equal((await admin.delete(`${FILES}/${file.id}`)).status, 200);
      assert.equal(server.isStored(file.url), false);
      assert.equal((await server.api.get(`/api/upload/files/${file.id}`)).status, 404);
      assert.equal((await admin.get(`${FILES}?${search}`)).body.pagination.total, 2);
    });
  });
}
