import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createDocumentId } from './document-id.js';

describe('documentIds', () => {
  it('are 24 lowercase letters and digits, starting with a letter, and do not repeat', () => {
    const ids = Array.from({ length: 2000 }, createDocumentId);
    for (const id of ids) assert.match(id, /^[a-z][a-z0-9]{23}$/);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('use every character of the alphabet', () => {
    const seen = new Set(Array.from({ length: 500 }, createDocumentId).join(''));
    assert.equal(seen.size, 36);
  });
});
