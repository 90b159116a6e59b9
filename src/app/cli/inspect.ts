/**
 * What a project holds, as Strapi's listing commands print it: `vellum content-types:list`,
 * `routes:list`, `policies:list`, `middlewares:list` (a table, one name or route per row), and
 * `vellum console`, a REPL with the node's `strapi` (and `vellum`) in scope. Each loads the
 * project as `vellum start` does, without listening, then closes it.
 */
import type { CliIo } from './io.js';
import { registeredRoutes } from '../../api/http.js';
import { createVellum, type Vellum } from '../server.js';

export const INSPECT_USAGE = `  vellum content-types:list | routes:list | policies:list | middlewares:list [--project dir]
  vellum console [--project dir]             a REPL with the project's strapi object`;

export const INSPECT_COMMANDS = new Set([
  'content-types:list',
  'routes:list',
  'policies:list',
  'middlewares:list',
  'console',
]);

/** A table drawn as Strapi's CLI draws one (cli-table3's box characters), without colours. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map(
    (title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)) + 2,
  );
  const line = (left: string, middle: string, right: string) =>
    `${left}${widths.map((width) => '─'.repeat(width)).join(middle)}${right}`;
  const row = (cells: string[]) => `│${cells.map((cell, column) => ` ${cell.padEnd(widths[column]! - 1)}`).join('│')}│`;
  return [line('┌', '┬', '┐'), row(head), line('├', '┼', '┤'), ...rows.map(row), line('└', '┴', '┘')].join('\n');
}

/** The routes a client can call: the process's own second mount (users-permissions extensions) left out, HEAD folded into GET. */
function listedRoutes(vellum: Vellum): string[][] {
  const byUrl = new Map<string, Set<string>>();
  for (const { method, url } of registeredRoutes(vellum.app)) {
    if (url.startsWith('/__vellum-native-')) continue;
    const methods = byUrl.get(url) ?? new Set<string>();
    methods.add(method);
    byUrl.set(url, methods);
  }
  return [...byUrl].map(([url, methods]) => {
    if (methods.has('GET')) methods.delete('HEAD');
    return [[...methods].join('|'), url];
  });
}

export async function runInspectCommand(command: string, projectDir: string, io: CliIo): Promise<number> {
  // routes:list lists the admin API's routes too, which `vellum start` registers with their first request.
  const vellum = await createVellum(projectDir, {
    env: io.env,
    cwd: io.cwd,
    adminApiAtStart: command === 'routes:list',
  });
  try {
    switch (command) {
      case 'content-types:list':
        io.out(
          table(
            ['Name'],
            [...vellum.schema.contentTypes.keys()].map((uid) => [uid]),
          ),
        );
        break;
      case 'routes:list':
        await vellum.app.ready();
        io.out(table(['Method', 'Path'], listedRoutes(vellum)));
        break;
      case 'policies:list':
        io.out(
          table(
            ['Name'],
            vellum.registered.policies().map((name) => [name]),
          ),
        );
        break;
      case 'middlewares:list':
        io.out(
          table(
            ['Name'],
            vellum.registered.middlewares().map((name) => [name]),
          ),
        );
        break;
      case 'console':
        await console(vellum);
        break;
    }
    return 0;
  } finally {
    await vellum.close();
  }
}

/** Node's REPL with `strapi` and `vellum`; resolves when it is left (`.exit`, Ctrl-D). */
async function console(vellum: Vellum): Promise<void> {
  const { start } = await import('node:repl');
  const repl = start({ prompt: 'strapi > ', useGlobal: true });
  repl.context.strapi = (globalThis as { strapi?: unknown }).strapi;
  repl.context.vellum = vellum;
  await new Promise<void>((resolve) => repl.once('exit', resolve));
}
