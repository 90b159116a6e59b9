#!/usr/bin/env node
// Writes a large archive in Strapi's export format for the blog schema, to measure `vellum import`
// and `vellum export` at scale (docs/import-export.md):
//   DOCS=100000 FILES=200 FILE_MB=10 node bench/transfer-archive.mjs /tmp/big.tar.gz
// Every article has a draft and a published version with components (seo, links, a zone), an
// author, a category and tags; FILES files of FILE_MB random bytes are the covers of the first articles.
import { createWriteStream, mkdirSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { create } from 'tar';

const out = process.argv[2];
if (!out) throw new Error('usage: transfer-archive.mjs <out.tar.gz>');
const DOCS = Number(process.env.DOCS ?? 100000);
const FILES = Number(process.env.FILES ?? 200);
const FILE_MB = Number(process.env.FILE_MB ?? 10);
const work = join(tmpdir(), `vellum-big-${process.pid}`);
for (const dir of ['schemas', 'entities', 'links', 'configuration', 'assets/uploads', 'assets/metadata'])
  mkdirSync(join(work, dir), { recursive: true });

const id24 = (prefix, n) => `${prefix}${String(n).padStart(24 - prefix.length, '0')}`;
const now = '2026-01-02T03:04:05.678Z';
const lines = (file) => {
  const stream = createWriteStream(join(work, file));
  return {
    write: (value) =>
      stream.write(`${JSON.stringify(value)}\n`) ? undefined : new Promise((resolve) => stream.once('drain', resolve)),
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
};
const entities = lines('entities/entities_00001.jsonl');
const links = lines('links/links_00001.jsonl');
const system = (documentId, publishedAt, locale = null) => ({
  documentId,
  createdAt: now,
  updatedAt: now,
  publishedAt,
  locale,
});

const AUTHORS = 200,
  CATEGORIES = 20,
  TAGS = 100;
for (let i = 1; i <= FILES; i++) {
  const hash = `cover_${String(i).padStart(6, '0')}`;
  const file = {
    ...system(id24('f', i), now),
    name: `cover-${i}.bin`,
    alternativeText: null,
    caption: null,
    focalPoint: null,
    width: null,
    height: null,
    formats: null,
    hash,
    ext: '.bin',
    mime: 'application/octet-stream',
    size: FILE_MB * 1000,
    url: `/uploads/${hash}.bin`,
    previewUrl: null,
    provider: 'local',
    provider_metadata: null,
    folderPath: '/',
  };
  await entities.write({ type: 'plugin::upload.file', id: i, data: file });
  writeFileSync(join(work, 'assets/metadata', `${hash}.bin.json`), JSON.stringify({ id: i, ...file }));
  const fd = openSync(join(work, 'assets/uploads', `${hash}.bin`), 'w');
  for (let mb = 0; mb < FILE_MB; mb++) writeSync(fd, randomBytes(1024 * 1024));
  closeSync(fd);
}
for (let i = 1; i <= AUTHORS; i++)
  await entities.write({
    type: 'api::author.author',
    id: i,
    data: { ...system(id24('a', i), now), name: `Author ${i}`, email: `author${i}@example.test`, bio: 'Bio.' },
  });
for (let i = 1; i <= CATEGORIES; i++)
  await entities.write({
    type: 'api::category.category',
    id: i,
    data: { ...system(id24('c', i), now), name: `Category ${i}`, slug: `category-${i}`, description: 'About.' },
  });
for (let i = 1; i <= TAGS; i++)
  await entities.write({ type: 'api::tag.tag', id: i, data: { ...system(id24('t', i), now), name: `tag-${i}` } });
let component = 0;
for (let n = 1; n <= DOCS; n++) {
  for (const published of [false, true]) {
    const id = published ? DOCS + n : n;
    const title = `Article ${n}`;
    await entities.write({
      type: 'api::article.article',
      id,
      data: {
        ...system(id24('d', n), published ? now : null, 'en'),
        title,
        slug: `article-${n}`,
        body: `# ${title}\n\nLorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.`,
        content: [{ type: 'paragraph', children: [{ type: 'text', text: 'Lorem ipsum dolor sit amet.' }] }],
        views: n % 1000,
        rating: 4.5,
        featured: n % 10 === 0,
        publishDate: '2024-05-06',
        kind: 'news',
        metadata: { seq: n },
        seo: { id: ++component, metaTitle: title, metaDescription: 'Seo.' },
        links: [{ id: ++component, label: 'Link', url: `https://example.test/${n}` }],
        blocks: [{ id: ++component, __component: 'shared.quote', title: 'Quote', body: 'Body.' }],
      },
    });
    await links.write({
      kind: 'relation.basic',
      relation: 'manyToOne',
      left: { type: 'api::article.article', field: 'author', ref: id },
      right: { type: 'api::author.author', field: 'articles', ref: (n % AUTHORS) + 1, pos: n },
    });
    await links.write({
      kind: 'relation.basic',
      relation: 'manyToOne',
      left: { type: 'api::article.article', field: 'category', ref: id },
      right: { type: 'api::category.category', field: 'articles', ref: (n % CATEGORIES) + 1, pos: n },
    });
    for (let t = 0; t < 2; t++) {
      await links.write({
        kind: 'relation.basic',
        relation: 'manyToMany',
        left: { type: 'api::article.article', field: 'tags', ref: id, pos: t + 1 },
        right: { type: 'api::tag.tag', field: 'articles', ref: ((n + t) % TAGS) + 1, pos: n },
      });
    }
    if (n <= FILES)
      await links.write({
        kind: 'relation.morph',
        relation: 'morphToMany',
        left: { type: 'plugin::upload.file', field: 'related', ref: n },
        right: { ref: id, pos: 1, type: 'api::article.article', field: 'cover' },
      });
  }
}
await entities.close();
await links.close();
writeFileSync(join(work, 'schemas/schemas_00001.jsonl'), '');
writeFileSync(join(work, 'configuration/configuration_00001.jsonl'), '');
writeFileSync(join(work, 'metadata.json'), JSON.stringify({ createdAt: now, strapi: { version: '5.54.0' } }));
await create({ gzip: !out.endsWith('.tar'), file: out, cwd: work, portable: true }, [
  'schemas',
  'entities',
  'assets',
  'links',
  'configuration',
  'metadata.json',
]);
rmSync(work, { recursive: true, force: true });
console.log(`${out}: ${DOCS} documents (${DOCS * 2} versions), ${FILES} files of ${FILE_MB} MB`);
