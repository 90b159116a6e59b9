/**
 * The layout of src/ (docs/architecture.md, "Layers"), checked. No server, no database: it reads the
 * source.
 *
 * - `core/` (errors, project files, config, schema, database, query, documents) imports only the
 *   core, down its own layers, and nothing of HTTP.
 * - `api/` (the HTTP server and the access seam) imports the core.
 * - `features/<name>/` imports the core, the API layer, and the features FEATURES lets it use,
 *   only through their `index.ts`; FEATURES has no cycle.
 * - `strapi/` (the Strapi runtime, an adapter) is imported by `app/` alone.
 * - `app/` (server assembly, CLI) imports anything; features through their `index.ts`.
 * - No import cycle between two files anywhere under src/, type imports included.
 * - The admin panel (admin/src) imports server types only from a feature's `contract.ts`.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const ADMIN = join(ROOT, 'admin', 'src');

/**
 * The core's units (a folder or a file of src/core/, without `.ts`), lowest first: a unit imports
 * only units of a lower layer.
 */
const CORE_LAYERS: string[][] = [
  ['errors', 'objects', 'package-root', 'worker-thread'],
  ['project', 'passwords'],
  ['config', 'schema'],
  ['database'],
  ['query'],
  ['documents'],
];

/** Each feature and the features it may import (through their index.ts). Keep it acyclic. */
const FEATURES: Record<string, string[]> = {
  email: [],
  events: ['releases'],
  upload: [],
  graphql: [],
  content: ['events'],
  'api-tokens': [],
  'admin-roles': [],
  'users-permissions': ['email', 'graphql', 'api-tokens', 'admin-roles'],
  i18n: ['users-permissions'],
  admin: ['users-permissions', 'events', 'api-tokens', 'admin-roles'],
  transfer: ['users-permissions', 'upload', 'admin-roles'],
  typegen: ['transfer'],
  'content-type-builder': [],
  openapi: [],
  audit: [],
  history: [],
  releases: [],
};

const coreLayerOf = new Map(CORE_LAYERS.flatMap((units, layer) => units.map((unit) => [unit, layer] as const)));
const isFastify = (spec: string) => spec === 'fastify' || spec.startsWith('fastify/') || spec.startsWith('@fastify/');
const isHttp = (spec: string) => isFastify(spec) || /^(node:)?https?(\/|$)/.test(spec) || /^(node:)?http2$/.test(spec);

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory()
      ? walk(path)
      : /\.[cm]?tsx?$/.test(name) && !name.endsWith('.d.ts')
        ? [path]
        : [];
  });

/**
 * Unit tests beside the code (`*.test.ts`) are no part of the layout: they may import anything
 * (and the test helpers), and dist holds none of them (tsconfig.build.json).
 */
const isUnitTest = (path: string) => /\.test\.[cm]?tsx?$/.test(path);

interface Unit {
  /** `core/documents`, `api`, `features/graphql`, `strapi`, `app`. */
  name: string;
  tier: 'core' | 'api' | 'features' | 'strapi' | 'app' | 'unknown';
  /** The core unit or the feature's name. */
  part?: string;
}

/** `src/core/documents/read/populate.ts` -> core/documents; `src/features/upload/routes.ts` -> features/upload. */
function unitOf(path: string): Unit {
  const parts = relative(SRC, path).split(sep);
  const [tier, second] = parts;
  if (tier === 'core' && second) {
    const part = second.replace(/\.[cm]?[jt]sx?$/, '');
    return { name: `core/${part}`, tier: 'core', part };
  }
  if (tier === 'features' && second && parts.length > 2)
    return { name: `features/${second}`, tier: 'features', part: second };
  if (tier === 'api' || tier === 'strapi' || tier === 'app') return { name: tier, tier };
  return { name: parts.slice(0, -1).join('/') || parts[0]!, tier: 'unknown' };
}

interface Import {
  spec: string;
  line: number;
}

interface Source {
  path: string;
  text: string;
}

/** Every import of a file: static, `export ... from`, `import type`, dynamic `import()`, `require()`. */
function importsOf({ text }: Source): Import[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((ref) => ({ spec: ref.fileName, line: text.slice(0, ref.pos).split('\n').length }));
}

/** The file a relative import names (`./x.js` is `./x.ts` or `./x.tsx`). */
function resolveImport(from: string, spec: string): string {
  const target = resolve(dirname(from), spec);
  for (const candidate of [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.js$/, '.tsx'),
    join(target, 'index.ts'),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return target.replace(/\.js$/, '.ts');
}

const isIndexOf = (target: string, feature: string) => target === join(SRC, 'features', feature, 'index.ts');

/** Why an import from one unit into another breaks the layout, or undefined. */
function refusal(from: Unit, to: Unit, target: string): string | undefined {
  if (from.name === to.name) return undefined;
  if (to.tier === 'unknown') return `src/${to.name} is in no tier (core/, api/, features/<name>/, strapi/, app/)`;
  if (to.tier === 'app') return 'app/ assembles the rest: nothing imports it';
  if (to.tier === 'strapi' && from.tier !== 'app')
    return 'strapi/ (the Strapi runtime, an adapter) is imported by app/ alone';
  switch (from.tier) {
    case 'core': {
      if (to.tier !== 'core') return `the core imports only the core, not ${to.name}`;
      const fromLayer = coreLayerOf.get(from.part!);
      const toLayer = coreLayerOf.get(to.part!);
      if (fromLayer === undefined)
        return `src/${from.name} is in no layer of the core (add it to CORE_LAYERS and to the table of docs/architecture.md)`;
      if (toLayer === undefined) return `src/${to.name} is in no layer of the core`;
      if (toLayer === fromLayer)
        return `${from.name} and ${to.name} are one layer of the core and do not import each other`;
      if (toLayer > fromLayer)
        return `${from.name} (core layer ${fromLayer}) imports ${to.name} (core layer ${toLayer}), a higher layer`;
      return undefined;
    }
    case 'api':
      return to.tier === 'core' ? undefined : `api/ imports only the core, not ${to.name}`;
    case 'features':
      if (to.tier === 'core' || to.tier === 'api') return undefined;
      if (to.tier !== 'features') return `a feature imports the core, api/ and other features, not ${to.name}`;
      if (!(FEATURES[from.part!] ?? []).includes(to.part!))
        return `${from.name} may not use ${to.name} (FEATURES lists ${JSON.stringify(FEATURES[from.part!] ?? null)})`;
      return isIndexOf(target, to.part!) ? undefined : `${to.name} is used through its index.ts only`;
    case 'strapi':
    case 'app':
      if (to.tier === 'features' && !isIndexOf(target, to.part!)) return `${to.name} is used through its index.ts only`;
      return undefined;
    default:
      return `src/${from.name} is in no tier (core/, api/, features/<name>/, strapi/, app/)`;
  }
}

/** What breaks the layout in these files, one message per import. */
function violations(sources: Source[]): string[] {
  const found: string[] = [];
  for (const source of sources) {
    const file = source.path;
    if (isUnitTest(file)) continue;
    const from = unitOf(file);
    const shown = relative(ROOT, file);
    if (from.tier === 'unknown') {
      found.push(`${shown}: src/${from.name} is in no tier (core/, api/, features/<name>/, strapi/, app/)`);
      continue;
    }
    if (from.tier === 'features' && !(from.part! in FEATURES))
      found.push(
        `${shown}: ${from.name} is not in FEATURES (add it, with the features it uses, and to the table of docs/architecture.md)`,
      );
    for (const { spec, line } of importsOf(source)) {
      const where = `${shown}:${line} imports '${spec}'`;
      if (spec.startsWith('.')) {
        const target = resolveImport(file, spec);
        if (!target.startsWith(SRC + sep)) {
          found.push(`${where}: outside src/`);
          continue;
        }
        const why = refusal(from, unitOf(target), target);
        if (why) found.push(`${where}: ${why}`);
      } else if (isHttp(spec) && from.tier === 'core') {
        found.push(`${where}: the core knows nothing of HTTP`);
      }
    }
  }
  return found;
}

/** The import cycles between files (type imports included), each as the files around it. */
function cycles(sources: Source[]): string[][] {
  const files = new Set(sources.map((s) => s.path));
  const edges = new Map<string, string[]>();
  for (const source of sources) {
    if (isUnitTest(source.path)) continue;
    const targets = importsOf(source)
      .filter(({ spec }) => spec.startsWith('.'))
      .map(({ spec }) => resolveImport(source.path, spec))
      .filter((target) => files.has(target) && !isUnitTest(target));
    edges.set(source.path, [...new Set(targets)]);
  }
  // Tarjan's strongly connected components: any of more than one file is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(relative(ROOT, member));
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The admin panel's imports of server code that do not go through a feature's contract.ts. */
function adminViolations(sources: Source[]): string[] {
  const found: string[] = [];
  for (const source of sources) {
    for (const { spec, line } of importsOf(source)) {
      if (!spec.startsWith('.')) continue;
      const target = resolve(dirname(source.path), spec);
      if (!target.startsWith(SRC + sep)) continue;
      if (!/^features\/[^/]+\/contract\.ts$/.test(relative(SRC, target).split(sep).join('/'))) {
        found.push(
          `${relative(ROOT, source.path)}:${line} imports '${spec}': the admin panel takes server types from a feature's contract.ts only`,
        );
      }
    }
  }
  return found;
}

describe('the layout of src/', () => {
  const sources = walk(SRC).map((path) => ({ path, text: readFileSync(path, 'utf8') }));

  it('reads the whole source', () => {
    assert.ok(sources.length > 50, `only ${sources.length} files under src/`);
    assert.ok(sources.flatMap(importsOf).length > 300, 'too few imports found: the scan is broken');
  });

  it('has every import follow the tiers, and HTTP only outside the core', () => {
    assert.deepEqual(violations(sources), []);
  });

  it('has no import cycle between files, type imports included', () => {
    assert.deepEqual(cycles(sources), []);
  });

  it('lists features without a cycle', () => {
    const done = new Set<string>();
    const visiting = new Set<string>();
    const visit = (feature: string, path: string[]): void => {
      assert.ok(feature in FEATURES, `${path.join(' -> ')}: ${feature} is not a feature`);
      assert.ok(!visiting.has(feature), `FEATURES has a cycle: ${[...path, feature].join(' -> ')}`);
      if (done.has(feature)) return;
      visiting.add(feature);
      for (const used of FEATURES[feature]!) visit(used, [...path, feature]);
      visiting.delete(feature);
      done.add(feature);
    };
    for (const feature of Object.keys(FEATURES)) visit(feature, []);
    assert.deepEqual(
      readdirSync(join(SRC, 'features')).sort(),
      Object.keys(FEATURES).sort(),
      'every folder of src/features is in FEATURES, and no more',
    );
    for (const feature of Object.keys(FEATURES))
      assert.ok(existsSync(join(SRC, 'features', feature, 'index.ts')), `features/${feature} has an index.ts`);
  });

  it('has the admin panel take server types from contract files only', () => {
    assert.deepEqual(adminViolations(walk(ADMIN).map((path) => ({ path, text: readFileSync(path, 'utf8') }))), []);
  });

  it('refuses an import against the rules, naming the file and the import', () => {
    const probe = (file: string, text: string) => violations([{ path: join(SRC, file), text }]);
    const refused: [string, string][] = [
      ['core/documents/probe.ts', "import type { AccessControl } from '../../api/access.js';"],
      ['core/query/parse/probe.ts', "export { registerContentApi } from '../../../features/content/index.js';"],
      ['core/database/probe.ts', "import { QueryEngine } from '../documents/engine/index.js';"],
      ['features/graphql/probe.ts', "import { registerContentApi } from '../content/index.js';"],
      ['features/admin/probe.ts', "import type { TokenType } from '../api-tokens/tokens.js';"],
      ['features/api-tokens/probe.ts', "import { startAuth } from '../users-permissions/index.js';"],
      ['features/content/probe.ts', "const strapi = await import('../../strapi/index.js');"],
      ['api/probe.ts', "import { startAuth } from '../features/users-permissions/index.js';"],
      ['strapi/probe.ts', "import { registerUploadRoutes } from '../features/upload/routes.js';"],
      ['features/upload/probe.ts', "import { createVellum } from '../../app/server.js';"],
      ['core/database/probe.ts', "import type { FastifyRequest } from 'fastify';"],
      ['core/documents/probe.ts', "import type { IncomingMessage } from 'node:http';"],
      ['newfolder/probe.ts', "import { VellumError } from '../core/errors.js';"],
      ['features/newfeature/probe.ts', "import { VellumError } from '../../core/errors.js';"],
    ];
    for (const [file, text] of refused) {
      const found = probe(file, text);
      assert.equal(found.length, 1, `${file}: ${text} -> ${JSON.stringify(found)}`);
      assert.match(found[0]!, new RegExp(`src/${file.split('/').slice(0, -1).join('/')}`));
    }
    assert.deepEqual(
      probe(
        'features/admin/probe.ts',
        "import { startAuth } from '../users-permissions/index.js';\nimport fastify from 'fastify';",
      ),
      [],
    );
    assert.deepEqual(probe('app/probe.ts', "import { loadProject } from '../strapi/index.js';"), []);
    assert.deepEqual(
      probe('features/users-permissions/probe.ts', "import type { IncomingHttpHeaders } from 'node:http';"),
      [],
    );
    assert.deepEqual(
      probe('core/query/parse/probe.test.ts', "import { unitSchema } from '../../../../test/helpers/unit-schema.js';"),
      [],
    );
  });

  it('finds a cycle of type imports', () => {
    const a = { path: join(SRC, 'core', 'probe-a.ts'), text: "import type { B } from './probe-b.js';" };
    const b = { path: join(SRC, 'core', 'probe-b.ts'), text: "import type { A } from './probe-a.js';" };
    assert.deepEqual(cycles([a, b]), [['src/core/probe-a.ts', 'src/core/probe-b.ts']]);
  });

  it('refuses an admin import of a feature file that is not its contract', () => {
    const file = join(ADMIN, 'probe.ts');
    assert.equal(
      adminViolations([{ path: file, text: "import type { Webhook } from '../../src/features/events/webhooks.ts';" }])
        .length,
      1,
    );
    assert.deepEqual(
      adminViolations([{ path: file, text: "import type { Webhook } from '../../src/features/events/contract.ts';" }]),
      [],
    );
  });

  it('is the table docs/architecture.md states', () => {
    const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const section = page.slice(page.indexOf('## Layers'));
    const core = [...section.matchAll(/^\| core (\d+) \| ([^|]+) \|/gm)].map(([, layer, units]) => [
      Number(layer),
      [...units!.matchAll(/`([^`]+)`/g)].map(([, unit]) => unit!.replace(/\/$/, '').replace(/\.ts$/, '')),
    ]);
    assert.deepEqual(
      core,
      CORE_LAYERS.map((units, layer) => [layer, units]),
    );
    const features = Object.fromEntries(
      [...section.matchAll(/^\| `features\/([\w-]+)\/` \| ([^|]*) \|/gm)].map(([, name, uses]) => [
        name!,
        [...uses!.matchAll(/`([^`]+)`/g)].map(([, used]) => used!),
      ]),
    );
    assert.deepEqual(features, FEATURES);
  });
});
