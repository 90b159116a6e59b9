/**
 * The typed handles of system-tables.ts change types, never statements: what they compile is what
 * the untyped `Db` compiles. No database: Kysely's DummyDriver, `.compile()` only. The types
 * themselves are checked by `npm run typecheck` (this file included).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import type { Db } from './dialect.js';
import {
  BACKGROUND,
  isBackground,
  shaped,
  table,
  type ComponentLinkRow,
  type LinkRow,
  type SystemDb,
} from './system-tables.js';
import { META_TABLE } from './tables.js';

const postgres: Db = new Kysely({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});
const mysql: Db = new Kysely({
  dialect: {
    createAdapter: () => new MysqlAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new MysqlIntrospector(db),
    createQueryCompiler: () => new MysqlQueryCompiler(),
  },
});

describe('background statements', () => {
  it("end with the mark, after a claim's lock clause, and only they do", () => {
    const claim = postgres
      .selectFrom('queue')
      .select('id')
      .limit(3)
      .forUpdate()
      .skipLocked()
      .modifyEnd(BACKGROUND)
      .compile().sql;
    assert.equal(claim, 'select "id" from "queue" limit $1 for update skip locked /* vellum:background */');
    assert.ok(isBackground(claim));
    assert.ok(
      isBackground(
        mysql.updateTable('queue').set({ state: 'x' }).where('id', '=', 1).modifyEnd(BACKGROUND).compile().sql,
      ),
    );
    assert.ok(!isBackground(postgres.selectFrom('queue').select('id').compile().sql));
  });
});

describe('system tables', () => {
  it('Database.system: typed rows of fixed-name tables, the same statement', async () => {
    const system: SystemDb = postgres;
    const typed = system.selectFrom(META_TABLE).select('value').where('name', '=', 'auth.jwt_secret');
    // Typed (checked at compile time): `value` is `string | null`; the dummy driver answers no row.
    const value: string | null | undefined = (await typed.executeTakeFirst())?.value;
    assert.equal(value, undefined);
    assert.equal(
      typed.compile().sql,
      postgres.selectFrom(META_TABLE).select('value').where('name', '=', 'auth.jwt_secret').compile().sql,
    );
    assert.equal(typed.compile().sql, 'select "value" from "vellum_meta" where "name" = $1');
  });

  it('shaped: a run-time name read as a fixed-shape table', () => {
    for (const db of [postgres, mysql]) {
      const links = shaped<LinkRow>(db)
        .selectFrom('articles_tags_lnk')
        .select(['target_document_id', 'target_locale'])
        .where('entity_id', '=', 1);
      const untyped = db
        .selectFrom('articles_tags_lnk')
        .select(['target_document_id', 'target_locale'])
        .where('entity_id', '=', 1);
      assert.equal(links.compile().sql, untyped.compile().sql);
      const components = shaped<ComponentLinkRow>(db)
        .selectFrom('articles_cmps')
        .selectAll()
        .where('entity_id', 'in', [1, 2])
        .orderBy('ord');
      assert.equal(
        components.compile().sql,
        db.selectFrom('articles_cmps').selectAll().where('entity_id', 'in', [1, 2]).orderBy('ord').compile().sql,
      );
    }
  });

  it('table: a typed from/join item that reads as `name as alias`', () => {
    const expected = {
      postgres:
        'select "u"."id", "l"."target_document_id" as "role" from "up_users" as "u" left join "up_users_role_lnk" as "l" on "l"."entity_id" = "u"."id" where "u"."id" = $1',
      mysql:
        'select `u`.`id`, `l`.`target_document_id` as `role` from `up_users` as `u` left join `up_users_role_lnk` as `l` on `l`.`entity_id` = `u`.`id` where `u`.`id` = ?',
    };
    for (const [name, db] of [
      ['postgres', postgres],
      ['mysql', mysql],
    ] as const) {
      const system: SystemDb = db;
      const typed = system
        .selectFrom(table<{ id: number }>('up_users').as('u'))
        .leftJoin(table<LinkRow>('up_users_role_lnk').as('l'), 'l.entity_id', 'u.id')
        .select(['u.id', 'l.target_document_id as role'])
        .where('u.id', '=', 3);
      const untyped = db
        .selectFrom('up_users as u')
        .leftJoin('up_users_role_lnk as l', 'l.entity_id', 'u.id')
        .select(['u.id', 'l.target_document_id as role'])
        .where('u.id', '=', 3);
      assert.equal(typed.compile().sql, expected[name]);
      assert.equal(untyped.compile().sql, expected[name]);
    }
  });
});
