/**
 * Records what a running Strapi answers to `vellum import strapi` (every request the import makes,
 * files included), for the CI fixture test/fixtures/strapi-archive/api.json:
 *   node --import tsx test/transfer/live/record-api.ts <base URL> <token> <project dir> <out.json>
 * The project gets the import too (a scratch copy of examples/blog).
 */
import { writeFileSync } from 'node:fs';
import { importFromStrapi, Progress } from '../../../src/features/transfer/index.js';
import { openProject } from '../../../src/app/open-project.js';

const [base, token, project, out] = process.argv.slice(2);
if (!base || !token || !project || !out)
  throw new Error('usage: record-api.ts <base URL> <token> <project dir> <out.json>');
const recorded: Record<string, { status: number; type: string; body: string }> = {};
const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const response = await realFetch(input, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  const url = new URL(String(input));
  recorded[url.pathname + url.search] = {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: bytes.toString('base64'),
  };
  return new Response(bytes, { status: response.status, headers: response.headers });
};
const opened = await openProject(project);
try {
  await importFromStrapi(opened, base, token, new Progress(null));
} finally {
  await opened.close();
}
writeFileSync(out, `${JSON.stringify(recorded)}\n`);
console.log(`${Object.keys(recorded).length} answers written to ${out}`);
