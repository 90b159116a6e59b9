/**
 * `vellum develop`: serves a project and applies every change of its `src/`, `config/` and `.env`
 * without a restart and without dropping a request. One Node HTTP server keeps the port; behind
 * it, each version of the project is a whole node (createVellum: configuration, schema, database
 * synchronisation, project code, routes). A change builds the next one beside the running one;
 * once it is ready, new requests go to it, and the previous one closes when its last request has
 * been answered. A change that does not start (a schema error, a throwing bootstrap) is printed in
 * one line and the previous version goes on serving.
 *
 * A TypeScript project (one with a tsconfig.json) gets its `types/generated/` written again with
 * each version, as `strapi develop` keeps them.
 *
 * Strapi's `develop` restarts its process for each change (3.4-10.5 s measured on a change of a
 * content-type, requests refused meanwhile).
 */
import { existsSync, statSync, watch, type FSWatcher } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { dirname, join, relative } from 'node:path';
import type { FastifyServerFactoryHandler } from 'fastify';
import { createNodeServer } from '../api/http.js';
import { forgetProjectModules } from '../core/project/modules.js';
import { writeGeneratedTypes } from '../features/typegen/index.js';
import { rawSchemaOf } from './open-project.js';
import { createVellum, type CreateVellumOptions, type Vellum } from './server.js';

/** Changes closer together than this are applied as one (an editor saves several files at once). */
const SETTLE_MS = 150;
/** A previous version still answering requests after this long is closed anyway. */
const DRAIN_MS = 30_000;

interface Version {
  vellum: Vellum;
  handler: FastifyServerFactoryHandler;
  inFlight: number;
  drained?: () => void;
}

export interface DevelopOptions extends Omit<CreateVellumOptions, 'handlerOf' | 'reload' | 'reloadPending'> {
  /** A version started (`reloaded` after the first), or a change that did not start. */
  report?: (event: DevelopEvent) => void;
  /** What a failure to listen (a taken port) becomes, with the configuration that chose the port. */
  listenFailure?: (config: Vellum['config'], error: unknown) => unknown;
}

export type DevelopEvent =
  | { kind: 'started'; url: string; vellum: Vellum }
  | { kind: 'reloaded'; ms: number; files: string[]; vellum: Vellum }
  | { kind: 'failed'; files: string[]; error: unknown };

export interface DevelopServer {
  url: string;
  /** The version serving now. */
  readonly current: Vellum;
  close(): Promise<void>;
}

export async function startDevelop(projectDir: string, options: DevelopOptions = {}): Promise<DevelopServer> {
  const report = options.report ?? (() => undefined);
  const build = async (): Promise<Version> => {
    let handler: FastifyServerFactoryHandler | undefined;
    const vellum = await createVellum(projectDir, {
      ...options,
      handlerOf: (h) => (handler = h),
      reload: (files) => reloadNow(files),
      reloadPending: () => changed.size > 0 || reloading !== undefined,
    });
    try {
      await vellum.app.ready();
    } catch (error) {
      await vellum.close();
      throw error;
    }
    // A TypeScript project's generated types follow its schema, as Strapi's develop keeps them.
    if (existsSync(join(projectDir, 'tsconfig.json')))
      await writeGeneratedTypes({ dir: projectDir, schema: vellum.schema, rawSchema: rawSchemaOf(projectDir) }).catch(
        (error: unknown) => vellum.warnings.push(`types/generated not written: ${(error as Error).message}`),
      );
    return { vellum, handler: handler!, inFlight: 0 };
  };

  let current = await build();
  const server: Server = createNodeServer(current.vellum.config);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const version = current;
    version.inFlight += 1;
    response.once('close', () => {
      version.inFlight -= 1;
      if (version.inFlight === 0) version.drained?.();
    });
    version.handler(request, response);
  });
  const { host, port } = current.vellum.config.server;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    await current.vellum.close();
    throw options.listenFailure ? options.listenFailure(current.vellum.config, error) : error;
  }
  const address = server.address();
  const listening = address && typeof address === 'object' ? address.port : port;
  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${listening}`;
  report({ kind: 'started', url, vellum: current.vellum });

  /** Closes a version once its requests are answered (or after DRAIN_MS). */
  const retire = async (version: Version) => {
    if (version.inFlight > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, DRAIN_MS);
        version.drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    await version.vellum.close();
  };

  // Changes are applied one at a time; what changes meanwhile is applied next, together.
  let changed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let reloading: Promise<void> | undefined;
  let closed = false;
  const reload = async (): Promise<void> => {
    // The files saved or removed (a new folder is reported too: its files name it).
    const files = [...changed]
      .filter((file) => !statSync(join(projectDir, file), { throwIfNoEntry: false })?.isDirectory())
      .sort();
    changed = new Set();
    const began = performance.now();
    forgetProjectModules(projectDir);
    try {
      const next = await build();
      if (closed) {
        await next.vellum.close();
        return;
      }
      const previous = current;
      current = next;
      report({ kind: 'reloaded', ms: Math.round(performance.now() - began), files, vellum: next.vellum });
      void retire(previous);
    } catch (error) {
      report({ kind: 'failed', files, error });
      throw error;
    }
  };
  /** Changes the watcher reports for files this process wrote itself (the Content-Type Builder's). */
  const written = new Map<string, number>();
  /**
   * The Content-Type Builder wrote these files: the next version is built at once rather than after
   * the watcher's settling time, and the watcher's own reports of them are not applied again.
   */
  const reloadNow = async (files: string[]): Promise<void> => {
    const until = Date.now() + 2_000;
    for (const file of files)
      for (let path = file; path && path !== '.'; path = dirname(path)) written.set(path, until);
    for (const file of files) changed.add(file);
    clearTimeout(timer);
    while (reloading) await reloading.catch(() => undefined);
    const run = reload();
    reloading = run.catch(() => undefined).finally(() => (reloading = undefined));
    return run;
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (reloading) return schedule();
      reloading = reload()
        .catch(() => undefined)
        .finally(() => (reloading = undefined));
    }, SETTLE_MS);
  };
  const watchers: FSWatcher[] = [];
  const observe = (path: string, recursive: boolean) => {
    if (!existsSync(path)) return;
    watchers.push(
      watch(path, { recursive }, (_event, name) => {
        if (closed) return;
        const file = name ? relative(projectDir, join(recursive ? path : join(path, '..'), String(name))) : path;
        if (!recursive && file !== relative(projectDir, path)) return;
        if ((written.get(file) ?? 0) > Date.now()) return;
        changed.add(file);
        schedule();
      }),
    );
  };
  observe(join(projectDir, 'src'), true);
  observe(join(projectDir, 'config'), true);
  // The .env file is watched through its folder: editors replace the file rather than write it.
  watchers.push(
    watch(projectDir, (_event, name) => {
      if (closed || (name !== '.env' && name !== 'src' && name !== 'config')) return;
      changed.add(String(name));
      schedule();
    }),
  );

  return {
    url,
    get current() {
      return current.vellum;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      await reloading;
      server.closeIdleConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await retire(current);
    },
  };
}
