import { startServer, BLOG, fixture } from './test/helpers/server.js';
const project = process.argv[2] ? fixture(process.argv[2]) : BLOG;
const s = await startServer('sqlite', { project, config: { server: { port: Number(process.env.PORT ?? 1500) } } });
console.log(s.url, s.authHeaders.authorization);
