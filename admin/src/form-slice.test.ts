// The edit view's fields re-render when their slice of the form changes (run by the unit tier).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sameSlice, sameValue, valueAtPath } from './form-slice.ts';

const zone = (heading: string) => ({
  title: 'A page',
  sections: [
    { __key: 'a', heading: 'one', count: 1 },
    { __key: 'b', heading, count: 2 },
  ],
});

describe('form slices', () => {
  it('compares values by structure, not by reference', () => {
    assert.equal(sameValue({ a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] }), true);
    assert.equal(sameValue({ a: [1, { b: 'c' }] }, { a: [1, { b: 'd' }] }), false);
    assert.equal(sameValue({ a: 1 }, { a: 1, b: undefined }), false);
    assert.equal(sameValue([1], { 0: 1 }), false);
    assert.equal(sameValue(null, {}), false);
    assert.equal(sameValue('', 0), false);
  });

  it('reads a dotted path into lists and objects', () => {
    assert.equal(valueAtPath(zone('two'), 'sections.1.heading'), 'two');
    assert.equal(valueAtPath(zone('two'), 'sections.5.heading'), undefined);
  });

  it('sees a keystroke in one entry of a zone only in that entry, its field and the zone', () => {
    const before = { values: zone('two'), errors: {} };
    const after = { values: zone('two!'), errors: {} };
    assert.equal(sameSlice(before, after, 'sections.1.heading'), false);
    assert.equal(sameSlice(before, after, 'sections.1'), false);
    assert.equal(sameSlice(before, after, 'sections'), false);
    assert.equal(sameSlice(before, after, 'sections.0.heading'), true);
    assert.equal(sameSlice(before, after, 'sections.0'), true);
    assert.equal(sameSlice(before, after, 'title'), true);
  });

  it('sees an error set or cleared at or under the path', () => {
    const values = zone('two');
    const clean = { values, errors: {} };
    const failed = { values, errors: { 'sections.1.heading': 'Too long' } };
    assert.equal(sameSlice(clean, failed, 'sections.1.heading'), false);
    assert.equal(sameSlice(failed, clean, 'sections.1'), false);
    assert.equal(sameSlice(clean, failed, 'sections.0'), true);
    assert.equal(sameSlice(clean, failed, 'sections.1.headings'), true);
    assert.equal(sameSlice(failed, { values, errors: { 'sections.1.heading': 'Other' } }, 'sections'), false);
  });
});
