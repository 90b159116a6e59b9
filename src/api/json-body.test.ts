// The encoding a compressible JSON answer takes (sendCompressibleJson).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptedEncoding } from './json-body.js';

describe('acceptedEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    assert.equal(acceptedEncoding('gzip, deflate, br, zstd'), 'br');
    assert.equal(acceptedEncoding('gzip;q=1.0, br;q=0.5'), 'br');
    assert.equal(acceptedEncoding('gzip, br;q=0'), 'gzip');
    assert.equal(acceptedEncoding('GZIP'), 'gzip');
    assert.equal(acceptedEncoding('gzip;q=0, br;q=0.0'), undefined);
    assert.equal(acceptedEncoding('identity'), undefined);
    assert.equal(acceptedEncoding(''), undefined);
    assert.equal(acceptedEncoding(undefined), undefined);
  });
});
