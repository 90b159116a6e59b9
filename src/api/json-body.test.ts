// The bytes jsonBody writes, and the encoding a compressible JSON answer takes (sendCompressibleJson).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RawJson } from '../core/documents/raw-json.js';
import { acceptedEncoding, jsonBody } from './json-body.js';

const text = (value: unknown) => Buffer.concat(jsonBody(value).chunks).toString('utf8');

describe('jsonBody', () => {
  it("writes JSON.stringify's text, long and short strings, escapes and other scripts alike", () => {
    const long = 'plain text '.repeat(40);
    const values: unknown[] = [
      { a: 1, b: 'two', c: [true, false, null, undefined, () => 0], d: undefined, e: { toJSON: () => 'x' } },
      [long, `${long}"quoted"`, `${long}\nnewline\u0001`, `${long}é日本語🙂`, `${long}\ud800 lone`, `${long}\u2028`],
      { nested: { deeper: [{ body: long.repeat(30) }, NaN, Infinity, -0, 1e21, 0.1] } },
      'x'.repeat(70_000),
      '日本'.repeat(40_000),
    ];
    for (const value of values) assert.equal(text(value), JSON.stringify(value));
  });

  it("writes JSON.stringify's text for every kind of character, around each length the writer switches at", () => {
    // The writer stores short clean ASCII byte by byte, writes long text by the encoder, splits
    // long text at newlines: every path, and each one's way out when it meets something to escape.
    const alphabet = [
      'a',
      'Z',
      ' ',
      '~',
      '\u007f',
      '"',
      '\\',
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u001f',
      'é',
      '日',
      '🙂',
      '\ud800',
      '\udc00',
      '\u2028',
    ];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    const strings: string[] = [];
    for (const length of [0, 1, 2, 62, 63, 64, 65, 66, 255, 256, 257, 1000, 5000])
      for (const special of alphabet)
        for (const where of [0, Math.floor(length / 2), length - 1]) {
          const plain = Array.from({ length }, (_, i) => (i % 17 === 16 ? '\n' : 'abcdefgh'[i % 8]));
          if (length > 0) plain[Math.max(0, where)] = special;
          strings.push(plain.join(''));
        }
    for (let i = 0; i < 300; i++)
      strings.push(Array.from({ length: random(300) }, () => alphabet[random(alphabet.length)]).join(''));
    const value = { strings, keyed: Object.fromEntries(strings.slice(0, 200).map((s, i) => [`${s}${i}`, s])) };
    assert.equal(text(value), JSON.stringify(value));
    for (const string of strings) assert.equal(text(string), JSON.stringify(string));
  });

  it('a body written inside another (a toJSON) leaves the outer one whole', () => {
    const inner = { toJSON: () => Buffer.concat(jsonBody({ inner: 'x'.repeat(300) }).chunks).toString('utf8') };
    const value = { before: 'y'.repeat(300), inner, after: 'z'.repeat(300) };
    assert.equal(text(value), JSON.stringify(value));
    const failing = {
      toJSON: () => {
        throw new Error('no');
      },
    };
    assert.throws(() => jsonBody({ long: 'w'.repeat(300), failing }), /no/);
    assert.equal(text({ again: 'v'.repeat(300) }), JSON.stringify({ again: 'v'.repeat(300) }));
  });

  it('copies stored JSON through', () => {
    assert.equal(text({ content: new RawJson('[{"type":"paragraph"}]') }), '{"content":[{"type":"paragraph"}]}');
  });

  it('answers one Buffer of the exact length, whatever the size', () => {
    // A page of 100 articles is ~200 KB: it used to be five chunks of ~48K characters, streamed.
    const page = {
      data: Array.from({ length: 100 }, (_, i) => ({ id: i, body: `# Title ${i}\n\n${'Lorem ipsum. '.repeat(150)}` })),
    };
    const body = jsonBody(page);
    assert.equal(body.chunks.length, 1);
    assert.equal(body.length, body.chunks[0]!.length);
    assert.equal(body.chunks[0]!.toString('utf8'), JSON.stringify(page));
  });
});

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
