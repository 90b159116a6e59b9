/**
 * Runs a project's own files (configuration, `src/index`) the way Strapi does: as CommonJS, with
 * TypeScript compiled first. Strapi runs a TypeScript project from its build, `dist/`, so a
 * TypeScript file sees `__dirname` as `dist/<its folder>`: Strapi's default `config/database.ts`
 * writes `path.join(__dirname, '..', '..', '.tmp/data.db')` and means the project's `.tmp/`.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire, register } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import type * as TsxCjs from 'tsx/cjs/api';

const TYPESCRIPT = /\.[cm]?tsx?$/;

// esbuild and tsx load with the first TypeScript file of a project (most start without one).
const requireHere = createRequire(import.meta.url);
const tsxRequire = (id: string, from: string): unknown => (requireHere('tsx/cjs/api') as typeof TsxCjs).require(id, from);
const transformSync: typeof Esbuild.transformSync = (input, options) => (requireHere('esbuild') as typeof Esbuild).transformSync(input, options);

/** A package name that project code imports and Vellum answers itself (`@strapi/strapi`). */
export interface ProvidedModule {
  /** What `require(name)` returns: the module's namespace, shared with `import`. */
  exports: unknown;
  /** The file `import` of the name loads (the same module, so classes are the same classes). */
  url: string;
}

const provided = new Map<string, ProvidedModule>();

/** Files of installed packages keep their own resolution: only project code is redirected. */
const fromPackage = (file: string | undefined): boolean => file !== undefined && /[\\/]node_modules[\\/]/.test(file);

/**
 * The resolve hook of ES modules, run by Node off the main thread: it cannot see `provided`, so it
 * gets the names and their URLs once, as data.
 */
const ESM_RESOLVE_HOOK = `
let urls = {};
export function initialize(data) { urls = data.urls; }
export async function resolve(specifier, context, next) {
  const url = urls[specifier];
  if (url && !/[\\\\/]node_modules[\\\\/]/.test(context.parentURL ?? '')) return { url, shortCircuit: true };
  return next(specifier, context);
}`;

/**
 * Makes package names resolve to Vellum's own modules for project code, whether it `require`s them
 * (CommonJS, TypeScript compiled to it, and whatever those files require in turn) or `import`s
 * them (ES modules): a Strapi project's `@strapi/strapi` and `@strapi/utils`, with no package
 * installed. Process-wide, as `require` is; the first call decides the names.
 */
export function provideModules(modules: Record<string, ProvidedModule>): void {
  if (provided.size > 0) return;
  for (const [name, module] of Object.entries(modules)) provided.set(name, module);
  type Load = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
  const loader = Module as unknown as { _load: Load };
  const load = loader._load;
  loader._load = function (request, parent, isMain) {
    const found = provided.get(request);
    if (found && !fromPackage(parent?.filename)) return found.exports;
    return load.call(this, request, parent, isMain);
  };
}

let esmHooked = false;

/**
 * The resolve hook for ES modules, registered when the first project file is imported as one: Node
 * runs module hooks on a thread of their own (memory, start-up time), which CommonJS and TypeScript
 * projects do not need.
 */
function resolveImportsOfProvided(): void {
  if (esmHooked || provided.size === 0) return;
  esmHooked = true;
  const urls = Object.fromEntries([...provided].map(([name, module]) => [name, module.url]));
  register(`data:text/javascript,${encodeURIComponent(ESM_RESOLVE_HOOK)}`, { data: { urls } });
}

interface ModuleScope {
  /** The file `require` resolves from. */
  file: string;
  /** What the code sees as `__filename` (and the folder of it as `__dirname`). */
  apparentFile: string;
}

/**
 * The `require` handed to project code: Node's own (so that `require.resolve` answers a plain
 * path, as in Strapi; tsx's scoped resolver appends `?namespace=`), with TypeScript modules that a
 * TypeScript file imports compiled by tsx.
 */
function projectRequire(file: string): NodeJS.Require {
  const native = createRequire(file);
  const load = ((id: string) => {
    const found = provided.get(id);
    if (found) return found.exports;
    let resolved: string | undefined;
    try {
      resolved = native.resolve(id);
    } catch {
      // `./helpers` naming helpers.ts: Node does not look for .ts, tsx does.
      return tsxRequire(id, file);
    }
    return TYPESCRIPT.test(resolved) ? tsxRequire(resolved, file) : native(resolved);
  }) as NodeJS.Require;
  return Object.assign(load, { resolve: native.resolve, cache: native.cache, main: native.main, extensions: native.extensions });
}

const IMPORT_META_URL = '__vellumImportMetaUrl';

function evaluate(source: string, scope: ModuleScope): unknown {
  const module = { exports: {} as unknown };
  // In a block of its own, so that a file may declare its own `__dirname` (as ESM-minded code
  // does from import.meta.url) without clashing with the wrapper's.
  const wrapper = new Function('exports', 'require', 'module', '__filename', '__dirname', IMPORT_META_URL, `{\n${source}\n}`);
  const apparentDir = dirname(scope.apparentFile);
  wrapper(module.exports, projectRequire(scope.file), module, scope.apparentFile, apparentDir, pathToFileURL(scope.apparentFile).href);
  return module.exports;
}

/** A CommonJS file (`module.exports = ...`), whatever the nearest package.json says. */
function loadCommonJs(file: string): unknown {
  return evaluate(readFileSync(file, 'utf8'), { file, apparentFile: file });
}

/** Where Strapi's build puts a project's TypeScript file: `config/database.ts` -> `dist/config/database.js`. */
function builtPath(projectDir: string, file: string): string {
  const relativeDir = relative(projectDir, dirname(file));
  return join(projectDir, 'dist', relativeDir, basename(file).replace(TYPESCRIPT, '.js'));
}

/** A TypeScript file of the project compiled to CommonJS and run as from Strapi's `dist/`. */
function loadTypeScript(file: string, projectDir: string): unknown {
  const { code } = transformSync(readFileSync(file, 'utf8'), {
    loader: file.endsWith('x') ? 'tsx' : 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: file,
    // CommonJS has no import.meta: its url is the built file's, as __filename is.
    define: { 'import.meta.url': IMPORT_META_URL },
  });
  return evaluate(code, { file, apparentFile: builtPath(projectDir, file) });
}

const looksLikeCommonJs = (source: string): boolean =>
  /\bmodule\.exports\b|\bexports\.[A-Za-z_]|\brequire\(/.test(source) && !/^\s*export\s/m.test(source);

/**
 * Loads one file of project code and returns what it exports: `.ts` compiled to CommonJS (see
 * above), `.cjs` and CommonJS `.js` evaluated as CommonJS whatever the nearest package.json says,
 * `.mjs`, `.mts` and `.js` with `export` as ES modules.
 */
export async function loadProjectModule(file: string, projectDir: string): Promise<unknown> {
  if (/\.(c?ts|tsx)$/.test(file)) return loadTypeScript(file, projectDir);
  if (file.endsWith('.cjs') || (file.endsWith('.js') && looksLikeCommonJs(readFileSync(file, 'utf8')))) return loadCommonJs(file);
  resolveImportsOfProvided();
  if (file.endsWith('.mts')) {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(pathToFileURL(file).href, import.meta.url);
  }
  return import(pathToFileURL(file).href);
}
