/**
 * SQLite's write-ahead log is copied back into the database file by a thread of its own
 * (core/database/dialects/sqlite-checkpointer.ts), every 20 commits, not by the main connection's
 * commit once the log holds 1,000 pages; and that thread never keeps a finished process alive.
 * What was copied is read from the log's index, the `-shm` file (https://sqlite.org/walformat.html:
 * the header's `mxFrame` at byte 16, the checkpoint's `nBackfill` at byte 96, native byte order).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from '../helpers/paths.js';

describe('SQLite checkpoints', () => {
  it('a thread checkpoints the log after 20 commits, and a process that never closes still exits', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-checkpoints-'));
    try {
      const file = join(dir, 'data.db');
      const script = `
        import { readFileSync } from 'node:fs';
        import { sql } from 'kysely';
        import { createSqliteKysely } from ${JSON.stringify(join(ROOT, 'src/core/database/dialects/sqlite.ts'))};
        const db = createSqliteKysely({ filename: ${JSON.stringify(file)}, statementTimeout: 10000 }, undefined);
        await sql\`create table t (x integer)\`.execute(db);
        for (let i = 1; i < 40; i++) await sql\`insert into t (x) values (\${i})\`.execute(db);
        const header = () => {
          const shm = readFileSync(${JSON.stringify(`${file}-shm`)});
          return { frames: shm.readUInt32LE(16), copied: shm.readUInt32LE(96) };
        };
        let seen = header();
        for (let waited = 0; waited < 10000 && !(seen.copied > 0 && seen.copied === seen.frames); waited += 20) {
          await new Promise((done) => setTimeout(done, 20));
          seen = header();
        }
        console.log(JSON.stringify(seen));`;
      // The timeout only stops a hang; the assertion is on how the process ended.
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(child.signal, null, 'killed: the process did not exit by itself');
      assert.equal(child.status, 0, child.stderr);
      const { frames, copied } = JSON.parse(child.stdout.trim()) as { frames: number; copied: number };
      assert.ok(frames > 0 && copied === frames, `log frames ${frames}, copied ${copied}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
