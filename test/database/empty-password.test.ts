/**
 * `DATABASE_PASSWORD=` (set, empty) is the empty password, as Strapi's env() reads it: the blog's
 * `env('DATABASE_PASSWORD', 'strapi')` gives '' and MariaDB's passwordless root connects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/core/config/load.js';
import { createVellum } from '../../src/app/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { HttpClient } from '../helpers/http.js';
import { BLOG, DIALECTS, fullAccessHeaders } from '../helpers/server.js';

for (const dialect of DIALECTS) {
  describe(`an empty DATABASE_PASSWORD is a password [${dialect}]`, () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase(dialect);
    });
    after(() => database?.drop());

    it('configuration files see the empty string, not their default', async () => {
      const client = dialect === 'sqlite' ? 'mysql' : dialect;
      const config = await loadConfig(BLOG, { env: { DATABASE_CLIENT: client, DATABASE_PASSWORD: '' } });
      assert.equal(config.database.client, client);
      assert.equal((config.database as { password?: string }).password, '');
      const unset = await loadConfig(BLOG, { env: { DATABASE_CLIENT: client } });
      assert.equal(
        (unset.database as { password?: string }).password,
        'strapi',
        "the file's default when the variable is not set",
      );
    });

    it('the server connects with it', { skip: dialect === 'sqlite' && 'SQLite has no password' }, async (t) => {
      const connection = (database.config.connection as { connection: Record<string, string | number | undefined> })
        .connection;
      if (connection.password) return t.skip('the test database has a password');
      const vellum = await createVellum(BLOG, {
        env: {
          NODE_ENV: 'test',
          DATABASE_CLIENT: dialect,
          DATABASE_HOST: String(connection.host),
          DATABASE_PORT: String(connection.port),
          DATABASE_NAME: String(connection.database),
          DATABASE_USERNAME: String(connection.user),
          DATABASE_PASSWORD: '',
          ...(dialect === 'postgres' ? { DATABASE_SCHEMA: String(connection.schema) } : {}),
        },
        overrides: { server: { host: '127.0.0.1', port: 0 } },
      });
      try {
        const api = new HttpClient(await vellum.listen(), await fullAccessHeaders(vellum));
        const created = await api.post('/api/tags', { data: { name: 'connected' } });
        assert.equal(created.status, 201, JSON.stringify(created.body));
      } finally {
        await vellum.close();
      }
    });
  });
}
