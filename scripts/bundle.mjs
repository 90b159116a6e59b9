#!/usr/bin/env node
// A step of `npm run build`, after tsc: bundles the server from dist/'s compiled files into
// dist/bundle/ (esbuild, ES modules), which `vellum start` (dist/app/cli/main.js) runs when present.
// Node loads ES modules one file at a time (resolve, read, parse, link); a start loaded ~556 of
// them (Kysely alone 262, zod 95). One bundle with lazy chunks (`splitting`: each `await import()`
// stays a chunk loaded when used) costs a fraction of that. See docs/performance.md "Start-up and memory".
//
// Stays outside (resolved from node_modules at run time): native and binary packages, the
// database drivers, and what only development or a project's TypeScript loads.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/bundle');

const EXTERNAL = [
  'better-sqlite3',
  'sharp',
  'pg',
  'pg-*',
  'mysql2',
  'esbuild',
  'tsx',
  'playwright',
  'playwright-core',
  'nodemailer',
  // Loaded by `vellum ts:generate-types` only (features/typegen/format.ts).
  'prettier',
];

/**
 * `@strapi/strapi` and `@strapi/utils`, as project code imports them, are Vellum's modules
 * (src/strapi/index.ts): their `moduleUrl` must name a file that exports them under their own
 * names, so that `import` from a project gets the same instances as `require`. In the bundle that
 * file is the module's entry point (below), not the chunk its code lands in.
 */
const PUBLIC_MODULES = { 'strapi/public/strapi': 'strapi-strapi', 'strapi/public/utils': 'strapi-utils' };

const moduleUrlOfEntry = {
  name: 'module-url-of-entry',
  setup(build) {
    build.onLoad({ filter: /[\\/]dist[\\/]strapi[\\/]public[\\/](strapi|utils)\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const name = PUBLIC_MODULES[`strapi/public/${args.path.match(/(strapi|utils)\.js$/)[1]}`];
      const source = await readFile(args.path, 'utf8');
      const replaced = source.replace(
        /export const moduleUrl = import\.meta\.url;/,
        `export const moduleUrl = new URL('./${name}.mjs', import.meta.url).href;`,
      );
      if (replaced === source)
        throw new Error(`${args.path}: no \`export const moduleUrl = import.meta.url;\` to point at its entry`);
      return { contents: replaced, loader: 'js' };
    });
  },
};

/**
 * zod's 40-odd locales are half of its code (~370 KB of ~740 KB), parsed at every start; Vellum's
 * messages are zod's English ones, which zod's schemas import directly (`../locales/en.js`). Its
 * `z.locales` namespace keeps `en` alone in the bundle.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: join(root, 'dist/app/cli/commands.js'),
    ...Object.fromEntries(Object.entries(PUBLIC_MODULES).map(([path, name]) => [name, join(root, `dist/${path}.js`)])),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS dependencies bundled into ES modules still call `require` for Node's own modules.
  banner: {
    js: "import { createRequire as __vellumCreateRequire } from 'node:module'; const require = __vellumCreateRequire(import.meta.url);",
  },
  plugins: [moduleUrlOfEntry, zodEnglishOnly],
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: 'linked',
  logLevel: 'warning',
});
