/**
 * Reading and writing Strapi's transfer archives (`strapi export`): a tar, gzipped or not, of
 * `metadata.json`, `schemas/`, `entities/`, `links/`, `configuration/` (JSON lines) and
 * `assets/uploads/` with their `assets/metadata/<file>.json`. Everything streams: an entry is read
 * while the caller consumes it (node-tar's parser waits for a paused entry), JSON lines one at a
 * time, so an archive of any size passes through bounded memory.
 */
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { Parser, type ReadEntry } from 'tar';
import { TransferError } from '../../core/errors.js';

/** One file of an archive: its path (POSIX, without `./`) and its bytes, read once. */
export interface ArchiveEntry {
  path: string;
  size: number;
  body: AsyncIterable<Buffer>;
}

const normalize = (path: string): string => path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');

/**
 * The files of an archive in their order. Each entry must be read (or left: it is then skipped)
 * before the next one comes; the archive is read as the entries are consumed.
 */
export async function* archiveEntries(file: string): AsyncGenerator<ArchiveEntry> {
  const parser = new Parser({ strict: true });
  const queue: ReadEntry[] = [];
  let finished = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const signal = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  parser.on('entry', (entry: ReadEntry) => {
    queue.push(entry);
    signal();
  });
  // A cut archive makes the parser fail while an entry is being read, and that entry then never
  // ends: whoever waits on it (its reader, or this loop) must hear of the failure, or the process
  // runs out of work and exits 0 with nothing said (seen: cuts at 5%, 30%, 95% of an archive).
  let rejectFailed: (error: unknown) => void = () => undefined;
  const failed = new Promise<never>((_resolve, reject) => (rejectFailed = reject));
  failed.catch(() => undefined);
  const readable = (error: unknown) =>
    error instanceof Error ? new TransferError(`${file}: not a readable archive (${error.message})`) : error;
  const fail = (error: unknown) => {
    if (failure === undefined) rejectFailed(readable(error));
    failure ??= error;
    signal();
  };
  parser.on('error', fail);
  parser.on('end', () => {
    finished = true;
    signal();
  });
  const source = createReadStream(file);
  source.on('error', fail);
  source.pipe(parser as unknown as NodeJS.WritableStream);
  try {
    for (;;) {
      const entry = queue.shift();
      if (entry) {
        if (entry.type !== 'File' && entry.type !== 'OldFile') {
          entry.resume();
          continue;
        }
        let consumed = false;
        const body: AsyncIterable<Buffer> = {
          [Symbol.asyncIterator]() {
            consumed = true;
            const inner = entry[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
            return {
              next: () => Promise.race([inner.next(), failed]),
              return: async () => (inner.return ? inner.return() : { done: true, value: undefined }),
            };
          },
        };
        yield { path: normalize(entry.path), size: entry.size ?? 0, body };
        if (!consumed || !entry.emittedEnd) {
          const ended = new Promise<void>((resolve) => entry.once('end', () => resolve()));
          entry.resume();
          if (!entry.emittedEnd) await Promise.race([ended, failed]);
        }
        continue;
      }
      if (failure) throw readable(failure);
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    source.destroy();
  }
}

/** The longest JSON line read (a document with its components): a guard against a file without newlines. */
const MAX_LINE = 256 * 1024 * 1024;

/** The lines of a JSON-lines body that hold something, with their numbers, as they arrive. */
export async function* textLines(
  body: AsyncIterable<Buffer>,
  path: string,
): AsyncGenerator<{ text: string; line: number }> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  for await (const chunk of body) {
    pending += decoder.write(chunk);
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      const text = pending.slice(start, end).trim();
      start = end + 1;
      line += 1;
      if (text) yield { text, line };
    }
    pending = pending.slice(start);
    if (pending.length > MAX_LINE)
      throw new TransferError(`${path}, line ${line + 1}: longer than ${MAX_LINE} characters`);
  }
  pending += decoder.end();
  if (pending.trim()) yield { text: pending.trim(), line: line + 1 };
}

/** One line of a JSON-lines file, parsed; not JSON is an error naming the file and the line. */
export function parseLine(text: string, path: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TransferError(`${path}, line ${line}: not JSON (${(error as Error).message})`);
  }
}

/** The JSON values of a JSON-lines body, one per line, parsed as they arrive. */
export async function* jsonLines(body: AsyncIterable<Buffer>, path: string): AsyncGenerator<unknown> {
  for await (const { text, line } of textLines(body, path)) yield parseLine(text, path, line);
}

/** A whole (small) entry as text: `metadata.json`, an asset's metadata. */
export async function readText(body: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}
