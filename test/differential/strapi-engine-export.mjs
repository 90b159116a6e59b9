// What Strapi 5.54's transfer engine writes for every type, administrators' ones included: the
// engine of `strapi export`, without the transforms the command adds (they drop every `admin::`
// type and content releases), into an unpacked archive folder. Run in a stopped Strapi project:
//   cd <strapi project> && NODE_ENV=production node <this file> <output folder>
// It recorded test/fixtures/admin-roles/strapi-engine-roles.json; roles-transfer.diff.ts runs it.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const [output] = process.argv.slice(2);
if (!output) {
  console.error('usage: node strapi-engine-export.mjs <output folder>');
  process.exit(1);
}
// Strapi's packages as the project has them (this file may live elsewhere).
const require = createRequire(join(process.cwd(), 'package.json'));
const { createStrapi, compileStrapi } = require('@strapi/strapi');
const transfer = require('@strapi/data-transfer');

const app = await createStrapi(await compileStrapi()).load();
app.log.level = 'error';
const engine = transfer.engine.createTransferEngine(
  transfer.strapi.providers.createLocalStrapiSourceProvider({ getStrapi: async () => app }),
  transfer.directory.providers.createLocalDirectoryDestinationProvider({ directory: { path: output }, file: {} }),
  { versionStrategy: 'ignore', schemaStrategy: 'ignore' },
);
await engine.transfer();
// Strapi's own destroy may throw while stopping its plugins; the folder is complete by now.
await app.destroy().catch(() => undefined);
process.exit(0);
