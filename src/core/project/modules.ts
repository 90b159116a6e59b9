/**
 * Runs a project's own files (configuration, `src/index`) the way Strapi does: as CommonJS, with
 * TypeScript compiled first. Strapi runs a TypeScript project from its build, `dist/`, so a
 * TypeScript file sees `__dirname` as `dist/<its folder>`: Strapi's default `config/database.ts`
 * writes `path.join(__dirname, '..', '..', '.tmp/data.db')` and means the project's `.tmp/`.
 */
import { readFileSync, statSync } from 'node:fs';
import Module, { createRequire, register } from 'node:module';
import { basename, dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import type * as TsxCjs from 'tsx/cjs/api';

const TYPESCRIPT = /\.[cm]?tsx?$/;

// esbuild and tsx load with the first TypeScript file of a project (most start without one).
const requireHere = createRequire(import.meta.url);
const tsxRequire = (id: string, from: string): unknown =>
  (requireHere('tsx/cjs/api') as typeof TsxCjs).require(id, from);
const transformSync: typeof Esbuild.transformSync = (input, options) =>
  (requireHere('esbuild') as typeof Esbuild).transformSync(input, options);

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
  /** The project's folder: TypeScript files it requires run as from its `dist/` too. */
  projectDir?: string;
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.cts', '.js', '.cjs', '.json'];

/** A file, when it is one. */
const fileAt = (path: string): boolean => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/**
 * The project file a relative or absolute request names, as after `strapi build`: `./money` naming
 * money.ts, and a path under `dist/` (where `__dirname` points) naming the source file it was built
 * from (`dist/src/utils/money.js` -> `src/utils/money.ts`). Undefined for a package name, or for a
 * request Node resolves itself.
 */
function projectFile(id: string, from: string, projectDir: string | undefined): string | undefined {
  if (!id.startsWith('.') && !isAbsolute(id)) return undefined;
  const base = resolvePath(dirname(from), id);
  const bases = [base];
  const dist = projectDir ? join(projectDir, 'dist') : undefined;
  if (dist && (base === dist || base.startsWith(dist + sep))) bases.push(join(projectDir!, relative(dist, base)));
  for (const path of bases) {
    const stem = path.replace(/\.js$/, '');
    const candidates = [
      path,
      ...SOURCE_EXTENSIONS.map((ext) => `${stem}${ext}`),
      ...SOURCE_EXTENSIONS.map((ext) => join(path, `index${ext}`)),
    ];
    const found = candidates.find(fileAt);
    if (found) return found;
  }
  return undefined;
}

/** Project TypeScript modules required by project code, by file: each runs once, as `require` caches. */
const typeScriptModules = new Map<string, { mtimeMs: number; module: { exports: unknown } }>();

function requireTypeScript(file: string, projectDir: string | undefined): unknown {
  const { mtimeMs } = statSync(file);
  const cached = typeScriptModules.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.module.exports;
  const module = { exports: {} as unknown };
  // Cached before it runs: two modules that require each other see each other's exports so far.
  typeScriptModules.set(file, { mtimeMs, module });
  try {
    evaluate(
      compile(file),
      { file, apparentFile: projectDir ? builtPath(projectDir, file) : file, projectDir },
      module,
    );
  } catch (error) {
    typeScriptModules.delete(file);
    throw error;
  }
  return module.exports;
}

/**
 * The `require` handed to project code: Node's own for packages and JavaScript, so that
 * `require.resolve` answers a plain path as in Strapi (tsx's scoped resolver appends
 * `?namespace=`); the project's TypeScript files compiled here and run as from `dist/`, with
 * this same `require`, whoever requires them (a config file, `src/index.ts`, what they import).
 */
function projectRequire(scope: ModuleScope): NodeJS.Require {
  const { file, projectDir } = scope;
  const native = createRequire(file);
  const load = ((id: string) => {
    const found = provided.get(id);
    if (found) return found.exports;
    const local = projectFile(id, file, projectDir);
    if (local && TYPESCRIPT.test(local)) return requireTypeScript(local, projectDir);
    if (local) return native(local);
    try {
      return native(id);
    } catch (error) {
      // What Node cannot find, tsx may (a tsconfig \`paths\` alias): as before, not as Strapi's build.
      if ((error as { code?: string }).code !== 'MODULE_NOT_FOUND') throw error;
      return tsxRequire(id, file);
    }
  }) as NodeJS.Require;
  /** A TypeScript file resolves to where the build puts it, as Strapi's `require.resolve` answers from `dist/`. */
  const resolve = ((id: string, options?: { paths?: string[] }) => {
    const local = options ? undefined : projectFile(id, file, projectDir);
    if (local) return TYPESCRIPT.test(local) && projectDir ? builtPath(projectDir, local) : local;
    return native.resolve(id, options);
  }) as NodeJS.RequireResolve;
  resolve.paths = native.resolve.paths;
  return Object.assign(load, { resolve, cache: native.cache, main: native.main, extensions: native.extensions });
}

const IMPORT_META_URL = '__vellumImportMetaUrl';

function evaluate(source: string, scope: ModuleScope, module: { exports: unknown } = { exports: {} }): unknown {
  // In a block of its own, so that a file may declare its own `__dirname` (as ESM-minded code
  // does from import.meta.url) without clashing with the wrapper's.
  const wrapper = new Function(
    'exports',
    'require',
    'module',
    '__filename',
    '__dirname',
    IMPORT_META_URL,
    `{\n${source}\n}`,
  );
  const apparentDir = dirname(scope.apparentFile);
  wrapper(
    module.exports,
    projectRequire(scope),
    module,
    scope.apparentFile,
    apparentDir,
    pathToFileURL(scope.apparentFile).href,
  );
  return module.exports;
}

/** A CommonJS file (`module.exports = ...`), whatever the nearest package.json says. */
function loadCommonJs(file: string, projectDir: string): unknown {
  return evaluate(readFileSync(file, 'utf8'), { file, apparentFile: file, projectDir });
}

/** Where Strapi's build puts a project's TypeScript file: `config/database.ts` -> `dist/config/database.js`. */
function builtPath(projectDir: string, file: string): string {
  const relativeDir = relative(projectDir, dirname(file));
  return join(projectDir, 'dist', relativeDir, basename(file).replace(TYPESCRIPT, '.js'));
}

/** A TypeScript file compiled to CommonJS, as Strapi's build compiles it. */
function compile(file: string): string {
  return transformSync(readFileSync(file, 'utf8'), {
    loader: file.endsWith('x') ? 'tsx' : 'ts',
    format: 'cjs',
    target: 'node20',
    sourcefile: file,
    // CommonJS has no import.meta: its url is the built file's, as __filename is.
    define: { 'import.meta.url': IMPORT_META_URL },
  }).code;
}

/** A TypeScript file of the project compiled to CommonJS and run as from Strapi's `dist/`. */
function loadTypeScript(file: string, projectDir: string): unknown {
  return evaluate(compile(file), { file, apparentFile: builtPath(projectDir, file), projectDir });
}

const looksLikeCommonJs = (source: string): boolean =>
  /\bmodule\.exports\b|\bexports\.[A-Za-z_]|\brequire\(/.test(source) && !/^\s*export\s/m.test(source);

/**
 * Loads one file of project code and returns what it exports: `.ts` compiled to CommonJS (see
 * above), `.cjs` and CommonJS `.js` evaluated as CommonJS whatever the nearest package.json says,
 * `.mjs`, `.mts` and `.js` with `export` as ES modules.
 */
/** How many times the project's modules were forgotten: ES modules load again from a new URL. */
let generation = 0;

/**
 * Makes the next loads read the project's files again (`vellum develop` reloads): Node's `require`
 * forgets the files under the project's folder (its node_modules aside), TypeScript files compile
 * again, and ES modules are imported from a new URL. An ES module's own static imports stay as
 * Node cached them (Node cannot forget an ES module).
 */
export function forgetProjectModules(projectDir: string): void {
  generation += 1;
  typeScriptModules.clear();
  const inside = projectDir.endsWith(sep) ? projectDir : projectDir + sep;
  const nodeModules = `${sep}node_modules${sep}`;
  for (const key of Object.keys(requireHere.cache))
    if (key.startsWith(inside) && !(sep + key.slice(inside.length)).includes(nodeModules))
      delete requireHere.cache[key];
}

export async function loadProjectModule(file: string, projectDir: string): Promise<unknown> {
  if (/\.(c?ts|tsx)$/.test(file)) return loadTypeScript(file, projectDir);
  if (file.endsWith('.cjs') || (file.endsWith('.js') && looksLikeCommonJs(readFileSync(file, 'utf8'))))
    return loadCommonJs(file, projectDir);
  resolveImportsOfProvided();
  if (file.endsWith('.mts')) {
    const { tsImport } = await import('tsx/esm/api');
    return tsImport(pathToFileURL(file).href, import.meta.url);
  }
  const url = pathToFileURL(file);
  if (generation > 0) url.searchParams.set('vellum-reload', String(generation));
  return import(url.href);
}
