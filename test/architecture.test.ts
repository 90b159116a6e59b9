/**
 * The dependency rule of src/ (docs/architecture.md "Layers"), checked: a module imports only from its
 * own folder or from a folder of a lower layer, and HTTP packages stay out of the core. No server,
 * no database: it reads the source.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');

/**
 * Lowest first. A unit is a folder of src/ or a file at its root (without `.ts`). A unit imports
 * only units of a lower layer: units of one layer do not import each other.
 */
const LAYERS: string[][] = [
  ['errors', 'objects'],
  ['project'],
  ['config', 'schema'],
  ['database', 'email'],
  ['query'],
  ['documents'],
  ['access', 'events'],
  ['auth'],
  ['http'],
  ['rest', 'graphql', 'upload', 'strapi'],
  ['built-ins'],
  ['server', 'transfer'],
  ['cli'],
];

/** The core answers documents whatever asks: no HTTP server, no HTTP types. */
const CORE = new Set(['errors', 'project', 'config', 'schema', 'database', 'query', 'documents']);
/** The only units that may use the Fastify server and its plugins. */
const FASTIFY_UNITS = new Set(['http', 'rest', 'graphql', 'upload', 'strapi', 'server']);
const isFastify = (spec: string) => spec === 'fastify' || spec.startsWith('fastify/') || spec.startsWith('@fastify/') || spec === 'mercurius' || spec.startsWith('mercurius/');
const isHttp = (spec: string) => isFastify(spec) || /^(node:)?https?(\/|$)/.test(spec) || /^(node:)?http2$/.test(spec);

const layerOf = new Map(LAYERS.flatMap((units, layer) => units.map((unit) => [unit, layer] as const)));

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // Unit tests beside the code (`*.test.ts`) are no module of the layer they test.
    return statSync(path).isDirectory() ? walk(path) : /\.[cm]?tsx?$/.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });

/**
 * Unit tests beside the code (`*.test.ts`) are not part of the layers: they may import anything
 * below them (and the test helpers), and dist holds none of them (tsconfig.build.json).
 */
const isUnitTest = (path: string) => /\.test\.[cm]?tsx?$/.test(path);

/** `src/documents/read/populate.ts` -> `documents`; `src/server.ts` -> `server`. */
function unitOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? parts[0]!.replace(/\.[cm]?[jt]sx?$/, '') : parts[0]!;
}

interface Import {
  file: string;
  spec: string;
  line: number;
}

interface Source {
  path: string;
  text: string;
}

/** Every import of a file: static, `export ... from`, `import type`, dynamic `import()`, `require()`. */
function importsOf({ path: file, text }: Source): Import[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((ref) => ({
    file: relative(ROOT, file),
    spec: ref.fileName,
    line: text.slice(0, ref.pos).split('\n').length,
  }));
}

/** What breaks the rule in these files, one message per import. */
function violations(sources: Source[]): string[] {
  const found: string[] = [];
  for (const source of sources) {
    const file = source.path;
    if (isUnitTest(file)) continue;
    const from = unitOf(file);
    const fromLayer = layerOf.get(from);
    if (fromLayer === undefined) {
      found.push(`${relative(ROOT, file)}: src/${from} is in no layer (add it to LAYERS and to the table of docs/architecture.md "Layers")`);
      continue;
    }
    for (const { spec, line, file: shown } of importsOf(source)) {
      const where = `${shown}:${line} imports '${spec}'`;
      if (spec.startsWith('.')) {
        const target = resolve(dirname(file), spec);
        if (!target.startsWith(SRC + sep)) {
          found.push(`${where}: outside src/`);
          continue;
        }
        const to = unitOf(target);
        if (to === from) continue;
        const toLayer = layerOf.get(to);
        if (toLayer === undefined) found.push(`${where}: src/${to} is in no layer`);
        else if (toLayer === fromLayer) found.push(`${where}: ${from} and ${to} are one layer and do not import each other`);
        else if (toLayer > fromLayer) found.push(`${where}: ${from} (layer ${fromLayer}) imports ${to} (layer ${toLayer}), a higher layer`);
      } else if (isFastify(spec) && !FASTIFY_UNITS.has(from)) {
        found.push(`${where}: Fastify belongs to ${[...FASTIFY_UNITS].join(', ')}`);
      } else if (isHttp(spec) && CORE.has(from)) {
        found.push(`${where}: the core (${[...CORE].join(', ')}) knows nothing of HTTP`);
      }
    }
  }
  return found;
}

describe('the dependency rule of src/', () => {
  const sources = walk(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('reads the whole source', () => {
    assert.ok(sources.length > 50, `only ${sources.length} files under src/`);
    assert.ok(sources.flatMap(importsOf).length > 300, 'too few imports found: the scan is broken');
  });

  it('has every import point down the layers, and HTTP packages only in the HTTP-facing folders', () => {
    assert.deepEqual(violations(sources), []);
  });

  it('refuses an import against the rule, naming the file and the import', () => {
    const probe = (file: string, text: string) => violations([{ path: join(SRC, file), text }]);
    const refused: [string, string][] = [
      ['documents/probe.ts', "import type { AccessControl } from '../access/index.js';"],
      ['query/parse/probe.ts', "export { registerContentApi } from '../../rest/content-api.js';"],
      ['graphql/probe.ts', "import { registerContentApi } from '../rest/content-api.js';"],
      ['rest/probe.ts', "const upload = await import('../upload/routes.js');"],
      ['database/probe.ts', "import type { FastifyRequest } from 'fastify';"],
      ['auth/probe.ts', "import cors from '@fastify/cors';"],
      ['documents/probe.ts', "import type { IncomingMessage } from 'node:http';"],
      ['newfolder/probe.ts', "import { VellumError } from '../errors.js';"],
    ];
    for (const [file, text] of refused) {
      const found = probe(file, text);
      assert.equal(found.length, 1, `${file}: ${text} -> ${JSON.stringify(found)}`);
      assert.match(found[0]!, new RegExp(`src/${file.split('/')[0]}`));
    }
    assert.deepEqual(probe('rest/probe.ts', "import { x } from '../documents/service.js';\nimport fastify from 'fastify';"), []);
    assert.deepEqual(probe('auth/probe.ts', "import type { IncomingHttpHeaders } from 'node:http';"), []);
    assert.deepEqual(probe('query/parse/probe.test.ts', "import { unitSchema } from '../../../test/helpers/unit-schema.js';"), []);
  });

  it('is the table docs/architecture.md states', () => {
    const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
    const start = page.indexOf('\n## Layers\n');
    assert.ok(start >= 0, 'docs/architecture.md has no "## Layers" section');
    const end = page.indexOf('\n## ', start + 1);
    const section = page.slice(start, end < 0 ? undefined : end);
    const rows = [...section.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map(([, layer, units]) => [
      Number(layer),
      [...units!.matchAll(/`([^`]+)`/g)].map(([, unit]) => unit!.replace(/\/$/, '').replace(/\.ts$/, '')),
    ]);
    assert.deepEqual(rows, LAYERS.map((units, layer) => [layer, units]));
  });
});
