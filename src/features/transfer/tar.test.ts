import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { create } from 'tar';
import { archiveEntries, jsonLines, readText } from './tar.js';
import { Progress } from './progress.js';

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.isBuffer(part) ? part : Buffer.from(part);
}

const collect = async <T>(source: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
};

describe('JSON lines of an archive', () => {
  it('parses lines split anywhere, multi-byte characters included, the last one without a newline', async () => {
    const text = Buffer.from('{"a":"é€"}\n\n{"b":[1,2]}\r\n{"c":"😀"}');
    const parts = [
      text.subarray(0, 8),
      text.subarray(8, 9),
      text.subarray(9, 17),
      text.subarray(17, 31),
      text.subarray(31),
    ];
    assert.deepEqual(await collect(jsonLines(chunks(...parts), 'x.jsonl')), [{ a: 'é€' }, { b: [1, 2] }, { c: '😀' }]);
  });

  it('names the file and the line of a line that is not JSON', async () => {
    await assert.rejects(
      collect(jsonLines(chunks('{"a":1}\n{oops}\n'), 'entities/e.jsonl')),
      (error: Error) => error.name === 'TransferError' && /entities\/e\.jsonl, line 2/.test(error.message),
    );
  });
});

describe('archive entries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vellum-tar-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a .tar.gz and a .tar alike, entry by entry, skipping what the caller leaves', async () => {
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'entities'), { recursive: true });
    writeFileSync(join(tree, 'metadata.json'), '{"strapi":{"version":"5.54.0"}}');
    writeFileSync(join(tree, 'entities', 'entities_00001.jsonl'), '{"type":"t","id":1,"data":{}}\n');
    writeFileSync(join(tree, 'big.bin'), Buffer.alloc(300_000, 7));
    for (const [file, gzip] of [
      [join(dir, 'a.tar.gz'), true],
      [join(dir, 'a.tar'), false],
    ] as const) {
      await create({ gzip, file, cwd: tree, portable: true }, [
        'big.bin',
        'entities/entities_00001.jsonl',
        'metadata.json',
      ]);
      const seen: string[] = [];
      for await (const entry of archiveEntries(file)) {
        seen.push(entry.path);
        if (entry.path === 'metadata.json') assert.match(await readText(entry.body), /5\.54\.0/);
        if (entry.path.endsWith('.jsonl')) assert.equal((await collect(jsonLines(entry.body, entry.path))).length, 1);
      }
      assert.deepEqual(seen, ['big.bin', 'entities/entities_00001.jsonl', 'metadata.json']);
    }
  });

  it('refuses a file that is not an archive, naming it', async () => {
    const file = join(dir, 'not.tar.gz');
    writeFileSync(file, 'hello, not a tar');
    await assert.rejects(
      collect(archiveEntries(file)),
      (error: Error) => error.name === 'TransferError' && error.message.includes('not.tar.gz'),
    );
  });
});

describe('progress', () => {
  it('prints plain lines when the output is not a terminal, a bar when it is', () => {
    const plain: string[] = [];
    const progress = new Progress({ isTTY: false, write: (text: string) => plain.push(text) }, 0);
    progress.begin('entities', 10);
    progress.tick(4);
    progress.end();
    assert.match(plain.join(''), /entities: 4\/10 \(\d+\/s\)\n/);
    assert.match(plain.at(-1)!, /^entities: 4\/10 in [\d.]+ s \(\d+\/s\)\n$/);
    const tty: string[] = [];
    const bar = new Progress({ isTTY: true, columns: 80, write: (text: string) => tty.push(text) });
    bar.begin('links', 4);
    bar.end();
    assert.ok(tty[0]!.startsWith('\r\u001b[Klinks ['), tty[0]);
    assert.match(tty[0]!, /links \[-+\] 0\/4/);
    assert.ok(bar.peakRss > 0);
  });
});
