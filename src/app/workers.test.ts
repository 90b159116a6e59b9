/** How many processes `vellum start` serves with (app/workers.ts), from VELLUM_WORKERS or config/server. */
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../core/config/load.js';
import { ProjectError } from '../core/errors.js';
import { workerCount } from './workers.js';

const PROJECT = join('/nonexistent', 'vellum-unit-project');
const config = (env: Record<string, string>, server: Record<string, unknown> = {}, filename = 'data.db') =>
  loadConfig(PROJECT, {
    env,
    overrides: { server, database: { connection: { client: 'sqlite', connection: { filename } } } },
  });

describe('workers of vellum start', () => {
  it('are one per core unless set: VELLUM_WORKERS, else config/server workers', async () => {
    assert.equal(workerCount(await config({})), availableParallelism());
    assert.equal(workerCount(await config({}, { workers: 'auto' })), availableParallelism());
    assert.equal(workerCount(await config({}, { workers: 3 })), 3);
    assert.equal(workerCount(await config({ VELLUM_WORKERS: '2' })), 2);
    // The operator's variable wins over the file.
    assert.equal(workerCount(await config({ VELLUM_WORKERS: '1' }, { workers: 4 })), 1);
    assert.equal(workerCount(await config({ VELLUM_WORKERS: 'auto' }, { workers: 4 })), availableParallelism());
  });

  it('refuse anything but a whole number from 1, or auto, in one line', async () => {
    for (const value of ['0', 'two', '1.5', '-1']) {
      await assert.rejects(config({ VELLUM_WORKERS: value }), (error: unknown) => {
        assert.ok(error instanceof ProjectError);
        assert.equal(
          error.message,
          'config/server: workers: must be a number of processes (1 or more) or "auto" (one per core); set VELLUM_WORKERS or workers',
        );
        return true;
      });
    }
  });

  it('are one on an in-memory SQLite database, and more are refused', async () => {
    assert.equal(workerCount(await config({}, {}, ':memory:')), 1);
    const two = await config({ VELLUM_WORKERS: '2' }, {}, ':memory:');
    assert.throws(() => workerCount(two), /in-memory SQLite database .* set VELLUM_WORKERS=1/);
  });
});
