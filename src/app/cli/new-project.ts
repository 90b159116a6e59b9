/**
 * `vellum new <folder> [--example blog]`: a new project, as `create-strapi-app` makes one, that
 * starts on SQLite with `npm install && npm start`: Strapi's `config/` and `src/` (templates/new-project
 * in Vellum's package), a `package.json` whose scripts run `vellum`, and a `.env` with secrets made
 * here (docs/security.md "Secrets": generated once per project, never in a template). `--example
 * blog` adds the blog example's content-types, components and grants.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ProjectError } from '../../core/errors.js';
import { packageRoot } from '../../core/package-root.js';
import type { CliIo } from './io.js';

export const NEW_USAGE = `  vellum new <folder> [--example blog] [--vellum <npm spec>]   a new project that starts on SQLite
                                             (--vellum: what its package.json installs, default this version)`;

const EXAMPLES = ['blog'];

/** A package name from a folder name: lower case, npm's characters only. */
const packageName = (folder: string): string =>
  folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '') || 'vellum-site';

const secret = (): string => randomBytes(32).toString('base64');

export async function runNewCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv.slice(1),
    options: { example: { type: 'string' }, vellum: { type: 'string' } },
    allowPositionals: true,
  });
  const [folder] = positionals;
  if (!folder || positionals.length > 1) {
    io.err(`Error: name one folder for the new project.\n${NEW_USAGE}`);
    return 1;
  }
  if (values.example !== undefined && !EXAMPLES.includes(values.example)) {
    io.err(`Error: --example ${values.example} is not an example Vellum has (it has: ${EXAMPLES.join(', ')}).`);
    return 1;
  }
  const target = resolve(io.cwd, folder);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new ProjectError('is not empty: name a new folder for the project', target);

  const root = packageRoot(import.meta.url);
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const name = packageName(basename(target));
  mkdirSync(target, { recursive: true });
  cpSync(join(root, 'templates', 'new-project'), target, { recursive: true });
  // npm leaves dotfiles named .gitignore out of a package: the template names them without the dot.
  renameSync(join(target, 'gitignore'), join(target, '.gitignore'));
  renameSync(join(target, 'env.example'), join(target, '.env.example'));
  const readme = join(target, 'README.md');
  writeFileSync(readme, readFileSync(readme, 'utf8').replaceAll('{{name}}', name));
  if (values.example === 'blog') {
    const blog = join(root, 'examples', 'blog');
    cpSync(join(blog, 'src'), join(target, 'src'), { recursive: true });
    cpSync(join(blog, 'config', 'permissions.js'), join(target, 'config', 'permissions.js'));
  }
  const manifest = {
    name,
    private: true,
    version: '0.1.0',
    description: 'A Strapi 5 project served by Vellum',
    scripts: { develop: 'vellum develop', start: 'vellum start', vellum: 'vellum' },
    dependencies: { vellum: values.vellum ?? `^${version}` },
    engines: { node: '>=20' },
  };
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(target, '.env'),
    [
      'HOST=localhost',
      'PORT=1337',
      `JWT_SECRET=${secret()}`,
      `ADMIN_JWT_SECRET=${secret()}`,
      `API_TOKEN_SALT=${secret()}`,
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  const folderShown = relative(io.cwd, target) || '.';
  const shown = /\s/.test(folderShown) ? JSON.stringify(folderShown) : folderShown;
  io.out(`Created ${name} in ${target}${values.example ? ` with the ${values.example} example` : ''}.`);
  io.out(`Next: cd ${shown} && npm install && npm start   (then http://localhost:1337/admin)`);
  return 0;
}
