import assert from 'node:assert/strict';
/** A small HTTP client over fetch: what a test sends and what it gets back, body parsed. */
export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (malformed JSON, oversized bodies). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export class HttpClient {
  /** `defaultHeaders` go with every request (e.g. the test server's credentials). */
  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body: body as BodyInit | undefined });
    const text = await response.text();
    let parsed: unknown = text;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: (text ? parsed : null) as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}

/** The body of an answer that must have `status` (200 unless said): fails with the body otherwise. */
export async function ok(answer: Promise<{ status: number; body: any }>, status = 200): Promise<any> {
  const { status: actual, body } = await answer;
  assert.equal(actual, status, JSON.stringify(body));
  return body;
}
