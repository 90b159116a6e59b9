import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zonedParts, zonedToUtc } from './releases.ts';

describe('zonedToUtc', () => {
  it('reads a date and time in a zone as the UTC instant, on both sides of a change of clocks', () => {
    assert.equal(zonedToUtc('2030-01-31', '09:00', 'Europe/Paris')?.toISOString(), '2030-01-31T08:00:00.000Z');
    assert.equal(zonedToUtc('2030-07-01', '09:00', 'Europe/Paris')?.toISOString(), '2030-07-01T07:00:00.000Z');
    assert.equal(zonedToUtc('2030-03-10', '12:30', 'America/New_York')?.toISOString(), '2030-03-10T16:30:00.000Z');
    assert.equal(zonedToUtc('2030-01-31', '09:00', 'UTC')?.toISOString(), '2030-01-31T09:00:00.000Z');
    assert.equal(zonedToUtc('2030-01-31', '09:00', 'Asia/Kolkata')?.toISOString(), '2030-01-31T03:30:00.000Z');
  });

  it("reads seconds, and turns an instant back into the zone's date and time", () => {
    assert.equal(zonedToUtc('2030-01-31', '09:00:30', 'Asia/Tokyo')?.toISOString(), '2030-01-31T00:00:30.000Z');
    assert.deepEqual(zonedParts('2030-01-31T00:00:30.000Z', 'Asia/Tokyo'), { date: '2030-01-31', time: '09:00:30' });
  });

  it('answers null without a date or a time', () => {
    assert.equal(zonedToUtc('', '09:00', 'UTC'), null);
    assert.equal(zonedToUtc('2030-01-31', '', 'UTC'), null);
  });
});
