import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { retryDelay, signature } from './delivery.js';

describe('webhook signature', () => {
  it('is t=<seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const body = '{"event":"entry.create"}';
    const expected = createHmac('sha256', 'secret').update(`1700000000.${body}`).digest('hex');
    assert.equal(signature('secret', 1_700_000_000, body), `t=1700000000,v1=${expected}`);
    assert.notEqual(signature('other', 1_700_000_000, body), signature('secret', 1_700_000_000, body));
    assert.notEqual(signature('secret', 1_700_000_001, body), signature('secret', 1_700_000_000, body));
  });
});

describe('retry delay', () => {
  it('doubles from retryDelay per attempt made, up to maxRetryDelay, plus up to 10%', () => {
    const config = { retryDelay: 1_000, maxRetryDelay: 10_000 };
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((attempts) => retryDelay(config, attempts, 0)),
      [1_000, 2_000, 4_000, 8_000, 10_000, 10_000],
    );
    assert.equal(retryDelay(config, 1, 1), 1_100);
  });
});
