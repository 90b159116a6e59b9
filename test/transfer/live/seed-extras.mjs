/* global FormData, Blob */
// Adds to a seeded blog Strapi: uploads linked everywhere media lives, a localized existing document,
// a published document with a newer draft, a third locale, users with passwords, a custom role.
import { readFileSync } from 'node:fs';
const BASE = process.env.BASE_URL;
const TOKEN = process.env.TOKEN;
const ADMIN_EMAIL = 'admin@example.com',
  ADMIN_PASSWORD = 'Admin-Passw0rd!';
async function call(method, path, body, auth = TOKEN, form) {
  const headers = { authorization: `Bearer ${auth}` };
  let payload;
  if (form) payload = form;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(BASE + path, { method, headers, body: payload });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}
async function upload(file, type, name) {
  const form = new FormData();
  form.append('files', new Blob([readFileSync(file)], { type }), name);
  form.append('fileInfo', JSON.stringify({ alternativeText: `alt of ${name}`, caption: `caption of ${name}` }));
  return (await call('POST', '/api/upload', undefined, TOKEN, form))[0];
}
const red = await upload(process.env.IMG1, 'image/png', 'red.png');
const blue = await upload(process.env.IMG2, 'image/jpeg', 'blue.jpg');
const note = await upload(process.env.TXT, 'text/plain', 'note.txt');
console.log('files', red.id, blue.id, note.id);
const arts = (await call('GET', '/api/articles?status=published&sort=id&pagination[pageSize]=5')).data;
const [a0, a1, a2] = arts;
await call('PUT', `/api/articles/${a0.documentId}`, {
  data: {
    cover: red.id,
    gallery: [blue.id, note.id, red.id],
    seo: { metaTitle: 'With image', metaDescription: 'x', shareImage: blue.id },
    blocks: [
      { __component: 'shared.quote', title: 'Q', body: 'B' },
      { __component: 'shared.media', file: red.id },
      { __component: 'shared.rich-text', body: 'rt' },
    ],
  },
});
// a fr version of an existing (en) document
await call('PUT', `/api/articles/${a1.documentId}?locale=fr`, {
  data: { title: `Le titre ${a1.documentId}`, body: 'Corps', links: [{ label: 'fr', url: 'https://fr.example' }] },
});
// a published document with a newer draft
await call('PUT', `/api/articles/${a2.documentId}?status=draft`, {
  data: { title: `${a2.title} (draft edit)`, views: 4242 },
});
const authors = (await call('GET', '/api/authors?sort=id&pagination[pageSize]=2')).data;
await call('PUT', `/api/authors/${authors[0].documentId}`, { data: { avatar: blue.id } });
await call('PUT', '/api/global', {
  data: { siteName: 'Bench Blog', defaultSeo: { metaTitle: 'Global', shareImage: red.id } },
});
// users
const users = [];
for (const [u, p] of [
  ['alice', 'Alice-Passw0rd'],
  ['bob', 'Bob-Passw0rd'],
]) {
  const r = await call(
    'POST',
    '/api/auth/local/register',
    { username: u, email: `${u}@example.test`, password: p },
    undefined,
  );
  users.push(r.user);
}
// admin: locale de and a custom role
let adminJwt;
try {
  adminJwt = (
    await call(
      'POST',
      '/admin/register-admin',
      { firstname: 'Ada', lastname: 'Admin', email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      undefined,
    )
  ).data.token;
} catch {
  adminJwt = (await call('POST', '/admin/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD }, undefined)).data
    .token;
}
try {
  await call('POST', '/i18n/locales', { code: 'de', name: 'German (de)', isDefault: false }, adminJwt);
} catch (e) {
  console.log(String(e.message).slice(0, 120));
}
const perms = {
  'api::tag': {
    controllers: { tag: { find: { enabled: true }, findOne: { enabled: true }, create: { enabled: true } } },
  },
};
try {
  await call(
    'POST',
    '/users-permissions/roles',
    { name: 'Editor', description: 'edits tags', permissions: perms },
    adminJwt,
  );
} catch (e) {
  console.log(String(e.message).slice(0, 200));
}
const roles = (await call('GET', '/users-permissions/roles', undefined, adminJwt)).roles;
const editor = roles.find((r) => r.name === 'Editor');
await call('PUT', `/api/users/${users[1].id}`, { role: editor.id });
console.log('done', { roles: roles.map((r) => r.name), users: users.map((u) => u.id) });
