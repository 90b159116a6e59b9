/**
 * Response bodies written as UTF-8 bytes straight into a Buffer, never as one JSON string. A large
 * string (a page of 100 articles is ~200 KB) lands in V8's large-object space and is encoded to
 * UTF-8 in one piece on every request; on this kind of machine that cost more than building the page
 * (measured: a 216 KB body served 460 req/s as one string, 2080 req/s as 16 KB chunks). Stored JSON
 * text (RawJson) is copied through without a parse and a re-stringify.
 */
import { Readable } from 'node:stream';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RawJson } from '../core/documents/raw-json.js';

export interface JsonBody {
  chunks: Buffer[];
  length: number;
}

/** Characters of small pieces (keys, punctuation, numbers, short strings) joined before they are encoded. */
const BATCH = 4096;
/** A string at least this long is encoded on its own, from where it is. */
const LONG = 256;
/** The first size of the scratch Buffer bodies are encoded into, and the most of it kept between bodies. */
const SCRATCH = 64 * 1024;
const KEEP = 1024 * 1024;

/**
 * Any character JSON.stringify might write otherwise than itself: quote, backslash, controls, and
 * surrogates (it escapes a lone one; a string holding any goes through it).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Shared by the bodies written one after the other; a body written inside another (a toJSON) takes its own. */
let scratch: Buffer | undefined = Buffer.allocUnsafeSlow(SCRATCH);

/**
 * Writes a body into the scratch Buffer, then copies it out in one Buffer of its exact length
 * (2026-11-29, issue 36). Pieces used to be joined into a string of ~48K characters and encoded by
 * `Buffer.from`: the join (a rope of every key, comma and value) was flattened into a copy of the
 * whole text first, and a page of 100 articles (five such chunks) was streamed. Now short pieces
 * are joined up to 4K characters, long strings and stored JSON are encoded from where they are
 * (a string that needs no escaping without the copy JSON.stringify makes), and the answer is one
 * Buffer sent as it is. A page of 100 articles allocated ~915 KB of V8 heap per request, 56% of it
 * in the body writer (sampling heap profile).
 */
class BodyWriter {
  private text = '';
  private at = 0;
  private readonly shared = scratch !== undefined;
  private buffer = scratch ?? Buffer.allocUnsafeSlow(SCRATCH);

  constructor() {
    scratch = undefined;
  }

  write(piece: string): void {
    if (piece.length >= LONG) {
      this.drain();
      this.encode(piece);
      return;
    }
    this.text += piece;
    if (this.text.length >= BATCH) this.drain();
  }

  /** A string value as JSON: between quotes as it is when nothing in it needs escaping. */
  string(value: string): void {
    if (value.length < LONG || ESCAPED.test(value)) {
      this.write(JSON.stringify(value));
      return;
    }
    this.text += '"';
    this.drain();
    this.encode(value);
    this.text = '"';
  }

  finish(): JsonBody {
    this.drain();
    const body = Buffer.allocUnsafe(this.at);
    this.buffer.copy(body, 0, 0, this.at);
    return { chunks: [body], length: body.length };
  }

  /** Gives the shared scratch back (written or not: a toJSON may throw halfway). */
  release(): void {
    if (this.shared) scratch = this.buffer.length > KEEP ? Buffer.allocUnsafeSlow(SCRATCH) : this.buffer;
  }

  private drain(): void {
    if (this.text === '') return;
    this.encode(this.text);
    this.text = '';
  }

  private encode(text: string): void {
    // At most three bytes per UTF-16 unit (a surrogate pair is four bytes for two units).
    const room = this.at + text.length * 3;
    if (room > this.buffer.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(room, this.buffer.length * 2));
      this.buffer.copy(larger, 0, 0, this.at);
      this.buffer = larger;
    }
    this.at += this.buffer.write(text, this.at, 'utf8');
  }
}

function writeValue(out: BodyWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      out.string(value);
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

function writeArray(out: BodyWriter, items: unknown[]): void {
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

function writeObject(out: BodyWriter, object: Record<string, unknown>): void {
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

/** `value` as JSON in one Buffer; the same text as `JSON.stringify(value)`. */
export function jsonBody(value: unknown): JsonBody {
  const out = new BodyWriter();
  try {
    writeValue(out, value);
    return out.finish();
  } finally {
    out.release();
  }
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
export function sendBody(
  reply: FastifyReply,
  body: JsonBody,
  status = 200,
  type = 'application/json; charset=utf-8',
): FastifyReply {
  reply.status(status).type(type);
  if (body.chunks.length === 1) return reply.send(body.chunks[0]);
  reply.header('content-length', body.length);
  return reply.send(Object.assign(Readable.from(body.chunks, { objectMode: false }), { [CHUNKS]: body.chunks }));
}

/** Below this a JSON answer goes as it is: it fits in the first round trip of a new connection already (~14 KB). */
const COMPRESS_FROM = 8 * 1024;

/** The encoding to answer in, from an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses). */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) accepted.add(name);
  }
  return accepted.has('br') ? 'br' : accepted.has('gzip') ? 'gzip' : undefined;
}

/**
 * Answers `value` as JSON, compressed when it is large and the client accepts it. For the admin
 * panel's descriptions that grow with the project: with 150 content-types and 80 components its
 * schema is 129 KB and the Super Admin's permissions 166 KB, 8 and 6 KB in brotli
 * (bench/admin-scale.ts); brotli at quality 4 takes ~1 ms per 100 KB here, on the event loop.
 */
export function sendCompressibleJson(
  request: FastifyRequest,
  reply: FastifyReply,
  value: unknown,
  status = 200,
): FastifyReply {
  const body = jsonBody(value);
  const encoding = body.length >= COMPRESS_FROM ? acceptedEncoding(request.headers['accept-encoding']) : undefined;
  if (!encoding) return sendBody(reply, body, status);
  const text = Buffer.concat(body.chunks);
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(text, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_SIZE_HINT]: text.length },
        })
      : gzipSync(text, { level: 6 });
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .header('content-encoding', encoding)
    .header('vary', 'accept-encoding')
    .send(compressed);
}
