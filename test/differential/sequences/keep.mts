/**
 * Starts a Strapi 5.54 (and a Vellum, unused) on the blog or relation-matrix project and keeps it
 * running, printing its URL and a full-access token: export them as DIFF_STRAPI_URL and
 * DIFF_STRAPI_TOKEN (without "Bearer ") and many `npm run test:strapi:sequences` runs share it.
 *   node --import tsx test/differential/sequences/keep.mts blog|matrix [name]
 * (name: the harness's project copy, /tmp/vellum-diff-<name>; seqkeep-<schema> by default)
 */
import { openDifferential } from '../harness.js';
import { BLOG, fixture } from '../../helpers/server.js';

const which = process.argv[2];
if (which !== 'blog' && which !== 'matrix') throw new Error('usage: keep.mts blog|matrix');
const diff = await openDifferential({
  name: process.argv[3] ?? `seqkeep-${which}`,
  project: which === 'blog' ? BLOG : fixture('relation-matrix'),
  readyPath: which === 'blog' ? undefined : '/api/owners',
});
console.log(JSON.stringify({ url: diff.strapi.baseUrl, auth: diff.strapi.defaultHeaders.authorization }));
process.on('SIGTERM', () => void diff.close().then(() => process.exit(0)));
setInterval(() => undefined, 1 << 30);
