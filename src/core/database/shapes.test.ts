import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { compiledShape, keptShapes, runShape, shapeKey, SHAPES, type Buildable } from './shapes.js';
import { ALL_DIALECTS, compilingDatabase, spelled } from '../../../test/helpers/unit-sql.js';
import type { Db } from './dialect.js';

/** A select of `table` by id and name, counting how often Kysely builds it. */
function counted(db: Db, table: string) {
  let builds = 0;
  const build = (slots: readonly unknown[]): Buildable => {
    builds += 1;
    return db.selectFrom(table).select('id').where('id', '=', slots[0]).where('name', '=', slots[1]).limit(1);
  };
  return { build, builds: () => builds };
}

describe('statements compiled once per shape (core/database/shapes.ts)', () => {
  for (const dialect of ALL_DIALECTS) {
    it(`${dialect}: built once per key, the values bound on every run, constants kept`, async () => {
      const { db, statements } = compilingDatabase(dialect);
      const { build, builds } = counted(db, 'articles');
      const key = shapeKey('by id and name', 'articles');
      await runShape(db, key, [1, 'one'], build);
      await runShape(db, key, [2, 'two'], build);
      assert.equal(builds(), 1);
      const text = spelled('select "id" from "articles" where "id" = ? and "name" = ? limit ?')[dialect];
      assert.deepEqual(statements, [
        { sql: text, parameters: [1, 'one', 1] },
        { sql: text, parameters: [2, 'two', 1] },
      ]);
    });
  }

  it('kept per database: each dialect compiles its own text for one key', () => {
    const key = shapeKey('by id and name', 'articles');
    const texts = ALL_DIALECTS.map((dialect) => {
      const { db } = compilingDatabase(dialect);
      return compiledShape(db, key, [1, 'one'], counted(db, 'articles').build).sql;
    });
    assert.deepEqual(
      texts,
      Object.values(spelled('select "id" from "articles" where "id" = ? and "name" = ? limit ?')),
    );
  });

  it('a transaction uses the shapes of its database', async () => {
    const { db } = compilingDatabase('sqlite');
    const { build, builds } = counted(db, 'articles');
    const key = shapeKey('by id and name', 'articles');
    compiledShape(db, key, [1, 'one'], build);
    await db.transaction().execute(async (trx) => {
      compiledShape(trx, key, [2, 'two'], build);
    });
    assert.equal(builds(), 1);
  });

  it(`bounded: at most ${SHAPES} per database, the oldest dropped first`, () => {
    const { db } = compilingDatabase('postgres');
    for (let i = 0; i < SHAPES + 20; i++)
      compiledShape(db, shapeKey('table', `t${i}`), [i], (slots) =>
        db.selectFrom(`t${i}`).select('id').where('id', '=', slots[0]),
      );
    assert.equal(keptShapes(db), SHAPES);
    // The first key was dropped: it is built again.
    const { build, builds } = counted(db, 't0');
    compiledShape(db, shapeKey('table', 't0'), [0, 'zero'], build);
    assert.equal(builds(), 1);
  });

  it('refuses a builder that leaves a value out of the bound parameters', () => {
    const { db } = compilingDatabase('sqlite');
    assert.throws(
      () => compiledShape(db, 'dropped', [1, 2], (slots) => db.selectFrom('t').select('id').where('id', '=', slots[0])),
      /binds 1 of its 2 values/,
    );
    assert.throws(
      () => compiledShape(db, 'raw', [1], (slots) => sql`select ${sql.raw(String(slots[0]))}`),
      /binds 0 of its 1 values/,
    );
  });

  it('keys of different parts never meet', () => {
    assert.notEqual(shapeKey('a', 'b'), shapeKey('a\u0000b'));
    assert.notEqual(shapeKey('a', null), shapeKey('a', undefined));
    assert.notEqual(shapeKey('a', 1), shapeKey('a', 1, ''));
  });
});
