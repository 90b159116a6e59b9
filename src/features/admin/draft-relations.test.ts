import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { queriedIds } from './draft-relations.js';

describe('countManyEntriesDraftRelations: the documentIds of the query', () => {
  it('takes a list, one id, or the object qs makes past its 100 indexes', () => {
    assert.deepEqual(queriedIds(['a', 'b']), ['a', 'b']);
    assert.deepEqual(queriedIds('a'), ['a']);
    assert.deepEqual(queriedIds({ 0: 'a', 150: 'b' }), ['a', 'b']);
  });
  it('leaves out what names no document', () => {
    assert.deepEqual(queriedIds(undefined), []);
    assert.deepEqual(queriedIds(['a', '', { x: 1 }, 3]), ['a']);
  });
});
