/**
 * `vellum openapi generate [--output file] [--project dir]`: the OpenAPI 3.1 document of the
 * project's content API, as `strapi openapi generate` writes it (features/openapi). The project is
 * loaded as `vellum start` loads it, without listening: the document describes the routes a node
 * registers, and is the text the node serves at `/openapi.json`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { registeredRoutes } from '../../api/http.js';
import { ProjectError } from '../../core/errors.js';
import { documentText, openApiDocument, openApiInput, OPENAPI_FILE } from '../../features/openapi/index.js';
import { createVellum } from '../server.js';
import type { CliIo } from './io.js';

export const OPENAPI_USAGE = `  vellum openapi generate [--output file] [--project dir]   the OpenAPI 3.1 document (default: ${OPENAPI_FILE} in the project)`;

export async function runOpenApiCommand(
  argv: string[],
  project: (named: string | undefined) => string,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv.slice(1),
    options: { output: { type: 'string', short: 'o' }, project: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.join(' ') !== 'generate')
    throw new ProjectError('the openapi command is `vellum openapi generate [--output file] [--project dir]`');
  const dir = project(values.project);
  const file = values.output === undefined ? join(dir, OPENAPI_FILE) : resolve(io.cwd, values.output);
  const vellum = await createVellum(dir, { env: io.env, cwd: io.cwd });
  try {
    await vellum.app.ready();
    const started = performance.now();
    const document = openApiDocument(openApiInput(vellum.config, vellum.schema, registeredRoutes(vellum.app)));
    const ms = Math.round(performance.now() - started);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, documentText(document));
    const { title, version } = document.info;
    io.out(
      `Generated an OpenAPI specification for "${title} v${version}" at ${relative(io.cwd, file) || file} in ${ms}ms`,
    );
    return 0;
  } finally {
    await vellum.close();
  }
}
