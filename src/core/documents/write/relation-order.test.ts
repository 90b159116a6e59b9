import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  ConnectOrderError,
  orderAfterConnect,
  orderAfterSet,
  type ConnectStep,
  type OrderPosition,
} from './relation-order.js';

const steps = (...items: [string, OrderPosition?][]): ConnectStep[] =>
  items.map(([key, position], index) => ({ key, position, index }));

// Each case was sent to the real Strapi 5.54 (blog example, an article's tags) and its answer read back.
describe('relation order after connect and disconnect, as Strapi 5.54', () => {
  it('connecting a linked target without a position moves it to the end', () => {
    assert.deepEqual(orderAfterConnect(['t1', 't2', 't3'], [], steps(['t1'])), ['t2', 't3', 't1']);
  });
  it('the same target twice with the same position is connected once', () => {
    assert.deepEqual(orderAfterConnect(['t1'], [], steps(['t2'], ['t2'])), ['t1', 't2']);
  });
  it('the same target at two positions is refused, with Strapi words', () => {
    assert.throws(
      () => orderAfterConnect(['a1'], [], steps(['a1', { end: true }], ['a1', { start: true }])),
      (error: ConnectOrderError) => {
        assert.equal(error.index, 1);
        return /already connected. You cannot connect the same relation twice/.test(error.message);
      },
    );
  });
  it('items apply one after the other when every anchor is linked', () => {
    assert.deepEqual(
      orderAfterConnect(['t1', 't3', 't2'], [], steps(['t2', { before: 't3' }], ['t3', { before: 't2' }])),
      ['t1', 't3', 't2'],
    );
    assert.deepEqual(orderAfterConnect(['t2', 't1'], [], steps(['t3', { after: 't1' }], ['t1', { start: true }])), [
      't1',
      't2',
      't3',
    ]);
  });
  it('an item anchored on one connected later in the list waits for it', () => {
    assert.deepEqual(orderAfterConnect(['a1'], [], steps(['a3', { after: 'a2' }], ['a2', { start: true }])), [
      'a2',
      'a3',
      'a1',
    ]);
  });
  it('an anchor this write disconnects is replaced by its surviving neighbour', () => {
    assert.deepEqual(orderAfterConnect(['a2', 'a3', 'a1'], ['a1'], steps(['a4', { before: 'a1' }])), [
      'a2',
      'a3',
      'a4',
    ]);
  });
  it('disconnecting what the same write connects is a move', () => {
    assert.deepEqual(
      orderAfterConnect(['a1', 'a2', 'a3'], ['a4'], steps(['a4', { start: true }], ['a2', { before: 'a4' }])),
      ['a2', 'a4', 'a1', 'a3'],
    );
  });
  it('an anchor neither linked nor connected is refused; with strict: false it puts the item at the end', () => {
    assert.throws(
      () => orderAfterConnect(['a1', 'a2'], [], steps(['a3', { before: 'zz' }])),
      (error: unknown) => error instanceof ConnectOrderError && error.unconnectedAnchor === 'zz' && error.index === 0,
    );
    // Disconnected by the same write, but never linked: no neighbour to take its place.
    assert.throws(() => orderAfterConnect(['a1'], ['zz'], steps(['a3', { after: 'zz' }])), ConnectOrderError);
    assert.deepEqual(
      orderAfterConnect(['a1', 'a2'], [], steps(['a3', { before: 'zz' }], ['a0', { start: true }]), false),
      ['a0', 'a1', 'a2', 'a3'],
    );
  });
  it('a cycle of anchors is refused with Strapi words', () => {
    assert.throws(
      () => orderAfterConnect([], [], steps(['a', { before: 'b' }], ['b', { before: 'a' }])),
      /circular reference/,
    );
    assert.throws(() => orderAfterConnect(['x'], [], steps(['a', { after: 'a' }])), /circular reference/);
  });
  it('set keeps its order and names each target once', () => {
    assert.deepEqual(orderAfterSet(['t2', 't1', 't2']), ['t2', 't1']);
  });

  it('property: the result holds each target once, every kept target and every connected one', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const position: fc.Arbitrary<OrderPosition | undefined> = fc.oneof(
      fc.constant(undefined),
      fc.constant({ start: true as const }),
      fc.constant({ end: true as const }),
      key.map((k) => ({ before: k })),
      key.map((k) => ({ after: k })),
    );
    fc.assert(
      fc.property(
        fc.uniqueArray(key),
        fc.array(key, { maxLength: 3 }),
        fc.array(fc.tuple(key, position), { maxLength: 4 }),
        fc.boolean(),
        (current, disconnect, connect, strict) => {
          let result: string[];
          try {
            result = orderAfterConnect(current, disconnect, steps(...connect), strict);
          } catch (error) {
            if (error instanceof ConnectOrderError) return;
            throw error;
          }
          assert.equal(new Set(result).size, result.length);
          const connected = new Set(connect.map(([k]) => k));
          for (const k of connected) assert.ok(result.includes(k));
          for (const k of current) assert.equal(result.includes(k), connected.has(k) || !disconnect.includes(k));
          assert.equal(
            result.length,
            new Set([...current.filter((k) => connected.has(k) || !disconnect.includes(k)), ...connected]).size,
          );
        },
      ),
      { seed: 29, numRuns: 500 },
    );
  });
});
