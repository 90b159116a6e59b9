// The builder's refusals in words (run by the unit tier: npm run test:unit -- admin/src/builder).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusalMessage } from './queries.ts';

describe('admin panel: the builder says why the API refused a batch', () => {
  it("puts Strapi's codes in words and leaves other messages as they are", () => {
    assert.equal(
      refusalMessage('contentType.alreadyExists'),
      'A content-type with this uid already exists: the schema changed meanwhile (contentType.alreadyExists). Discard the changes to load the schema as it is now.',
    );
    assert.equal(refusalMessage('Attribute name is reserved'), 'Attribute name is reserved');
  });
});
