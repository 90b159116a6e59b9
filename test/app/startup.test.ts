/**
 * Settings that cannot reach the database stop start-up with one line naming the file, what is
 * wrong and the fix, on every dialect: never a driver's stack, never another database instead.
 * The CLI's own answers (one line on stderr, exit 1) are in test/strapi/cli.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ProjectError } from '../../src/core/errors.js';
import { createVellum } from '../../src/app/server.js';
import { databaseEnv, DIALECTS } from '../helpers/databases.js';
import { BLOG } from '../helpers/paths.js';

const refused = async (env: Record<string, string>, pattern: RegExp) =>
  assert.rejects(
    createVellum(BLOG, { env: { NODE_ENV: 'test', ...env }, overrides: { server: { host: '127.0.0.1', port: 0 } } }),
    (error: unknown) => {
      assert.ok(error instanceof ProjectError, `a ProjectError, not ${String(error)}`);
      assert.ok(!error.message.includes('\n'), `one line: ${error.message}`);
      assert.match(error.message, pattern);
      return true;
    },
  );

for (const dialect of DIALECTS) {
  describe(`a database the settings cannot reach [${dialect}]`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-startup-'));
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('stops start-up naming config/database.js, the database and the fix', async () => {
      const { env, drop } = await databaseEnv(dialect);
      try {
        if (dialect === 'sqlite') {
          writeFileSync(join(dir, 'a-file'), '');
          await refused(
            { DATABASE_FILENAME: join(dir, 'a-file', 'data.db') },
            /^config\/database\.js: cannot connect to SQLite file .*a-file\/data\.db: .*; check the path \(DATABASE_FILENAME\): a part of it is a file$/,
          );
          return;
        }
        // Nothing listens on port 1.
        await refused(
          { ...env, DATABASE_PORT: '1' },
          new RegExp(
            `^config/database\\.js: cannot connect to ${dialect} at 127\\.0\\.0\\.1:1 .*ECONNREFUSED.*; check the host and port \\(DATABASE_HOST, DATABASE_PORT\\) and that the server runs$`,
          ),
        );
        const missing = `vellum_missing_${process.pid}`;
        if (dialect === 'postgres') {
          await refused(
            { ...env, DATABASE_NAME: missing },
            new RegExp(
              `^config/database\\.js: cannot connect to postgres at .* \\(database "${missing}", .*\\): database "${missing}" does not exist; create it, or check its name \\(DATABASE_NAME\\)$`,
            ),
          );
          await refused(
            { ...env, DATABASE_USERNAME: missing },
            new RegExp(
              `^config/database\\.js: cannot connect to postgres .*role "${missing}" does not exist; check the user \\(DATABASE_USERNAME\\)`,
            ),
          );
        } else {
          await refused(
            { ...env, DATABASE_NAME: missing },
            new RegExp(
              `^config/database\\.js: cannot connect to mysql .*Unknown database '${missing}'; create it, or check its name \\(DATABASE_NAME\\)$`,
            ),
          );
          await refused(
            { ...env, DATABASE_PASSWORD: 'not-the-password' },
            /^config\/database\.js: cannot connect to mysql .*Access denied for user .*; check the user and password \(DATABASE_USERNAME, DATABASE_PASSWORD\)$/,
          );
        }
      } finally {
        await drop();
      }
    });
  });
}
