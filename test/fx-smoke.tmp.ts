import { startServer, fixture } from './helpers/server.js';
process.env.LIFECYCLES_LOG = '/tmp/lc-fx.jsonl';
const { writeFileSync, readFileSync } = await import('node:fs');
writeFileSync('/tmp/lc-fx.jsonl', '');
const server = await startServer((process.env.D as any) ?? 'sqlite', { project: fixture('lifecycles') });
try {
  console.log(server.vellum.warnings);
  for (const [m, p, b] of [['post', '/api/articles', { data: { title: 'Hello World', body: 'one two three' } }], ['get', '/api/articles?filters[title][$eq]=Hello World'], ['get', '/api/setting'], ['get', '/api/categories']] as const) {
    const r = await (server.api as any)[m](p, b);
    console.log(m, p, r.status, JSON.stringify(r.body));
  }
  const pub = await server.publicApi.get('/api/articles');
  console.log('public', pub.status);
  await server.api.post('/api/pages', { data: { title: 'P1', seo: { metaTitle: 'M' } } });
  console.log('pages', JSON.stringify((await server.publicApi.get('/api/pages')).body));
  const f = await server.api.post('/api/articles', { data: { title: 'Forbidden one' } });
  console.log(f.status, JSON.stringify(f.body));
  console.log(readFileSync('/tmp/lc-fx.jsonl', 'utf8'));
} finally { await server.close(); }
