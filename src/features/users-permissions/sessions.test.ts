import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cookieValue } from './sessions.js';

describe('cookieValue', () => {
  it('reads one cookie of a Cookie header', () => {
    assert.equal(cookieValue('a=1; strapi_up_refresh=x.y.z; b=2', 'strapi_up_refresh'), 'x.y.z');
    assert.equal(cookieValue(['a=1', 'n="quoted%20v"'], 'n'), 'quoted v');
    assert.equal(cookieValue('n=%E0%A4%A', 'n'), '%E0%A4%A');
  });

  it('finds nothing without the cookie', () => {
    assert.equal(cookieValue(undefined, 'n'), undefined);
    assert.equal(cookieValue('', 'n'), undefined);
    assert.equal(cookieValue('nn=1; =2; n', 'n'), undefined);
  });
});
