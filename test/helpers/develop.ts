/**
 * A copy of a project under `vellum develop` on a fresh database (the Content-Type Builder's writes
 * change its files, and the next version serves them), with its first administrator: opened in the
 * calling describe's `before`, closed and removed in its `after` (what was opened of it, should the
 * opening fail halfway).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startDevelop, type DevelopServer } from '../../src/app/develop.js';
import { registerFirstAdmin } from './admins.js';
import { createTestDatabase, type DialectName, type TestDatabase } from './databases.js';
import { HttpClient } from './http.js';
import { BLOG } from './paths.js';
import { fullAccessHeaders } from './server.js';

export interface DevelopProject {
  /** The copy's folder. */
  dir: string;
  dev: DevelopServer;
  /** The first administrator's client (its `defaultHeaders.authorization` for other clients). */
  admin: HttpClient;
  /** The content API with a full-access token. */
  api: HttpClient;
}

export function openDevelopProject(dialect: DialectName, source = BLOG): DevelopProject {
  const project = {} as DevelopProject;
  let database: TestDatabase | undefined;
  before(async () => {
    project.dir = mkdtempSync(join(tmpdir(), 'vellum-develop-'));
    cpSync(source, project.dir, { recursive: true, filter: (path) => !path.includes('.tmp') });
    database = await createTestDatabase(dialect);
    project.dev = await startDevelop(project.dir, {
      env: { NODE_ENV: 'test' },
      overrides: { server: { host: '127.0.0.1', port: 0 }, database: database.config },
    });
    const url = project.dev.url;
    project.admin = (await registerFirstAdmin({ url, publicApi: new HttpClient(url) })).client;
    project.api = new HttpClient(url, await fullAccessHeaders(project.dev.current));
  });
  after(async () => {
    await project.dev?.close();
    await database?.drop();
    if (project.dir) rmSync(project.dir, { recursive: true, force: true });
  });
  return project;
}

/**
 * Waits until the version that answers is the one after the Content-Type Builder's change (its
 * flag is its own). The deadline is generous: on MySQL in a loaded CI run, a version's tables took
 * 2-3 s per change, and a count of tries ran out before a version served.
 */
export async function schemaApplied(admin: HttpClient): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const status = await admin.get('/content-type-builder/update-schema-status');
    if (status.status === 200 && status.body.data.isUpdating === false) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the change was never applied within 120 s');
}
