/** The statement a read of one document runs, pinned per dialect (see find-many.test.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseReadOneQuery } from '../../query/parse/index.js';
import { findOne } from './find-one.js';
import { I18N, REST, typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';
import {
  ALL_DIALECTS,
  compilingDatabase,
  spelled,
  type DialectName,
  type Statement,
} from '../../../../test/helpers/unit-sql.js';
import { ReadBudget } from '../read/budget.js';
import { createPasswords } from '../../passwords.js';

const schema = unitSchema();
const ROW = '"t0"."id", "t0"."document_id", "t0"."locale", "t0"."published_at", "t0"."created_at", "t0"."updated_at"';

async function statementsOf(
  dialect: DialectName,
  uid: string,
  documentId: string | null,
  query: Record<string, unknown>,
): Promise<Statement[]> {
  const database = compilingDatabase(dialect);
  const type = typeOf(schema, uid);
  const found = await findOne(
    { database: database.database, schema, i18n: I18N, passwords: createPasswords({ rounds: 4 }) },
    type,
    documentId,
    parseReadOneQuery(schema, type, query, { rest: REST, i18n: I18N }),
    {},
    new ReadBudget(REST.costLimit, 'api.rest.costLimit'),
  );
  assert.equal(found, null);
  return database.statements;
}

for (const dialect of ALL_DIALECTS) {
  describe(`SQL of single document reads [${dialect}]`, () => {
    it('a document by documentId in one version: no sort, a bounded read (on the main thread with SQLite)', async () => {
      assert.deepEqual(
        await statementsOf(dialect, 'api::article.article', 'abc', { fields: 'title', locale: 'fr', status: 'draft' }),
        [
          {
            sql: spelled(
              `/*rows*/ /*inline*/ select ${ROW}, "t0"."title" from "articles" as t0 where (("t0"."published_at" is null and "t0"."locale" = ?) and t0.document_id = ?) limit 1`,
            )[dialect],
            parameters: ['fr', 'abc'],
          },
        ],
      );
    });

    it('filters choosing among the locales: the first row by id', async () => {
      const [statement] = await statementsOf(dialect, 'api::article.article', 'abc', {
        fields: 'title',
        filters: { locale: { $in: ['fr', 'en'] } },
      });
      assert.equal(
        statement!.sql,
        spelled(
          `/*rows*/ select ${ROW}, "t0"."title" from "articles" as t0 where ("t0"."published_at" is not null and "t0"."locale" in (?, ?) and t0.document_id = ?) order by t0.id limit 1`,
        )[dialect],
      );
      assert.deepEqual(statement!.parameters, ['fr', 'en', 'abc']);
    });

    it('the document of a single type: its first row', async () => {
      assert.deepEqual(await statementsOf(dialect, 'api::global.global', null, {}), [
        {
          sql: spelled(
            `/*rows*/ select ${ROW}, "t0"."site_name" from "globals" as t0 where 1 = 1 order by t0.id limit 1`,
          )[dialect],
          parameters: [],
        },
      ]);
    });

    it('a sort applies when asked', async () => {
      const [statement] = await statementsOf(dialect, 'api::tag.tag', 'abc', { sort: 'name:desc' });
      assert.equal(
        statement!.sql,
        spelled(
          `/*rows*/ select ${ROW}, "t0"."name" from "tags" as t0 where (1 = 1 and t0.document_id = ?) order by "t0"."name" desc, "t0"."id" asc limit 1`,
        )[dialect],
      );
    });
  });
}
