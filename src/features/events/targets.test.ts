import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPrivateAddress, privateTargetProblem } from './targets.js';

describe('webhook targets', () => {
  it('loopback, private, link-local, CGNAT, unique-local and mapped addresses are private; public ones are not', () => {
    for (const address of [
      '127.0.0.1',
      '127.9.9.9',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.2.3',
      'not-an-ip',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '172.32.0.1',
      '2606:2800:220:1:248:1893:25c8:1946',
      '::ffff:8.8.8.8',
    ]) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });
  it('an URL is judged by its host: literal addresses without a lookup; everything passes when private targets are allowed', async () => {
    assert.match((await privateTargetProblem('http://[::1]:8080/x', false))!, /public internet/);
    assert.match((await privateTargetProblem('http://10.0.0.5/x', false))!, /public internet/);
    assert.equal(await privateTargetProblem('https://93.184.216.34/hook', false), undefined);
    assert.equal(await privateTargetProblem('http://127.0.0.1/x', true), undefined);
    assert.match((await privateTargetProblem('not a url', false))!, /public internet/);
  });
});
