import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deviceName } from './user-agent.js';

describe('deviceName (Strapi 5.54 labels)', () => {
  it('names browser and system, the specific token first', () => {
    const cases: Array<[string, string | undefined]> = [
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
        'Chrome on macOS',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0',
        'Edge on Windows',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
        'Safari on iOS',
      ],
      ['Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox on Linux'],
      [
        'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0 Mobile Safari/537.36',
        'Samsung Internet on Android',
      ],
      [
        'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
        'Chrome on ChromeOS',
      ],
      ['node', undefined],
      ['undici', undefined],
      ['curl/8.0 (Linux)', 'Linux'],
      ['', undefined],
    ];
    for (const [agent, name] of cases) assert.equal(deviceName(agent), name, agent);
    assert.equal(deviceName(undefined), undefined);
    assert.equal(deviceName(['Firefox/1']), undefined);
  });

  it('reads only the first 1,024 characters of a long header', () => {
    assert.equal(deviceName(`${'x'.repeat(2000)} Firefox/121.0`), undefined);
    assert.equal(deviceName(`Firefox/121.0 ${'x'.repeat(100_000)}`), 'Firefox');
  });
});
