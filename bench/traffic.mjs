// The traffic of a real site, for bench/run.mjs (Vellum) and bench/mixed.mjs (any server with
// Strapi v5's content API and the blog fixture seeded by bench/seed.mjs, Strapi itself too):
// about 600 distinct read URLs, generated deterministically from the seeded data, and wrk's Lua
// script that cycles through them, optionally with one `PUT` (an update of an article) in every
// `writeEvery` requests.
//
// Plain Node 20 (global fetch), no npm dependencies: the same requests against every server.
import { writeFileSync } from 'node:fs';

/** The seeder's PRNG (mulberry32), another seed: the same list on every run and every server. */
function mulberry32(a) {
  return function () {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * fetch, once more when the connection fails: a server closes an idle keep-alive connection at its
 * timeout, and the client may have sent on it in the same moment.
 */
export const fetchRetry = (url, init) => fetch(url, init).catch(() => fetch(url, init));

const encode = (path) => path.replace(/\[/g, '%5B').replace(/\]/g, '%5D').replace(/ /g, '%20');

async function getAll(base, token, path, fields) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const rows = [];
  for (let page = 1; ; page++) {
    const select = fields.map((f, i) => `fields[${i}]=${f}`).join('&');
    const res = await fetchRetry(
      encode(`${base}${path}?${select}&sort[0]=${fields[0]}:asc&pagination[pageSize]=100&pagination[page]=${page}`),
      { headers },
    );
    if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
    const body = await res.json();
    rows.push(...body.data);
    if (page >= (body.meta?.pagination?.pageCount ?? 1)) return rows;
  }
}

/**
 * The read paths (about `count`, default 600) and the articles a write updates, from the seeded
 * data as the server answers it (sorted by seeded values, never by ids or documentIds, which
 * differ between servers).
 */
export async function buildTraffic(base, token, count = 600) {
  const [articles, authors, categories, tags] = await Promise.all([
    getAll(base, token, '/api/articles', ['slug', 'title']),
    getAll(base, token, '/api/authors', ['name']),
    getAll(base, token, '/api/categories', ['slug', 'name']),
    getAll(base, token, '/api/tags', ['name']),
  ]);
  if (!articles.length || !authors.length || !categories.length || !tags.length)
    throw new Error('seed the blog fixture first (bench/seed.mjs)');
  const rnd = mulberry32(2024);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const quarter = Math.round(count / 4);
  const paths = new Set();
  // Each kind fills its share of the list, or all it can (a small seed has few documents).
  const fill = (goal, path) => {
    for (let misses = 0; paths.size < goal && misses < 1000;) {
      const p = path();
      if (paths.has(p)) misses++;
      else paths.add(p);
    }
  };
  const sorts = ['publishDate:desc', 'title:asc', 'views:desc', 'rating:desc', 'createdAt:desc', 'slug:asc'];
  const pageCount = (size) => Math.max(1, Math.floor(articles.length / size));
  // Pages of the list under several sorts and page sizes.
  fill(quarter, () => {
    const size = pick([10, 25, 25, 50]);
    return `/api/articles?sort[0]=${pick(sorts)}&pagination[page]=${int(1, Math.min(40, pageCount(size)))}&pagination[pageSize]=${size}`;
  });
  // Filters on the article's own fields, with varying values.
  const words = [...new Set(articles.map((a) => a.title.split(' ')[0].toLowerCase()))];
  const filters = [
    () => `filters[views][$gt]=${int(0, 99) * 10}&sort[0]=views:asc`,
    () => `filters[views][$between][0]=${int(0, 90) * 10}&filters[views][$between][1]=${int(10, 100) * 10}`,
    () =>
      `filters[kind][$eq]=${pick(['news', 'tutorial', 'opinion'])}&sort[0]=publishDate:desc&pagination[page]=${int(1, 10)}`,
    () =>
      `filters[publishDate][$gte]=${2020 + int(0, 4)}-${String(int(1, 12)).padStart(2, '0')}-01&sort[0]=publishDate:asc`,
    () => `filters[title][$containsi]=${pick(words)}`,
    () => `filters[rating][$gte]=${int(10, 50) / 10}&filters[featured][$eq]=${pick(['true', 'false'])}`,
  ];
  fill(paths.size + quarter, () => `/api/articles?${pick(filters)()}`);
  // Single documents with a deep populate.
  const deep =
    'populate[author][populate][0]=avatar&populate[category]=true&populate[tags]=true&populate[seo][populate]=*&populate[blocks][populate]=*';
  fill(paths.size + quarter, () => `/api/articles/${pick(articles).documentId}?${deep}`);
  // Deep filters: through relations, with varying values.
  const firstNames = [...new Set(authors.map((a) => a.name.split(' ')[0]))];
  const deepFilters = [
    () => `filters[author][name][$containsi]=${pick(firstNames)}`,
    () => `filters[author][name][$eq]=${pick(authors).name}&populate[author]=true`,
    () => `filters[category][slug][$eq]=${pick(categories).slug}&sort[0]=publishDate:desc`,
    () => `filters[tags][name][$eq]=${pick(tags).name}&populate[tags]=true`,
    () =>
      `filters[$or][0][category][slug][$eq]=${pick(categories).slug}&filters[$or][1][tags][name][$eq]=${pick(tags).name}`,
    () =>
      `filters[category][name][$containsi]=${pick(categories).name.split(' ')[0]}&filters[views][$gt]=${int(0, 9) * 100}`,
  ];
  fill(count, () => `/api/articles?${pick(deepFilters)()}`);
  // Spread the kinds over the cycle: a site's traffic mixes them.
  const reads = [...paths].map(encode);
  for (let i = reads.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [reads[i], reads[j]] = [reads[j], reads[i]];
  }
  const updated = Array.from({ length: 50 }, () => pick(articles).documentId);
  const relations = {
    authors: authors.map((a) => a.documentId),
    categories: categories.map((c) => c.documentId),
    tags: tags.map((t) => t.documentId),
  };
  return { reads, updated, relations };
}

/**
 * wrk's Lua script for writes of whole documents (issue 21, point 7): `create` POSTs an article
 * with an author, a category, three tags, the `seo` component, two `links` and a two-entry zone;
 * `update` PUTs the same into one of `updated` (published: Strapi and Vellum publish it again).
 * Titles and slugs are unique per request; the relations cycle through the seeded documents.
 */
export function writeDocumentsLua(file, { updated, relations }, { mode, token = '', doneLua }) {
  const list = (xs) => `{\n${xs.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n}`;
  writeFileSync(
    file,
    `local updated = ${list(updated)}
local authors = ${list(relations.authors)}
local categories = ${list(relations.categories)}
local tags = ${list(relations.tags)}
local mode = ${JSON.stringify(mode)}
local headers = { ["Content-Type"] = "application/json"${token ? `, ["Authorization"] = ${JSON.stringify(`Bearer ${token}`)}` : ''} }
local run = tostring(os.time()) .. tostring(math.random(1, 1e6))
local counter = 0
local pick = function(xs, n) return xs[(n % #xs) + 1] end
request = function()
  counter = counter + 1
  local id = run .. "-" .. counter
  local body = '{"data":{"title":"Written ' .. id .. '","slug":"written-' .. id .. '","body":"A short body, written by the bench.","views":' .. (counter % 1000)
    .. ',"rating":3.5,"kind":"news","publishDate":"2024-05-01"'
    .. ',"author":"' .. pick(authors, counter) .. '","category":"' .. pick(categories, counter) .. '"'
    .. ',"tags":["' .. pick(tags, counter) .. '","' .. pick(tags, counter + 7) .. '","' .. pick(tags, counter + 13) .. '"]'
    .. ',"seo":{"metaTitle":"Written ' .. id .. '","metaDescription":"Written by the bench."}'
    .. ',"links":[{"label":"One","url":"https://example.test/1"},{"label":"Two","url":"https://example.test/2"}]'
    .. ',"blocks":[{"__component":"shared.rich-text","body":"A part of some text."},{"__component":"shared.quote","title":"A quote","body":"Said once."}]}}'
  if mode == "create" then return wrk.format("POST", "/api/articles", headers, body) end
  return wrk.format("PUT", "/api/articles/" .. pick(updated, counter), headers, body)
end
${doneLua}`,
  );
}

/**
 * wrk's Lua script: cycles through the read paths (one list per wrk thread, each starting at its
 * own offset); with `writeEvery` > 0, every writeEvery-th request is a `PUT` of one of `updated`
 * (its views change; nothing else does, so every read URL stays valid).
 */
export function writeTrafficLua(file, { reads, updated }, { writeEvery = 0, token = '', doneLua }) {
  const list = (xs) => `{\n${xs.map((x) => `  ${JSON.stringify(x)}`).join(',\n')}\n}`;
  writeFileSync(
    file,
    `local reads = ${list(reads)}
local updated = ${list(updated)}
local write_every = ${writeEvery}
local get_headers = { ${token ? `["Authorization"] = ${JSON.stringify(`Bearer ${token}`)}` : ''} }
local put_headers = { ["Content-Type"] = "application/json"${token ? `, ["Authorization"] = ${JSON.stringify(`Bearer ${token}`)}` : ''} }
local counter = 0
local threads = 0
setup = function(thread) threads = threads + 1; thread:set("offset", threads * 97) end
request = function()
  counter = counter + 1
  if write_every > 0 and counter % write_every == 0 then
    local n = counter / write_every
    local id = updated[(n % #updated) + 1]
    return wrk.format("PUT", "/api/articles/" .. id, put_headers, '{"data":{"views":' .. tostring(n % 1000) .. '}}')
  end
  return wrk.format("GET", reads[((counter + (offset or 0)) % #reads) + 1], get_headers)
end
${doneLua}`,
  );
}
