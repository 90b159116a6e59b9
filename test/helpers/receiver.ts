/**
 * A real HTTP receiver for webhook tests, on an ephemeral port of 127.0.0.1: it records every
 * request (headers, raw body, parsed JSON) and answers as `answer` decides: a status code, or
 * `'hold'` (no answer until the connection closes: a receiver that hangs, or a node killed while
 * waiting). Tests wait for conditions on what arrived (`until`), never for a fixed time.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';

export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
  /** The status answered; null while held (or when the connection closed first). */
  status: number | null;
}

export type Answer = (request: Received, index: number) => number | 'hold';

export class Receiver {
  readonly requests: Received[] = [];
  answer: Answer = () => 200;
  private readonly held = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(answer?: Answer): Promise<Receiver> {
    const state: { receiver?: Receiver } = {};
    const server = createServer((request, response) => {
      const receiver = state.receiver!;
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = raw;
        try {
          body = JSON.parse(raw);
        } catch {
          // not JSON: kept as text
        }
        const received: Received = { headers: request.headers, raw, body, status: null };
        const index = receiver.requests.push(received) - 1;
        const status = receiver.answer(received, index);
        if (status === 'hold') {
          receiver.held.add(response);
          response.on('close', () => receiver.held.delete(response));
          return;
        }
        received.status = status;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `refused ${index}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const receiver = new Receiver(server, `http://127.0.0.1:${address.port}/hook`);
    if (answer) receiver.answer = answer;
    state.receiver = receiver;
    return receiver;
  }

  /** The requests answered with a 2xx: what the sender counts as delivered. */
  get delivered(): Received[] {
    return this.requests.filter((request) => request.status !== null && request.status < 300);
  }

  /** Waits until `condition` holds on what arrived (checked every 25 ms), or fails after `deadline` ms saying what it waited for. */
  async until(condition: (receiver: Receiver) => boolean, what: string, deadline = 30_000): Promise<void> {
    const end = Date.now() + deadline;
    while (!condition(this)) {
      if (Date.now() > end)
        throw new Error(
          `timed out waiting for ${what}; received ${this.requests.length}: ${this.requests.map((r) => `${r.status ?? 'held'} ${r.body?.event}`).join(', ')}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Drops the held requests' connections. */
  release(): void {
    for (const response of this.held) response.destroy();
    this.held.clear();
  }

  async close(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `condition` is true (checked every 50 ms), or fails after `deadline` ms. */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  deadline = 30_000,
): Promise<void> {
  const end = Date.now() + deadline;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
