/**
 * Fresh databases for tests: a temporary SQLite file, a new PostgreSQL schema or a new MariaDB
 * database per server, on the local servers (see docs/contributing/testing.md "Databases for the tests"), dropped when the server stops.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export const DIALECTS: DialectName[] = (process.env.VELLUM_TEST_DIALECTS ?? 'sqlite,postgres,mysql')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is DialectName => name === 'sqlite' || name === 'postgres' || name === 'mysql');

/** The test PostgreSQL server (VELLUM_TEST_PG_*). */
export const PG = {
  host: process.env.VELLUM_TEST_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.VELLUM_TEST_PG_PORT ?? 5432),
  user: process.env.VELLUM_TEST_PG_USER ?? 'postgres',
  password: process.env.VELLUM_TEST_PG_PASSWORD,
  database: process.env.VELLUM_TEST_PG_DATABASE ?? 'test',
};
const MYSQL = {
  host: process.env.VELLUM_TEST_MYSQL_HOST ?? '127.0.0.1',
  port: Number(process.env.VELLUM_TEST_MYSQL_PORT ?? 3306),
  user: process.env.VELLUM_TEST_MYSQL_USER ?? 'root',
  password: process.env.VELLUM_TEST_MYSQL_PASSWORD ?? '',
};

export interface TestDatabase {
  /** `config/database` overrides pointing at the fresh database. */
  config: Record<string, unknown>;
  drop(): Promise<void>;
}

const uniqueName = () => `vt_${process.pid}_${randomBytes(4).toString('hex')}`;

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const name = uniqueName();
  switch (dialect) {
    case 'sqlite': {
      const dir = mkdtempSync(join(tmpdir(), 'vellum-test-'));
      return {
        config: { connection: { client: 'sqlite', connection: { filename: join(dir, 'data.db') } } },
        drop: async () => rmSync(dir, { recursive: true, force: true }),
      };
    }
    case 'postgres':
      return {
        config: { connection: { client: 'postgres', connection: { ...PG, schema: name } } },
        drop: async () => {
          const client = new pg.Client(PG);
          await client.connect();
          await client.query(`drop schema if exists "${name}" cascade`);
          await client.end();
        },
      };
    case 'mysql': {
      const admin = await mysql.createConnection(MYSQL);
      await admin.query(`create database \`${name}\` character set utf8mb4 collate utf8mb4_bin`);
      await admin.end();
      return {
        config: { connection: { client: 'mysql', connection: { ...MYSQL, database: name } } },
        drop: async () => {
          const client = await mysql.createConnection(MYSQL);
          await client.query(`drop database if exists \`${name}\``);
          await client.end();
        },
      };
    }
  }
}

/** The variables of Strapi's default config/database (the blog's) that reach a fresh test database. */
export async function databaseEnv(
  dialect: DialectName,
): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const database = await createTestDatabase(dialect);
  const { connection } = (
    database.config as { connection: { connection: Record<string, string | number | undefined> } }
  ).connection;
  if (dialect === 'sqlite')
    return { env: { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: String(connection.filename) }, drop: database.drop };
  const env: Record<string, string> = {
    DATABASE_CLIENT: dialect,
    DATABASE_HOST: String(connection.host),
    DATABASE_PORT: String(connection.port),
    DATABASE_USERNAME: String(connection.user),
    DATABASE_PASSWORD: String(connection.password ?? ''),
    DATABASE_NAME: String(connection.database),
  };
  if (connection.schema) env.DATABASE_SCHEMA = String(connection.schema);
  return { env, drop: database.drop };
}
