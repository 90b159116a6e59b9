/**
 * A Koa-like `ctx` over a Fastify request and reply, as Strapi's controllers, policies and
 * middlewares use it: `ctx.query`, `ctx.params`, `ctx.request.body`, `ctx.state.user`,
 * `ctx.body`, `ctx.status`, `ctx.set`, `ctx.get`, `ctx.send`, `ctx.badRequest`, `ctx.throw`...
 * Body and status follow Koa: the status is 404 until set, setting a body makes it 200 (204 for
 * null), and `ctx.response.explicitStatus` says whether anything answered (Strapi's errors
 * middleware answers 404 "Not Found" otherwise).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHttpError } from './errors.js';

type Headers = Record<string, string | string[] | undefined>;

/** Statuses that carry no body. */
const EMPTY = new Set([204, 205, 304]);

/** `Bad Request` -> `badRequest`: Strapi's error helpers, one per 4xx and 5xx status. */
const camelCase = (text: string) =>
  text
    .replace(/[^A-Za-z0-9 ]/g, '')
    .split(' ')
    .filter(Boolean)
    .map((word, i) =>
      i === 0
        ? word.slice(0, 1).toLowerCase() + word.slice(1)
        : word.slice(0, 1).toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join('');

const ERROR_HELPERS: [string, number, string][] = Object.entries(STATUS_CODES)
  .filter(([code]) => Number(code) >= 400 && Number(code) < 600)
  .map(([code, text]) => [camelCase(text!), Number(code), text!]);

/** Strapi's error envelope of an HTTP error: `details` only when there are some. */
export function httpErrorBody(status: number, name: string, message: string, details?: unknown) {
  const error: Record<string, unknown> = { status, name, message };
  if (details !== undefined) error.details = details;
  return { data: null, error };
}

export interface KoaRequest {
  readonly method: string;
  readonly url: string;
  /** Settable, as Koa's: Strapi's GraphQL mutations of users-permissions set their REST route's path. */
  path: string;
  readonly headers: Headers;
  readonly header: Headers;
  readonly querystring: string;
  readonly search: string;
  readonly ip: string;
  readonly host: string;
  readonly hostname: string;
  readonly protocol: string;
  readonly origin: string;
  readonly href: string;
  query: Record<string, unknown>;
  body: unknown;
  get(field: string): string;
  is(...types: string[]): string | false | null;
}

export interface KoaResponse {
  status: number;
  body: unknown;
  message: string;
  type: string;
  readonly headers: Record<string, unknown>;
  readonly explicitStatus: boolean;
  set(field: string | Record<string, string>, value?: string | number | string[]): void;
  get(field: string): unknown;
  remove(field: string): void;
}

/** Koa's `ctx`: the request and response, their most used fields at the top, and Strapi's helpers. */
export class Context {
  readonly request: KoaRequest;
  readonly response: ResponseFacade;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly originalUrl: string;
  readonly app: Record<string, unknown> = {};
  state: Record<string, unknown> = {};
  params: Record<string, string>;

  constructor(
    readonly fastifyRequest: FastifyRequest,
    readonly reply: FastifyReply,
    /** Called once when a handler reads or replaces `ctx.query` (the response cache then steps aside). */
    onQuery?: () => void,
  ) {
    this.req = fastifyRequest.raw;
    this.res = reply.raw;
    this.originalUrl = fastifyRequest.url;
    this.params = { ...(fastifyRequest.params as Record<string, string>) };
    this.request = requestFacade(fastifyRequest, onQuery);
    this.response = new ResponseFacade(reply);
    // Own properties, as Koa's: Strapi's policy context copies them (Object.assign).
    for (const key of ['fastifyRequest', 'reply']) Object.defineProperty(this, key, { enumerable: false });
  }

  get query(): Record<string, unknown> {
    return this.request.query;
  }
  set query(value: Record<string, unknown>) {
    this.request.query = value;
  }
  get querystring(): string {
    return this.request.querystring;
  }
  get body(): unknown {
    return this.response.body;
  }
  set body(value: unknown) {
    this.response.body = value;
  }
  get status(): number {
    return this.response.status;
  }
  set status(value: number) {
    this.response.status = value;
  }
  get message(): string {
    return this.response.message;
  }
  set message(value: string) {
    this.response.message = value;
  }
  get type(): string {
    return this.response.type;
  }
  set type(value: string) {
    this.response.type = value;
  }
  get method(): string {
    return this.request.method;
  }
  get url(): string {
    return this.request.url;
  }
  get path(): string {
    return this.request.path;
  }
  set path(value: string) {
    this.request.path = value;
  }
  get href(): string {
    return this.request.href;
  }
  get origin(): string {
    return this.request.origin;
  }
  get protocol(): string {
    return this.request.protocol;
  }
  get host(): string {
    return this.request.host;
  }
  get hostname(): string {
    return this.request.hostname;
  }
  get headers(): Headers {
    return this.request.headers;
  }
  get header(): Headers {
    return this.request.headers;
  }
  get ip(): string {
    return this.request.ip;
  }
  get(field: string): string {
    return this.request.get(field);
  }
  set(field: string | Record<string, string>, value?: string | number | string[]): void {
    this.response.set(field, value);
  }
  append(field: string, value: string | string[]): void {
    const previous = this.response.get(field);
    const values = [
      ...(previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)]),
      ...(Array.isArray(value) ? value : [value]),
    ];
    this.response.set(field, values);
  }
  remove(field: string): void {
    this.response.remove(field);
  }
  is(...types: string[]): string | false | null {
    return this.request.is(...types);
  }
  redirect(url: string): void {
    this.response.set('Location', url);
    if (!this.response.explicitStatus || this.response.status < 300 || this.response.status > 308)
      this.response.status = 302;
    this.response.body = `Redirecting to ${url}.`;
  }
  /** Koa's `ctx.throw(status, message, properties)`: an HTTP error, answered with its status and message. */
  throw(...args: unknown[]): never {
    throw createHttpError(...args);
  }
  assert(value: unknown, ...args: unknown[]): void {
    if (!value) this.throw(...args);
  }
  /** Strapi's `ctx.send(data, status)`. */
  send(data: unknown, status = 200): void {
    this.response.status = status;
    this.response.body = data;
  }
  created(data: unknown): void {
    this.send(data, 201);
  }
  deleted(data?: unknown): void {
    if (data === undefined || data === null) this.response.status = 204;
    else this.send(data, 200);
  }
}

// Strapi's error helpers (`ctx.badRequest(message, details)`, `ctx.notFound()`, ...): they set the
// answer, they do not throw.
for (const [method, status, text] of ERROR_HELPERS) {
  Object.defineProperty(Context.prototype, method, {
    value(this: Context, message: string = text, details: unknown = {}) {
      const name = createHttpError(status).name;
      this.response.status = status;
      this.response.body = httpErrorBody(status, name, message, details);
    },
  });
}

function requestFacade(request: FastifyRequest, onQuery?: () => void): KoaRequest {
  const raw = request.raw;
  const url = request.url;
  const queryAt = url.indexOf('?');
  let path = queryAt === -1 ? url : url.slice(0, queryAt);
  const protocol = request.protocol;
  const host = request.host;
  let touched = false;
  const touch = () => {
    if (!touched) onQuery?.();
    touched = true;
  };
  return {
    get method() {
      return request.method;
    },
    get url() {
      return url;
    },
    get path() {
      return path;
    },
    set path(value: string) {
      path = value;
    },
    get headers() {
      return request.headers as Headers;
    },
    get header() {
      return request.headers as Headers;
    },
    get querystring() {
      return queryAt === -1 ? '' : url.slice(queryAt + 1);
    },
    get search() {
      return queryAt === -1 ? '' : url.slice(queryAt);
    },
    get ip() {
      return request.clientIp;
    },
    get host() {
      return host;
    },
    get hostname() {
      return request.hostname;
    },
    get protocol() {
      return protocol;
    },
    get origin() {
      return `${protocol}://${host}`;
    },
    get href() {
      return `${protocol}://${host}${url}`;
    },
    get query() {
      touch();
      return request.query as Record<string, unknown>;
    },
    set query(value: Record<string, unknown>) {
      touch();
      request.query = value;
    },
    get body() {
      return request.body;
    },
    set body(value: unknown) {
      request.body = value;
    },
    get(field: string): string {
      const name = field.toLowerCase();
      const value =
        name === 'referer' || name === 'referrer' ? (raw.headers.referer ?? raw.headers.referrer) : raw.headers[name];
      return Array.isArray(value) ? value.join(', ') : (value ?? '');
    },
    is(...types: string[]): string | false | null {
      const contentType = String(raw.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      if (!contentType) return null;
      const wanted = types.flat();
      if (wanted.length === 0) return contentType;
      const found = wanted.find(
        (type) =>
          contentType === type ||
          contentType.endsWith(`/${type}`) ||
          contentType.endsWith(`+${type}`) ||
          (type.endsWith('/*') && contentType.startsWith(type.slice(0, -1))),
      );
      return found ?? false;
    },
  };
}

class ResponseFacade implements KoaResponse {
  private code = 404;
  private explicit = false;
  private value: unknown = undefined;
  private text: string | undefined;
  /** Reads the body of an answer already written (see `adopt`), once, when asked. */
  private pending: (() => unknown) | undefined;
  /** Whether the body was set since `adopt` or `watch`. */
  replaced = false;

  constructor(private readonly reply: FastifyReply) {}

  /**
   * What a global middleware sees after `await next()` when the answer was written by a route
   * that is not the project's: its status, and its body (parsed when JSON) read only if asked.
   */
  adopt(status: number, read: () => unknown): void {
    this.code = status;
    this.explicit = true;
    this.pending = read;
    this.replaced = false;
  }

  watch(): void {
    this.replaced = false;
  }

  get explicitStatus(): boolean {
    return this.explicit;
  }
  get status(): number {
    return this.code;
  }
  set status(code: number) {
    if (!Number.isInteger(code) || code < 100 || code > 999)
      throw new TypeError(`invalid status code: ${String(code)}`);
    this.code = code;
    this.explicit = true;
    this.text = undefined;
    if (EMPTY.has(code)) this.value = null;
  }
  get message(): string {
    return this.text ?? STATUS_CODES[this.code] ?? '';
  }
  set message(text: string) {
    this.text = text;
  }
  get body(): unknown {
    if (this.pending) {
      this.value = this.pending();
      this.pending = undefined;
    }
    return this.value;
  }
  set body(value: unknown) {
    this.pending = undefined;
    this.replaced = true;
    this.value = value;
    if (value === null || value === undefined) {
      if (!EMPTY.has(this.code)) this.status = 204;
      return;
    }
    if (!this.explicit) this.status = 200;
  }
  get type(): string {
    return String(this.reply.getHeader('content-type') ?? '').split(';')[0]!;
  }
  set type(value: string) {
    const type = value.includes('/')
      ? value
      : value === 'json'
        ? 'application/json'
        : value === 'html'
          ? 'text/html'
          : value === 'text'
            ? 'text/plain'
            : value;
    void this.reply.header('content-type', type);
  }
  get headers(): Record<string, unknown> {
    return this.reply.getHeaders();
  }
  set(field: string | Record<string, string>, value?: string | number | string[]): void {
    if (typeof field === 'object') {
      for (const [name, item] of Object.entries(field)) void this.reply.header(name, item);
      return;
    }
    void this.reply.header(field, value);
  }
  get(field: string): unknown {
    return this.reply.getHeader(field);
  }
  remove(field: string): void {
    void this.reply.removeHeader(field);
  }
}
