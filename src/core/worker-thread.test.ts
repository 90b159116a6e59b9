import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkerThread } from './worker-thread.js';

/**
 * Answers `{ value }` with it; `{ spin }` after that many ms of work (to have a request under way,
 * whatever the machine's speed: nothing asserts on time); `{ fail }` throws with a code;
 * `{ exit }` ends the thread.
 */
const SOURCE = `
serve(({ value, spin, fail, exit }) => {
  if (exit) process.exit(3);
  if (fail) throw Object.assign(new Error(fail), { code: 'E_TEST' });
  const until = Date.now() + (spin ?? 0);
  while (Date.now() < until);
  return value;
});
`;

type Request = { value?: number; spin?: number; fail?: string; exit?: boolean };

const open = (ends: boolean[] = []) =>
  new WorkerThread<Request, number>({
    source: SOURCE,
    exitError: 'The test thread exited',
    onEnd: (expected) => ends.push(expected),
  });

describe('a worker thread with tracked requests', () => {
  it('answers each request with its own result, and a thrown error with its message and code', async () => {
    const thread = open();
    try {
      const answers = await Promise.all([1, 2, 3].map((value) => thread.request({ value, spin: value })));
      assert.deepEqual(answers, [1, 2, 3]);
      await assert.rejects(thread.request({ fail: 'no such table' }), { message: 'no such table', code: 'E_TEST' });
      assert.equal(thread.usable, true, 'an error answered leaves it serving');
      assert.equal(await thread.request({ value: 4 }), 4);
    } finally {
      await thread.close();
    }
  });

  it('close answers what is under way, then refuses', async () => {
    const ends: boolean[] = [];
    const thread = open(ends);
    const under = thread.request({ value: 7, spin: 50 });
    await thread.close();
    assert.equal(await under, 7);
    assert.equal(thread.usable, false);
    await assert.rejects(thread.request({ value: 8 }), /closed/);
    assert.deepEqual(ends, [true]);
  });

  it('terminate rejects what is under way with its reason', async () => {
    const ends: boolean[] = [];
    const thread = open(ends);
    const under = thread.request({ value: 1, spin: 200 });
    thread.terminate(new Error('past the budget'));
    await assert.rejects(under, /past the budget/);
    await thread.close();
    assert.equal(thread.usable, false);
  });

  it('a thread that exits by itself rejects what is under way, and says so once', async () => {
    const ends: boolean[] = [];
    const thread = open(ends);
    await assert.rejects(thread.request({ exit: true }), /The test thread exited/);
    assert.equal(thread.usable, false);
    assert.deepEqual(ends, [false]);
    await thread.close();
  });
});
