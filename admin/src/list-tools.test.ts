// The list tools' logic (run by the unit tier: npm run test:unit -- admin/src).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from './api.ts';
import { bulkSummary, prohibitedFields, withoutProhibited } from './list-tools.ts';

describe('admin panel: list tools', () => {
  it('sums a bulk action up', () => {
    assert.equal(bulkSummary('bulkPublish', { count: 2 }, 3), 'Published 2 of 3 entries');
    assert.equal(bulkSummary('bulkDelete', { count: 0 }, 1), 'Deleted 0 of 1 entry');
  });

  it('reads the fields a copy cannot take, and leaves the top-level ones out of the copy', () => {
    const refused = new ApiError(400, 'Entity could not be cloned', [], {
      prohibitedFields: [
        [['slug'], 'unique'],
        [['owner'], 'relation'],
        [['seo', 'code'], 'unique'],
      ],
    });
    const fields = prohibitedFields(refused);
    assert.equal(fields.length, 3);
    assert.deepEqual(withoutProhibited(fields), { slug: null, owner: { set: [] } });
    assert.deepEqual(prohibitedFields(new ApiError(403, 'Forbidden')), []);
    assert.deepEqual(prohibitedFields(new Error('x')), []);
  });
});
