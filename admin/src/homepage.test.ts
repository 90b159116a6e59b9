// The home page's logic (run by the unit tier: npm run test:unit -- admin/src).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countShares, editPath, relativeTime, statusLabel, titleOf } from './homepage.ts';

describe('admin panel: home page', () => {
  it('links each entry to its editor, in its locale', () => {
    const entry = { contentTypeUid: 'api::article.article', kind: 'collectionType' as const, documentId: 'abc' };
    assert.equal(editPath({ ...entry, locale: 'fr' }), '/content/api::article.article/abc?locale=fr');
    assert.equal(editPath({ ...entry, locale: null }), '/content/api::article.article/abc');
    assert.equal(
      editPath({ contentTypeUid: 'api::global.global', kind: 'singleType', documentId: 'x', locale: 'en' }),
      '/content/api::global.global?locale=en',
    );
    assert.equal(
      editPath({
        contentTypeUid: 'plugin::users-permissions.user',
        kind: 'collectionType',
        documentId: 'u',
        locale: null,
      }),
      '/manage/users',
    );
  });

  it('names an entry by its title, else its documentId', () => {
    assert.equal(titleOf({ title: 'Hello', documentId: 'd' }), 'Hello');
    assert.equal(titleOf({ title: 42, documentId: 'd' }), '42');
    assert.equal(titleOf({ title: null, documentId: 'd' }), 'd');
    assert.equal(titleOf({ title: '', documentId: 'd' }), 'd');
  });

  it('labels statuses as the lists do, and none without draft and publish', () => {
    assert.deepEqual((['draft', 'published', 'modified', undefined] as const).map(statusLabel), [
      'Draft',
      'Published',
      'Modified',
      null,
    ]);
  });

  it('tells how long ago', () => {
    const now = new Date('2026-05-01T12:00:00.000Z');
    assert.equal(relativeTime('2026-05-01T12:00:00.000Z', now), 'now');
    assert.equal(relativeTime('2026-05-01T11:59:30.000Z', now), '30 seconds ago');
    assert.equal(relativeTime('2026-05-01T11:57:00.000Z', now), '3 minutes ago');
    assert.equal(relativeTime('2026-05-01T09:00:00.000Z', now), '3 hours ago');
    assert.equal(relativeTime('2026-04-30T12:00:00.000Z', now), 'yesterday');
    assert.equal(relativeTime('2025-04-01T12:00:00.000Z', now), 'last year');
    assert.equal(relativeTime('not a date', now), '');
  });

  it('shares the counts out by status', () => {
    assert.deepEqual(countShares({ draft: 1, modified: 1, published: 2 }), {
      total: 4,
      shares: [
        { label: 'Draft', count: 1, percent: 25 },
        { label: 'Modified', count: 1, percent: 25 },
        { label: 'Published', count: 2, percent: 50 },
      ],
    });
    assert.equal(countShares({ draft: 0, modified: 0, published: 0 }).shares[0]!.percent, 0);
  });
});
