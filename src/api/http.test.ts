/** The client's address as Koa reads it, behind a proxy or not (`server.proxy`). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clientAddress } from './http.js';

const PEER = '192.0.2.1';
const NO_PROXY = { koa: false, ipHeader: 'x-forwarded-for', maxIpsCount: 0 };
const PROXY = { koa: true, ipHeader: 'x-forwarded-for', maxIpsCount: 0 };

describe('clientAddress', () => {
  it('is the socket peer without a trusted proxy, whatever the headers claim', () => {
    assert.equal(clientAddress({ 'x-forwarded-for': '203.0.113.9' }, PEER, NO_PROXY), PEER);
  });

  it('behind a proxy, the first forwarded address (Koa with maxIpsCount 0), or the peer without one', () => {
    assert.equal(clientAddress({ 'x-forwarded-for': '203.0.113.9, 198.51.100.7' }, PEER, PROXY), '203.0.113.9');
    assert.equal(clientAddress({ 'x-forwarded-for': '203.0.113.9,198.51.100.7' }, PEER, PROXY), '203.0.113.9');
    assert.equal(clientAddress({}, PEER, PROXY), PEER);
    assert.equal(clientAddress({ 'x-forwarded-for': '' }, PEER, PROXY), PEER);
    assert.equal(
      clientAddress({ 'x-forwarded-for': ', 198.51.100.7' }, PEER, PROXY),
      PEER,
      'as Koa: an empty first entry',
    );
  });

  it('maxIpsCount keeps the last addresses only: what the client prepends is not believed', () => {
    const one = { ...PROXY, maxIpsCount: 1 };
    assert.equal(clientAddress({ 'x-forwarded-for': '10.0.0.1, 10.0.0.2, 203.0.113.9' }, PEER, one), '203.0.113.9');
    assert.equal(
      clientAddress({ 'x-forwarded-for': '10.0.0.1, 203.0.113.9, 198.51.100.7' }, PEER, { ...PROXY, maxIpsCount: 2 }),
      '203.0.113.9',
    );
    assert.equal(
      clientAddress({ 'x-forwarded-for': '203.0.113.9' }, PEER, { ...PROXY, maxIpsCount: 3 }),
      '203.0.113.9',
    );
  });

  it('ipHeader names the header (lower-cased by the configuration)', () => {
    const cloudflare = { ...PROXY, ipHeader: 'cf-connecting-ip' };
    assert.equal(
      clientAddress({ 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': '10.0.0.1' }, PEER, cloudflare),
      '203.0.113.9',
    );
    assert.equal(clientAddress({ 'x-forwarded-for': '10.0.0.1' }, PEER, cloudflare), PEER);
  });
});
