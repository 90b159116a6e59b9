/**
 * SQLite's reader threads (core/database/dialects/sqlite-readers.ts) never keep a finished process
 * alive: a CLI command or a test file that reads and never closes its database still exits. A
 * version that started the threads when the database opened broke this (Node 20 forgets `ref()`
 * and `unref()` made before a thread is online): idle threads held test files open until CI's
 * timeout, and a CLI command sometimes exited 0 before its read answered.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/paths.js';

describe('SQLite reader threads', () => {
  it('a process that reads and never closes its database exits by itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-readers-'));
    try {
      const script = `
        import { sql } from 'kysely';
        import { createSqliteKysely } from ${JSON.stringify(join(ROOT, 'src/core/database/dialects/sqlite.ts'))};
        const db = createSqliteKysely({ filename: ${JSON.stringify(join(dir, 'data.db'))}, statementTimeout: 10000 }, undefined);
        await sql\`select 1\`.execute(db);
        console.log('read');`;
      // The timeout only stops a hang; the assertion is on how the process ended.
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(child.signal, null, 'killed: the process did not exit by itself');
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout.trim(), 'read');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a read stopped at the budget leaves nothing holding the process while its statement runs on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-readers-'));
    try {
      // Counting to 10^7 takes 0.5-3 s: far past the 100 ms budget, and still running when looked at.
      const script = `
        import { sql } from 'kysely';
        import { createSqliteKysely } from ${JSON.stringify(join(ROOT, 'src/core/database/dialects/sqlite.ts'))};
        const db = createSqliteKysely({ filename: ${JSON.stringify(join(dir, 'data.db'))}, statementTimeout: 100 }, undefined);
        const error = await sql\`with recursive c(x) as (select 1 union all select x + 1 from c where x < 10000000) select count(*) from c\`
          .execute(db)
          .catch((error) => error);
        await db.destroy();
        console.log(JSON.stringify({ error: error.message, open: process.getActiveResourcesInfo() }));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(child.status, 0, child.stderr);
      const { error, open } = JSON.parse(child.stdout.trim()) as { error: string; open: string[] };
      assert.match(error, /ran longer than 100 ms/);
      assert.deepEqual(
        open.filter((kind) => kind === 'MessagePort'),
        [],
        `still holding the process: ${open.join(', ')}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
