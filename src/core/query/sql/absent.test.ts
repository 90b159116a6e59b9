import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FilterParser } from '../parse/filters.js';
import { holdsWithoutRows } from './absent.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const tag = typeOf(schema, 'api::tag.tag');
/** Whether a filter on tags holds for a row of NULLs (an article without tags). */
const holds = (filters: Record<string, unknown>) =>
  holdsWithoutRows(new FilterParser(schema, {}).parse(tag, filters, ['filters'])!);

describe('a filter on related rows, for a document without any (a row of NULLs)', () => {
  it('holds for null tests', () => {
    assert.equal(holds({ id: { $null: true } }), true);
    assert.equal(holds({ name: { $eq: null } }), true);
    assert.equal(holds({ name: { $notNull: false } }), true);
    assert.equal(holds({ name: { $notIn: [] } }), true);
  });

  it('does not hold for comparisons, which are unknown on NULL', () => {
    for (const filters of [
      { id: { $null: false } },
      { name: 'a' },
      { name: { $ne: 'a' } },
      { name: { $ne: null } },
      { name: { $in: [] } },
      { name: { $in: ['a'] } },
      { name: { $contains: 'a' } },
      { id: { $gt: 1 } },
    ]) {
      assert.equal(holds(filters), false, JSON.stringify(filters));
    }
  });

  it('follows three-valued logic through and, or and not', () => {
    assert.equal(holds({ $or: [{ name: 'a' }, { id: { $null: true } }] }), true, 'unknown or true');
    assert.equal(holds({ $and: [{ name: 'a' }, { id: { $null: true } }] }), false, 'unknown and true');
    assert.equal(holds({ $and: [{ name: { $null: true } }, { id: { $null: true } }] }), true);
    assert.equal(holds({ $or: [] }), false);
    assert.equal(holds({ $and: [] }), true);
    // compileFilter's NOT treats unknown as false before negating.
    assert.equal(holds({ $not: { name: 'a' } }), true);
    assert.equal(holds({ $not: { name: { $null: true } } }), false);
  });

  it('looks through relations below: their rows are missing too', () => {
    assert.equal(holds({ articles: { title: { $null: true } } }), true);
    assert.equal(holds({ articles: { title: 'x' } }), false);
  });
});
