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

/** A string at most this long is written by a loop over its characters; a longer one by the native encoder. */
const SHORT = 64;
/** The first size of the scratch Buffer bodies are encoded into, and the most of it kept between bodies. */
const SCRATCH = 64 * 1024;
const KEEP = 1024 * 1024;

/**
 * A string with nothing JSON.stringify would write otherwise than itself: no quote, backslash,
 * control character or surrogate (it escapes a lone one; a string holding any goes through it).
 * Anchored and negated: V8 walks a whole clean string about three times faster this way than
 * searching it for the first such character (1 KB of text: ~0.7 against ~2 us here).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const CLEAN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** Node's UTF-8 encoder without `Buffer.write`'s argument checks (in every Buffer since Node 0.x; untyped). */
type Encoder = Buffer & { utf8Write(text: string, offset: number): number };
const encoder = (buffer: Buffer): Encoder => buffer as Encoder;

/** Shared by the bodies written one after the other; a body written inside another (a toJSON) takes its own. */
let scratch: Buffer | undefined = Buffer.allocUnsafeSlow(SCRATCH);

/**
 * Writes a body as UTF-8 bytes into the scratch Buffer, then copies it out in one Buffer of its
 * exact length. Punctuation, keys, numbers and short clean strings are stored byte by byte from
 * JavaScript; long strings and stored JSON go through the native encoder from where they are.
 * Nothing is joined into a string first (sixth pass, 2026-11-30: the pieces used to be joined into
 * ropes of up to 4K characters, flattened for the encoder, and every string with a newline was
 * copied by JSON.stringify: a page of 100 articles allocated ~290 KB of V8 heap in the writer, 54%
 * of the request's, sampling heap profile).
 */
class BodyWriter {
  private at = 0;
  private readonly shared = scratch !== undefined;
  private buffer = scratch ?? Buffer.allocUnsafeSlow(SCRATCH);

  constructor() {
    scratch = undefined;
  }

  /** One ASCII byte (punctuation). */
  byte(code: number): void {
    if (this.at >= this.buffer.length) this.grow(1);
    this.buffer[this.at++] = code;
  }

  /** Text known to be ASCII and to need no escaping (keys' texts, numbers, literals). */
  ascii(text: string): void {
    const length = text.length;
    if (this.at + length > this.buffer.length) this.grow(length);
    const buffer = this.buffer;
    let at = this.at;
    for (let i = 0; i < length; i++) buffer[at++] = text.charCodeAt(i);
    this.at = at;
  }

  /** Any text, encoded as it is (JSON already: stored JSON, JSON.stringify's output). */
  text(text: string): void {
    if (text.length < SHORT) {
      this.short(text, false);
      return;
    }
    // At most three bytes per UTF-16 unit (a surrogate pair is four bytes for two units).
    if (this.at + text.length * 3 > this.buffer.length) this.grow(text.length * 3);
    this.at += encoder(this.buffer).utf8Write(text, this.at);
  }

  /** A string value as JSON: JSON.stringify's text. */
  string(value: string): void {
    if (value.length < SHORT) {
      this.short(value, true);
      return;
    }
    if (CLEAN.test(value)) {
      this.byte(0x22);
      this.text(value);
      this.byte(0x22);
      return;
    }
    // Text with paragraphs (markdown): the lines between quotes, each written as it is when clean,
    // a newline as its escape. Anything else to escape: JSON.stringify.
    const lines = value.split('\n');
    for (const line of lines) {
      if (!CLEAN.test(line)) {
        this.text(JSON.stringify(value));
        return;
      }
    }
    this.byte(0x22);
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        this.byte(0x5c);
        this.byte(0x6e);
      }
      this.text(lines[i]!);
    }
    this.byte(0x22);
  }

  finish(): JsonBody {
    const body = Buffer.allocUnsafe(this.at);
    this.buffer.copy(body, 0, 0, this.at);
    return { chunks: [body], length: body.length };
  }

  /** Gives the shared scratch back (written or not: a toJSON may throw halfway). */
  release(): void {
    if (this.shared) scratch = this.buffer.length > KEEP ? Buffer.allocUnsafeSlow(SCRATCH) : this.buffer;
  }

  /**
   * A short string stored byte by byte while it is printable ASCII (with its quotes when `quoted`
   * and nothing in it to escape); anything else is written again from where it started, through
   * JSON.stringify (`quoted`) or the encoder.
   */
  private short(value: string, quoted: boolean): void {
    const length = value.length;
    if (this.at + length + 2 > this.buffer.length) this.grow(length + 2);
    const buffer = this.buffer;
    const from = this.at;
    let at = from;
    if (quoted) buffer[at++] = 0x22;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code > 0x7e || (quoted && (code < 0x20 || code === 0x22 || code === 0x5c))) {
        const text = quoted ? JSON.stringify(value) : value;
        if (from + text.length * 3 > buffer.length) this.grow(text.length * 3);
        this.at = from + encoder(this.buffer).utf8Write(text, from);
        return;
      }
      buffer[at++] = code;
    }
    if (quoted) buffer[at++] = 0x22;
    this.at = at;
  }

  private grow(room: number): void {
    const larger = Buffer.allocUnsafeSlow(Math.max(this.at + room, this.buffer.length * 2));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }
}

function writeValue(out: BodyWriter, value: unknown): void {
  switch (typeof value) {
    case 'string':
      out.string(value);
      return;
    case 'number':
      out.ascii(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
      out.ascii(value ? 'true' : 'false');
      return;
    case 'object':
      if (value === null) out.ascii('null');
      else if (value instanceof RawJson) out.text(value.text);
      else if (Array.isArray(value)) writeArray(out, value);
      else if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
        writeValue(out, (value as { toJSON(): unknown }).toJSON());
      else writeObject(out, value as Record<string, unknown>);
      return;
    default:
      // undefined, functions and symbols: what JSON.stringify writes for them inside an array.
      out.text(JSON.stringify(value) ?? 'null');
  }
}

function writeArray(out: BodyWriter, items: unknown[]): void {
  out.byte(0x5b);
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out.byte(0x2c);
    const item = items[i];
    writeValue(out, item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item);
  }
  out.byte(0x5d);
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
  out.byte(0x7b);
  let first = true;
  for (const key in object) {
    if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
    const item = object[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    if (!first) out.byte(0x2c);
    out.text(keyText(key));
    first = false;
    writeValue(out, item);
  }
  out.byte(0x7d);
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
