// The audit log screen's logic (run by the unit tier: npm run test:unit -- admin/src).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionLabel, countLabel, dayStart, filtersOf, listQuery, subjectOf, type AuditLogEntry } from './audit.ts';

const entry = (payload: AuditLogEntry['payload']): AuditLogEntry => ({
  id: 1,
  action: 'entry.update',
  date: '2025-01-31T10:00:00.000Z',
  user: { id: 1, email: 'ann@example.com', displayName: 'Ann' },
  payload,
});

describe('admin panel: audit log screen', () => {
  it("builds Strapi's filters from the screen's, the last day included", () => {
    assert.equal(filtersOf({}), undefined);
    assert.deepEqual(filtersOf({ user: '3', action: 'entry.publish', type: 'api::article.article' }), {
      $and: [
        { user: { id: { $eq: '3' } } },
        { action: { $eq: 'entry.publish' } },
        { contentType: { $eq: 'api::article.article' } },
      ],
    });
    const start = Date.parse('2025-01-30T00:00:00Z');
    assert.deepEqual(filtersOf({ from: '2025-01-30', to: '2025-01-31' }), {
      $and: [{ date: { $gte: String(start) } }, { date: { $lt: String(start + 2 * 86_400_000) } }],
    });
    // A day the input did not finish is no filter.
    assert.equal(filtersOf({ from: '2025-01' }), undefined);
    assert.equal(dayStart('2025-13-45'), undefined);
  });

  it('asks for a page newest first, after a cursor', () => {
    assert.equal(
      decodeURIComponent(listQuery({ action: 'entry.create' }, 25, '1700000000000_42')),
      '?filters[$and][0][action][$eq]=entry.create&sort=date:DESC&pageSize=25&cursor=1700000000000_42',
    );
    assert.equal(decodeURIComponent(listQuery({}, 10)), '?sort=date:DESC&pageSize=10');
  });

  it('names actions, subjects and counts', () => {
    assert.equal(actionLabel('entry.publish'), 'Publish entry');
    assert.equal(actionLabel('something.else'), 'something.else');
    assert.equal(
      subjectOf(entry({ uid: 'api::article.article', documentId: 'abc', locale: 'en' }), (uid) =>
        uid === 'api::article.article' ? 'Article' : undefined,
      ),
      'Article abc (en)',
    );
    assert.equal(subjectOf(entry({ subject: 'users-permissions.advanced' })), 'users-permissions.advanced');
    assert.equal(
      subjectOf(entry({ uid: 'plugin::users-permissions.role', documentId: 'r1' })),
      'plugin::users-permissions.role r1',
    );
    assert.equal(subjectOf(entry({})), '—');
    assert.equal(countLabel(1, false), '1 entry');
    assert.equal(countLabel(1234, undefined), '1,234 entries');
    assert.equal(countLabel(10_000, true), '10,000+ entries');
  });
});
