import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FrequencySketch } from './frequency-sketch.js';

describe('frequency sketch', () => {
  it('estimates never below the count, up to 15, and halves them after its window', () => {
    const sketch = new FrequencySketch(1000);
    for (let i = 0; i < 5; i++) sketch.increment('/api/articles?page=1');
    sketch.increment('/api/articles?page=2');
    assert.ok(sketch.estimate('/api/articles?page=1') >= 5);
    assert.ok(sketch.estimate('/api/articles?page=2') >= 1);
    assert.ok(sketch.estimate('/api/articles?page=1') > sketch.estimate('/api/articles?page=2'));
    for (let i = 0; i < 40; i++) sketch.increment('/hot');
    assert.equal(sketch.estimate('/hot'), 15);
    // 46 increments so far: 954 more reach the window, and every counter is halved.
    for (let i = 0; i < 954; i++) sketch.increment(`/other/${i}`);
    assert.equal(sketch.estimate('/hot'), 7);
  });
});
