/**
 * Response bodies as a list of small Buffers instead of one JSON string. A large string (a page of
 * 100 articles is ~200 KB) lands in V8's large-object space and is encoded to UTF-8 in one piece on
 * every request; on this kind of machine that cost more than building the page (measured: a 216 KB
 * body served 460 req/s as one string, 2080 req/s as 16 KB chunks). Stored JSON text (RawJson) is
 * copied through without a parse and a re-stringify.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { RawJson } from '../core/documents/raw-json.js';

// Characters per chunk: a default list page (~54 KB) is one chunk and one write; even as two-byte
// text a chunk stays below V8's large-object threshold (128 KB).
const CHUNK = 48 * 1024;

export interface JsonBody {
  chunks: Buffer[];
  length: number;
}

class ChunkWriter {
  readonly chunks: Buffer[] = [];
  length = 0;
  private text = '';

  write(piece: string): void {
    this.text += piece;
    if (this.text.length >= CHUNK) this.flush();
  }

  flush(): void {
    if (this.text === '') return;
    const chunk = Buffer.from(this.text, 'utf8');
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.text = '';
  }
}

function writeValue(out: ChunkWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      out.write(JSON.stringify(value));
      return;
    case 'number':
      out.write(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.write(value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) out.write('null');
      else if (value instanceof RawJson) out.write(value.text);
      else if (Array.isArray(value)) writeArray(out, value);
      else if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        writeValue(out, (value as { toJSON(): unknown }).toJSON());
      else writeObject(out, value as Record<string, unknown>);
      return;
    default:
      // undefined, functions and symbols: what JSON.stringify writes for them inside an array.
      out.write(JSON.stringify(value) ?? 'null');
  }
}

function writeArray(out: ChunkWriter, items: unknown[]): void {
  out.write('[');
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.write(',');
    const item = items[i];
    writeValue(out, item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item);
  }
  out.write(']');
}

/**
 * `"key":` per key: the same attribute names come back in every document. Keys of stored JSON
 * values pass here too: only short ones are kept, so the map stays small whatever the data.
 */
const keyTexts = new Map<string, string>();
function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(key)}:`;
    if (keyTexts.size < 10_000 && key.length <= 64) keyTexts.set(key, text);
  }
  return text;
}

function writeObject(out: ChunkWriter, object: Record<string, unknown>): void {
  out.write('{');
  let first = true;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    const item = object[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) out.write(',');
    out.write(keyText(key));
    first = false;
    writeValue(out, item);
  }
  out.write('}');
}

/** `value` as JSON, in chunks of about 48 KB; the same text as `JSON.stringify(value)`. */
export function jsonBody(value: unknown): JsonBody {
  const out = new ChunkWriter();
  writeValue(out, value);
  out.flush();
  return { chunks: out.chunks, length: out.length };
}

/** Answers `value` as JSON through `jsonBody`. */
export function sendJson(reply: FastifyReply, value: unknown, status = 200): FastifyReply {
  return sendBody(reply, jsonBody(value), status);
}

/** The chunks a multi-chunk answer streams, for a hook that reads the body it is about to send. */
const CHUNKS = Symbol('vellum.jsonChunks');

/** The JSON text of a payload `sendBody` wrote as a stream, or undefined for any other payload. */
export function streamedJson(payload: unknown): string | undefined {
  const chunks = (payload as Record<symbol, Buffer[] | undefined> | null)?.[CHUNKS];
  return chunks ? Buffer.concat(chunks).toString('utf8') : undefined;
}

/**
 * Answers a body made by `jsonBody`. Several chunks are streamed as they are, with their total as
 * Content-Length: joining them would allocate the whole body again. The chunks are only read, so
 * one body can answer many requests (the response cache).
 */
export function sendBody(reply: FastifyReply, body: JsonBody, status = 200): FastifyReply {
  reply.status(status).type('application/json; charset=utf-8');
  if (body.chunks.length === 1) return reply.send(body.chunks[0]);
  reply.header('content-length', body.length);
  return reply.send(Object.assign(Readable.from(body.chunks, { objectMode: false }), { [CHUNKS]: body.chunks }));
}
