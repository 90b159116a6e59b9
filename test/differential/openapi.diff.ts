/**
 * The OpenAPI document side by side with Strapi 5.54's: `strapi openapi generate` run in the
 * reference app serving a project, against what Vellum serves at `/openapi.json` for the same
 * project. Every operation of Strapi's that Vellum serves has the same path, operation id, tags and
 * parameter names, and every schema name of Strapi's is Vellum's; what differs on purpose is listed
 * in docs/openapi.md "Differences from Strapi's document". On demand: `npm run test:strapi --
 * openapi`. The blog's document is pinned in test/fixtures/openapi (src/features/openapi/document.test.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { BLOG, fixture } from '../helpers/paths.js';
import { openDifferential, type Differential } from './harness.js';

const run = promisify(execFile);
const opened: Differential[] = [];
after(async () => {
  for (const diff of opened) await diff.close();
});

interface Document {
  paths: Record<string, Record<string, { operationId: string; tags: string[]; parameters?: { name: string }[] }>>;
  components: { schemas: Record<string, unknown> };
}

/** Strapi's routes Vellum does not serve on the content API. */
const NOT_SERVED = new Set([
  'GET /upload/files/page',
  // Served as /connect/{provider} and /connect/{provider}/callback.
  'GET /connect/(.*)',
]);

/** Parameters Strapi's document leaves out and its routes take. */
const MORE_PARAMETERS: Record<string, string> = {
  'GET /auth/{provider}/callback': 'provider access_token',
  'GET /auth/email-confirmation': 'confirmation',
  'DELETE /auth/sessions/{sessionId}': 'sessionId',
};

const operations = (document: Document) =>
  new Map(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const),
    ),
  );

for (const name of ['blog', 'project-code', 'strapi5-shop', 'all-types']) {
  test(`${name}: Strapi's operations, ids, tags, parameters and schema names`, async () => {
    const diffName = `openapi-${name}`;
    opened.push(await openDifferential({ name: diffName, project: name === 'blog' ? BLOG : fixture(name) }));
    const diff = opened.at(-1)!;
    const strapiDir = `/tmp/vellum-diff-${diffName}`;
    // Its own database: the server beside it holds the other.
    await run(
      process.execPath,
      ['node_modules/@strapi/strapi/bin/strapi.js', 'openapi', 'generate', '--output', 'openapi.json'],
      { cwd: strapiDir, timeout: 120_000, env: { ...process.env, DATABASE_FILENAME: '.tmp/openapi.db' } },
    );
    const strapi = JSON.parse(readFileSync(join(strapiDir, 'openapi.json'), 'utf8')) as Document;
    const vellum = (await (await fetch(`${diff.vellumServer.url}/openapi.json`)).json()) as Document;
    const ours = operations(vellum);
    const found: string[] = [];
    const deliberate: string[] = [];
    let same = 0;
    for (const [key, operation] of operations(strapi)) {
      if (NOT_SERVED.has(key)) {
        if (ours.has(key)) found.push(`${key}: served by Vellum now, take it out of NOT_SERVED`);
        continue;
      }
      const mine = ours.get(key);
      if (!mine) {
        // Strapi leaves a core router's `prefix` out of its paths (they answer 404 as written).
        const [method, path] = key.split(' ');
        const prefixed = [...ours.keys()].find((other) => other.startsWith(`${method} /`) && other.endsWith(path!));
        if (prefixed) deliberate.push(`${key} is served at ${prefixed.split(' ')[1]}`);
        else found.push(`${key}: not in Vellum's document`);
        continue;
      }
      // A project route's path parameters: Strapi declares none (its document names parameters it does not declare).
      const template = [...key.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).join(' ');
      if (names(operation) === '' && template !== '' && names(mine) === template) {
        deliberate.push(`${key}: its path parameters declared`);
        operation.parameters = mine.parameters;
      }
      const expected = [operation.operationId, operation.tags, MORE_PARAMETERS[key] ?? names(operation)];
      const actual = [mine.operationId, mine.tags, names(mine)];
      if (JSON.stringify(expected) !== JSON.stringify(actual))
        found.push(`${key}: Strapi ${JSON.stringify(expected)}, Vellum ${JSON.stringify(actual)}`);
      else same++;
    }
    for (const schema of Object.keys(strapi.components.schemas))
      if (!(schema in vellum.components.schemas)) found.push(`schema ${schema}: not in Vellum's document`);
    const extra = [...ours.keys()].filter((key) => !operations(strapi).has(key));
    console.log(
      `# ${name}: ${same} operations the same, ${extra.length} of Vellum's own (${extra.filter((key) => !key.includes('/actions/')).join(', ')}, and publication actions)`,
    );
    if (deliberate.length) console.log(`# deliberate: ${deliberate.join('; ')}`);
    assert.deepEqual(found, []);
  });
}

function names(operation: { parameters?: { name: string }[] }): string {
  return (operation.parameters ?? []).map((parameter) => parameter.name).join(' ');
}
