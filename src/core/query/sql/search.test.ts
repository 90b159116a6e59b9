import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchCondition } from './search.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import { ALL_DIALECTS, compilingDatabase, type DialectName } from '../../../../test/helpers/unit-sql.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const author = typeOf(schema, 'api::author.author');
const item = typeOf(schema, 'api::item.item');

/** How each dialect writes "column contains the text, ignoring case" (numbers read as text). */
const CONTAINS: Record<DialectName, { text: (column: string) => string; number: (column: string) => string }> = {
  sqlite: {
    // An ASCII text: SQLite's own LIKE, which ignores ASCII case.
    text: (column) => `"t0"."${column}" like ? escape '!'`,
    number: (column) => `cast("t0"."${column}" as text) like ? escape '!'`,
  },
  postgres: {
    text: (column) => `lower("t0"."${column}") like lower(?) escape '!'`,
    number: (column) => `lower(cast("t0"."${column}" as text)) like lower(?) escape '!'`,
  },
  mysql: {
    text: (column) => `lower(\`t0\`.\`${column}\`) like lower(?) escape '!'`,
    number: (column) => `lower(cast(\`t0\`.\`${column}\` as char)) like lower(?) escape '!'`,
  },
};

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of _q [${dialect}]`, () => {
    const { db, dialect: sqlDialect } = compilingDatabase(dialect);
    const search = (type: typeof article, text: string) => searchCondition(sqlDialect, type, 't0', text).compile(db);
    const expected = (texts: string[], numbers: string[]) => {
      let n = 0;
      const or = `(${[...texts.map(CONTAINS[dialect].text), ...numbers.map(CONTAINS[dialect].number)].join(' or ')})`;
      return dialect === 'postgres' ? or.replace(/\?/g, () => `$${++n}`) : or;
    };

    it('searches documentId, locale, the text attributes and the id, ignoring case', () => {
      const { sql, parameters } = search(article, 'Hi');
      assert.equal(sql, expected(['document_id', 'locale', 'title', 'slug', 'body', 'kind'], ['id']));
      assert.deepEqual(parameters, Array(7).fill('%Hi%'));
    });

    it('searches the numeric attributes too when the text reads as a number', () => {
      assert.equal(
        search(article, '4').sql,
        expected(['document_id', 'locale', 'title', 'slug', 'body', 'kind'], ['id', 'views', 'rating']),
      );
      assert.equal(
        search(item, '4.5').sql,
        expected(
          ['document_id', 'name', 'required', 'note', 'rich', 'email', 'code', 'level'],
          ['id', 'count', 'big', 'ratio', 'price'],
        ),
      );
    });

    it('leaves out private attributes, passwords and searchable: false', () => {
      const { sql } = search(item, 'x');
      for (const column of ['hidden_note', 'password', 'unsearched']) assert.ok(!sql.includes(column), column);
      assert.equal(search(author, 'x').sql, expected(['document_id', 'name', 'email', 'bio'], ['id']));
    });

    it('matches % and _ literally', () => {
      assert.deepEqual(search(author, '50%_!').parameters, Array(5).fill('%50!%!_!!%'));
    });
  });
}
