import { openDifferential } from '../harness.js';
import { BLOG, fixture } from '../../helpers/server.js';
const which = process.argv[2];
const d = await openDifferential({ name: `seqkeep-${which}`, project: which === 'blog' ? BLOG : fixture('relation-matrix'), readyPath: which === 'blog' ? undefined : '/api/owners' });
console.log(JSON.stringify({ url: d.strapi.baseUrl, auth: d.strapi.defaultHeaders.authorization }));
setInterval(() => {}, 1 << 30);
