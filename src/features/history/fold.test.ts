import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectError } from '../../core/errors.js';
import { applyRelation, foldDocument, fullData, type ChainRow } from './fold.js';
import { historySettings } from './retention.js';

const row = (id: number, kind: string, status: string, data: unknown = {}): ChainRow => ({
  id,
  kind,
  status,
  data: JSON.stringify(data),
});
const ref = (documentId: string) => ({ documentId, locale: null });
const foldChain = (rows: ChainRow[]) => foldDocument(rows).states;

describe('history fold', () => {
  it('folds values and relation changes in order, and goes back to the published content on discard', () => {
    const rows = [
      row(1, 'create', 'draft', { v: { title: 'a', body: 'x' }, r: { tags: { set: [ref('t1'), ref('t2')] } } }),
      row(2, 'update', 'published', { v: { title: 'b' }, r: { tags: { disconnect: [ref('t1')] } } }),
      row(3, 'update', 'modified', {
        v: { body: 'y' },
        r: { tags: { connect: [{ ...ref('t3'), position: { start: true } }] } },
      }),
      row(4, 'discard', 'published'),
      row(5, 'unpublish', 'draft'),
      row(6, 'discard', 'draft'),
    ];
    const states = foldChain(rows);
    assert.deepEqual(states.get(3), { values: { title: 'b', body: 'y' }, relations: { tags: [ref('t3'), ref('t2')] } });
    assert.deepEqual(states.get(4), { values: { title: 'b', body: 'x' }, relations: { tags: [ref('t2')] } });
    // Nothing published to go back to after an unpublish: the content stays.
    assert.deepEqual(states.get(6), states.get(4));
  });

  it('places connected entries before or after another, else at the end', () => {
    const list = [ref('a'), ref('b')];
    assert.deepEqual(applyRelation(list, { connect: [{ ...ref('c'), position: { before: 'b' } }] }), [
      ref('a'),
      ref('c'),
      ref('b'),
    ]);
    assert.deepEqual(applyRelation(list, { connect: [{ ...ref('c'), position: { after: 'a' } }] }), [
      ref('a'),
      ref('c'),
      ref('b'),
    ]);
    assert.deepEqual(applyRelation(list, { connect: [{ ...ref('a') }] }), [ref('b'), ref('a')]);
  });

  it('reads a full row written by retention as the rows it replaced', () => {
    const rows = [
      row(1, 'create', 'published', { v: { title: 'a' }, r: { tags: { set: [ref('t1')] } } }),
      row(2, 'update', 'modified', { v: { title: 'b' } }),
      row(3, 'discard', 'published'),
    ];
    const { states, publishedBefore } = foldDocument(rows);
    const full = row(2, 'full', 'modified');
    full.data = fullData(states.get(2)!, publishedBefore.get(2) ?? null);
    const again = foldChain([full, rows[2]!]);
    assert.deepEqual(again.get(2), states.get(2));
    assert.deepEqual(again.get(3), states.get(3));
  });

  it('shares the non-localized attributes between locales, as writes keep them', () => {
    const shared = new Set(['price']);
    const at = (chain: ChainRow, locale: string) => ({ ...chain, locale });
    const rows = [
      at(row(1, 'create', 'draft', { v: { title: 'en', price: 1 } }), 'en'),
      // A new locale takes the shared price; a write there changes it for every locale.
      at(row(2, 'create', 'draft', { v: { title: 'fr' } }), 'fr'),
      at(row(3, 'publish', 'published'), 'en'),
      at(row(4, 'update', 'modified', { v: { price: 2 } }), 'fr'),
      at(row(5, 'update', 'modified', { v: { title: 'en 2' } }), 'en'),
      // Discarding en's draft brings back the published price for every locale.
      at(row(6, 'discard', 'published'), 'en'),
      at(row(7, 'update', 'draft', { v: { title: 'fr 2' } }), 'fr'),
    ];
    const { states } = foldDocument(rows, shared);
    const values = (id: number) => states.get(id)!.values;
    assert.deepEqual(values(2), { title: 'fr', price: 1 });
    assert.deepEqual(values(5), { title: 'en 2', price: 2 });
    assert.deepEqual(values(6), { title: 'en', price: 1 });
    assert.deepEqual(values(7), { title: 'fr 2', price: 1 });
  });

  it('refuses a retention setting that is not a positive number, in one line naming it', () => {
    assert.deepEqual(historySettings({}), { retentionDays: 90, maxVersionsPerDocument: 100 });
    assert.deepEqual(historySettings({ history: { retentionDays: 7, maxVersionsPerDocument: 5 } }), {
      retentionDays: 7,
      maxVersionsPerDocument: 5,
    });
    for (const history of [{ retentionDays: -1 }, { retentionDays: '7' }, { maxVersionsPerDocument: 2.5 }]) {
      assert.throws(
        () => historySettings({ history }),
        (error: unknown) =>
          error instanceof ProjectError &&
          /^config\/admin: history\.\w+ must be a positive/.test(error.message) &&
          !error.message.includes('\n'),
      );
    }
  });
});
