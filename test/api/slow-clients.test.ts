/**
 * Slow clients cannot hold a socket: a body Vellum reads whole must arrive within
 * `server.bodyTimeout`, a whole request (uploads included) within `requestTimeout`, headers within
 * `headersTimeout` (`server.http.serverOptions`, as Strapi names them). (Issue 17, point 3: a body
 * sent one byte every 10 s stayed open for 200 s.) The server runs with short timeouts; each test
 * asserts what the client gets (a 408, a closed connection), with a generous deadline, never the
 * exact time it took.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/core/config/load.js';
import { BLOG } from '../helpers/paths.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** Far beyond the configured timeouts, even on a loaded machine. */
const DEADLINE_MS = 20_000;

interface Outcome {
  /** What the server sent before closing (or before the deadline). */
  received: string;
  /** Whether the server closed the connection before the deadline. */
  closed: boolean;
}

/**
 * Sends `head` at once, then one byte of `drip` every 100 ms, until the server closes the
 * connection or the deadline passes.
 */
function slowRequest(url: string, head: string, drip: string): Promise<Outcome> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let sent = 0;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearInterval(dripper);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ received, closed });
    };
    const dripper = setInterval(() => {
      if (!socket.writable || sent >= drip.length) return;
      socket.write(drip[sent++]!);
    }, 100);
    const deadline = setTimeout(() => finish(false), DEADLINE_MS);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(head));
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

describe('slow clients', () => {
  let server: TestServer;
  let host: string;

  before(async () => {
    // The database plays no part: SQLite whatever VELLUM_TEST_DIALECTS says.
    server = await startServer('sqlite', {
      config: {
        server: { bodyTimeout: 1000, http: { serverOptions: { requestTimeout: 2000, headersTimeout: 1500 } } },
      },
    });
    host = new URL(server.url).host;
  });
  after(() => server?.close());

  it('answers a JSON body that trickles in with a 408 and closes the connection', async () => {
    const body = `{"identifier":"${'x'.repeat(5000)}","password":"p"}`;
    const head = `POST /api/auth/local HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await slowRequest(server.url, head, body);
    assert.ok(outcome.closed, 'the server closed the connection');
    assert.match(outcome.received, /^HTTP\/1\.1 408 /);
    assert.match(outcome.received, /"name":"RequestTimeoutError"/);
    assert.match(outcome.received, /server\.bodyTimeout/);
  });

  it('does the same to a GraphQL body', async () => {
    const body = JSON.stringify({ query: `{ articles { data { id } } } ${' '.repeat(5000)}` });
    const head = `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await slowRequest(server.url, head, body);
    assert.ok(outcome.closed);
    assert.match(outcome.received, /^HTTP\/1\.1 408 /);
  });

  it('cuts off an upload that trickles in at the request timeout', async () => {
    const boundary = 'vellumboundary';
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${'a'.repeat(5000)}\r\n--${boundary}--\r\n`;
    const head =
      `POST /api/upload HTTP/1.1\r\nHost: ${host}\r\n${server.authHeaders.authorization ? `Authorization: ${server.authHeaders.authorization}\r\n` : ''}` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await slowRequest(server.url, head, body);
    assert.ok(outcome.closed, 'the server closed the connection');
    assert.doesNotMatch(outcome.received, /^HTTP\/1\.1 201 /);
  });

  it('cuts off headers that trickle in', async () => {
    const outcome = await slowRequest(
      server.url,
      'GET /api/articles HTTP/1.1\r\n',
      `Host: ${host}\r\nX-Slow: ${'s'.repeat(5000)}\r\n\r\n`,
    );
    assert.ok(outcome.closed, 'the server closed the connection');
    assert.doesNotMatch(outcome.received, /^HTTP\/1\.1 200 /);
  });

  it('answers requests that arrive in time as before', async () => {
    const res = await fetch(`${server.url}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'nobody', password: 'x' }),
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.name, 'ValidationError');
  });

  it("defaults to Strapi's (Node's) request, headers and keep-alive timeouts, and 30 s for a body", async () => {
    const config = await loadConfig(BLOG, { env: {} });
    assert.deepEqual(config.server.http.serverOptions, {
      requestTimeout: 300_000,
      headersTimeout: 60_000,
      keepAliveTimeout: 5_000,
    });
    assert.equal(config.server.bodyTimeout, 30_000);
  });
});
