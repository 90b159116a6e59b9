import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDate, parseDateTime, parseTime, timestampText } from './temporal.js';

const iso = (value: unknown) => {
  const parsed = parseDateTime(value);
  return 'value' in parsed ? parsed.value.toISOString() : parsed.error;
};

describe('dates and times as Strapi 5.54 reads them', () => {
  it('date: a real day at the start of the text; the rest is dropped', () => {
    assert.deepEqual(parseDate('2024-02-29'), { value: '2024-02-29' });
    assert.deepEqual(parseDate('2024-02-29T23:59:59+05:00'), { value: '2024-02-29' });
    assert.deepEqual(parseDate('2023-02-29'), { error: 'not a valid date' });
    assert.deepEqual(parseDate('2000-02-29'), { value: '2000-02-29' });
    assert.deepEqual(parseDate('1900-02-29'), { error: 'not a valid date' });
    assert.deepEqual(parseDate('2024-04-31'), { error: 'not a valid date' });
    for (const bad of ['24-01-01', '2024-13-01', '2024/01/01', 20240101, null])
      assert.deepEqual(parseDate(bad), { error: 'expected a date (yyyy-MM-dd)' }, String(bad));
  });

  it('time: HH:mm:ss with up to three fraction digits, answered as HH:mm:ss.SSS', () => {
    assert.deepEqual(parseTime('09:05:00'), { value: '09:05:00.000' });
    assert.deepEqual(parseTime('23:59:59.5'), { value: '23:59:59.500' });
    assert.deepEqual(parseTime('00:00:00.123'), { value: '00:00:00.123' });
    for (const bad of ['24:00:00', '9:05:00', '09:05', '09:05:00.1234', '09:60:00'])
      assert.deepEqual(parseTime(bad), { error: 'expected a time (HH:mm:ss.SSS)' }, bad);
    assert.deepEqual(parseTime(900), { error: 'expected a string (HH:mm:ss.SSS), got a number' });
  });

  it('date-time: ISO 8601 as date-fns parseISO reads it, in UTC when no offset is given', () => {
    assert.equal(iso('2024-01-02T03:04:05.678Z'), '2024-01-02T03:04:05.678Z');
    assert.equal(iso('2024-01-02T03:04:05+02:00'), '2024-01-02T01:04:05.000Z');
    assert.equal(iso('2024-01-02T03:04:05+02'), '2024-01-02T01:04:05.000Z');
    assert.equal(iso('2024-01-02 03:04'), '2024-01-02T03:04:00.000Z');
    assert.equal(iso('2024-01-02'), '2024-01-02T00:00:00.000Z');
    assert.equal(iso('2024-01'), '2024-01-01T00:00:00.000Z');
    assert.equal(iso('2024'), '2024-01-01T00:00:00.000Z');
    assert.equal(iso('20240102T030405'), '2024-01-02T03:04:05.000Z');
    assert.equal(iso('2024-W01-1'), '2024-01-01T00:00:00.000Z');
    assert.equal(iso('2024-032'), '2024-02-01T00:00:00.000Z');
    assert.equal(iso('2024-01-02T03:04:05,5Z'), '2024-01-02T03:04:05.500Z');
  });

  it('date-time: milliseconds since 1970 as a number or digits, and Dates', () => {
    assert.equal(iso(0), '1970-01-01T00:00:00.000Z');
    assert.equal(iso('1704164645000'), '2024-01-02T03:04:05.000Z');
    assert.equal(iso(-86_400_000), '1969-12-31T00:00:00.000Z');
    assert.equal(iso(new Date('2024-05-06T00:00:00Z')), '2024-05-06T00:00:00.000Z');
  });

  it('date-time: refuses what is neither', () => {
    for (const bad of ['soon', '2024-13-01', '2024-01-02T25:00', '', {}, null, new Date('x')])
      assert.equal(iso(bad), 'expected a timestamp or an ISO date', String(bad));
  });

  it('a timestamp is answered as its milliseconds in a string', () => {
    assert.equal(timestampText(new Date(1000)), '1000');
    assert.equal(timestampText('2024-01-02T03:04:05Z'), '1704164645000');
    assert.equal(timestampText(null), null);
    assert.equal(timestampText('nope'), null);
  });
});
