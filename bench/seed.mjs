#!/usr/bin/env node
// Copied from the implementation-neutral seeder in ../shared/bench (same shape, same PRNG) so the
// project benchmark runs on a fresh clone without the shared folder.
// Deterministic seeder for the "blog" fixture (shared/fixtures/blog), talking only to the
// Strapi v5 REST content API. Plain Node 20: global fetch, no npm dependencies.
//
// Env:
//   BASE_URL     default http://127.0.0.1:1337
//   TOKEN        optional; sent as "Authorization: Bearer <TOKEN>" (needed for create on Strapi)
//   N            number of articles (default 2000)
//   C, A, T      number of categories / authors / tags (defaults 12 / 50 / 40)
//   CONCURRENCY  in-flight requests (default 8)
//   SEED         PRNG seed (default 42)
//   DRAFT_RATIO  share of articles created with ?status=draft (default 0.25)
//   FR_RATIO     share of articles created with ?locale=fr (default 0.1)
//   QUIET=1      fewer progress lines
//
// Every payload is generated up front from one seeded PRNG (mulberry32), so the same env
// gives the same content whatever order the server answers in.

const BASE_URL = (process.env.BASE_URL || 'http://127.0.0.1:1337').replace(/\/+$/, '');
const TOKEN = process.env.TOKEN || '';
const N = int('N', 2000);
const C = int('C', 12);
const A = int('A', 50);
const T = int('T', 40);
const CONCURRENCY = int('CONCURRENCY', 8);
const SEED = int('SEED', 42);
const DRAFT_RATIO = num('DRAFT_RATIO', 0.25);
const FR_RATIO = num('FR_RATIO', 0.1);
const QUIET = process.env.QUIET === '1';

function int(name, d) {
  const v = process.env[name];
  return v === undefined || v === '' ? d : parseInt(v, 10);
}
function num(name, d) {
  const v = process.env[name];
  return v === undefined || v === '' ? d : Number(v);
}

// ---------- deterministic PRNG ----------
function mulberry32(a) {
  return function () {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(SEED);
const ri = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1)); // inclusive
const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
const sample = (arr, k) => {
  const a = arr.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, k);
};

const WORDS = (
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et ' +
  'dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo ' +
  'consequat duis aute irure reprehenderit voluptate velit esse cillum fugiat nulla pariatur excepteur sint ' +
  'occaecat cupidatat non proident sunt culpa qui officia deserunt mollit anim id est laborum'
).split(' ');
const FIRST = [
  'Ada',
  'Grace',
  'Linus',
  'Ken',
  'Dennis',
  'Barbara',
  'Edsger',
  'Donald',
  'Niklaus',
  'Bjarne',
  'Guido',
  'Yukihiro',
  'Brendan',
  'Margaret',
  'John',
  'Tim',
  'Whitfield',
  'Leslie',
  'Robin',
  'Judy',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Torvalds',
  'Thompson',
  'Ritchie',
  'Liskov',
  'Dijkstra',
  'Knuth',
  'Wirth',
  'Stroustrup',
  'Rossum',
  'Matsumoto',
  'Eich',
  'Hamilton',
  'McCarthy',
  'Berners',
  'Diffie',
  'Lamport',
  'Milner',
  'Pearl',
];
const KINDS = ['news', 'tutorial', 'opinion'];

const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const slugify = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const pad = (n, w) => String(n).padStart(w, '0');

// ---------- payload generation (all up front, deterministic) ----------
const categories = Array.from({ length: C }, (_, i) => {
  const name = `${cap(words(2))} ${i + 1}`;
  return { name, slug: slugify(name), description: cap(words(12)) + '.' };
});
const authors = Array.from({ length: A }, (_, i) => {
  const name = `${pick(FIRST)} ${pick(LAST)} ${i + 1}`;
  return { name, email: `${slugify(name)}@example.test`, bio: cap(words(20)) + '.' };
});
const tags = Array.from({ length: T }, (_, i) => ({ name: `${pick(WORDS)}-${i + 1}` }));
const globalData = {
  siteName: 'Bench Blog',
  siteDescription: 'Deterministic blog fixture for benchmarking.',
  defaultSeo: { metaTitle: 'Bench Blog', metaDescription: 'A seeded blog.' },
};

const baseDay = Date.UTC(2020, 0, 1);
const articles = Array.from({ length: N }, (_, i) => {
  const title = `${cap(words(ri(3, 7)))} ${i + 1}`;
  const paragraphs = Array.from({ length: ri(2, 5) }, () => cap(words(ri(20, 60))) + '.');
  const d = new Date(baseDay + ri(0, 5 * 365) * 86400000);
  const publishDate = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const nTags = ri(0, 5);
  const blocks = Array.from({ length: ri(1, 3) }, () => {
    const t = ri(0, 2);
    if (t === 0) return { __component: 'shared.quote', title: cap(words(3)), body: cap(words(25)) + '.' };
    if (t === 1) return { __component: 'shared.rich-text', body: `## ${cap(words(3))}\n\n${cap(words(40))}.` };
    return { __component: 'shared.media' };
  });
  const data = {
    title,
    slug: `${slugify(title)}-${i + 1}`,
    body: `# ${title}\n\n` + paragraphs.join('\n\n'),
    content: paragraphs.slice(0, 2).map((p) => ({ type: 'paragraph', children: [{ type: 'text', text: p }] })),
    views: ri(0, 1000),
    rating: Math.round((1 + rnd() * 4) * 100) / 100,
    featured: rnd() < 0.1,
    publishDate,
    kind: pick(KINDS),
    metadata: { readingTime: ri(1, 20), source: 'seed', seq: i + 1, flags: sample(['a', 'b', 'c', 'd'], ri(0, 3)) },
    author: ri(0, A - 1), // index, resolved to documentId before sending
    category: ri(0, C - 1),
    tags: sample(
      Array.from({ length: T }, (_, k) => k),
      nTags,
    ),
    seo: { metaTitle: title.slice(0, 60), metaDescription: cap(words(15)) + '.' },
    links: Array.from({ length: ri(1, 3) }, (_, k) => ({
      label: cap(words(2)),
      url: `https://example.test/${i + 1}/${k + 1}`,
    })),
    blocks,
  };
  const draft = rnd() < DRAFT_RATIO;
  const fr = rnd() < FR_RATIO;
  return { data, draft, fr };
});

// ---------- HTTP ----------
const headers = { 'content-type': 'application/json', accept: 'application/json' };
if (TOKEN) headers.authorization = `Bearer ${TOKEN}`;
let errors = 0;
const errorSamples = [];

async function send(method, path, body) {
  for (let attempt = 0; ; attempt++) {
    let res, text;
    try {
      res = await fetch(BASE_URL + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      text = await res.text();
    } catch (e) {
      if (attempt < 3) {
        await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
        continue;
      }
      throw e;
    }
    if (res.ok) return text ? JSON.parse(text) : null;
    if (res.status >= 500 && attempt < 3) {
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
      continue;
    }
    const err = new Error(`${method} ${path} -> ${res.status}: ${text.slice(0, 500)}`);
    err.status = res.status;
    throw err;
  }
}

async function pool(items, worker, label) {
  const out = new Array(items.length);
  let next = 0,
    done = 0;
  const t0 = performance.now();
  const step = Math.max(1, Math.floor(items.length / (QUIET ? 4 : 20)));
  async function run() {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      try {
        out[i] = await worker(items[i], i);
      } catch (e) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(String(e.message || e));
        out[i] = null;
      }
      done++;
      if (done % step === 0 || done === items.length) {
        const s = (performance.now() - t0) / 1000;
        console.log(`  ${label}: ${done}/${items.length} (${(done / s).toFixed(1)}/s, errors ${errors})`);
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, run));
  return out;
}

const docId = (r) => r && r.data && (r.data.documentId ?? r.data.id);

async function main() {
  console.log(
    `seed: BASE_URL=${BASE_URL} N=${N} C=${C} A=${A} T=${T} concurrency=${CONCURRENCY} seed=${SEED} token=${TOKEN ? 'yes' : 'no'}`,
  );
  const t0 = performance.now();

  const catIds = (await pool(categories, (c) => send('POST', '/api/categories', { data: c }), 'categories')).map(docId);
  const authIds = (await pool(authors, (a) => send('POST', '/api/authors', { data: a }), 'authors')).map(docId);
  const tagIds = (await pool(tags, (t) => send('POST', '/api/tags', { data: t }), 'tags')).map(docId);
  try {
    await send('PUT', '/api/global', { data: globalData });
    console.log('  global: ok');
  } catch (e) {
    errors++;
    errorSamples.push(String(e.message));
    console.log('  global: FAILED');
  }

  const tArt = performance.now();
  let drafts = 0,
    fr = 0;
  await pool(
    articles,
    async (a) => {
      const d = { ...a.data };
      d.author = authIds[d.author] ?? null;
      d.category = catIds[d.category] ?? null;
      d.tags = d.tags.map((k) => tagIds[k]).filter(Boolean);
      const qs = [];
      if (a.draft) {
        qs.push('status=draft');
        drafts++;
      }
      if (a.fr) {
        qs.push('locale=fr');
        fr++;
      }
      return send('POST', '/api/articles' + (qs.length ? '?' + qs.join('&') : ''), { data: d });
    },
    'articles',
  );
  const now = performance.now();
  const artS = (now - tArt) / 1000;
  console.log(`articles: ${N} in ${artS.toFixed(1)} s (${(N / artS).toFixed(1)}/s); drafts=${drafts} fr=${fr}`);
  console.log(`seed total: ${((now - t0) / 1000).toFixed(1)} s, errors: ${errors}`);
  if (errorSamples.length) console.log('error samples:\n  ' + errorSamples.join('\n  '));
  process.exitCode = errors ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
