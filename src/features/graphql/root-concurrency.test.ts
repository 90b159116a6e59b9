import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RootSlots } from './root-concurrency.js';

describe('RootSlots', () => {
  it('runs at most `size` at a time, the others in the order they asked, each result and error its own', async () => {
    const slots = new RootSlots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const work = (n: number) => async () => {
      started.push(n);
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, n % 3));
      running -= 1;
      if (n === 4) throw new Error('four');
      return n * 10;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5, 6].map((n) => slots.run(work(n))));
    assert.equal(most, 2);
    assert.deepEqual(started, [0, 1, 2, 3, 4, 5, 6]);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [0, 10, 20, 30, 'four', 50, 60],
    );
    // All slots free again: the next ones start at once.
    let now = 0;
    await Promise.all([slots.run(() => (now += 1)), slots.run(() => (now += 1))]);
    assert.equal(now, 2);
  });
});
