/**
 * Serialised answers to content API reads, kept for as long as the database has not changed.
 *
 * Every lookup first asks the database for its change signal (Dialect.changeSignal: one cheap
 * statement that moves with every committed write, from this node or any other). An entry is
 * served only while that signal is the one it was computed under, so a write anywhere, a permission
 * change included, is seen by the next request on every node. Nothing here is the truth: a node
 * that restarts, or one that never cached, answers the same.
 *
 * Answers are keyed by what they depend on: the URL as sent (path and query string), the caller's
 * grants (Caller.cacheScope, access/index.ts) and the response format. Authentication and the permission
 * check still run on every request, before the cache is consulted. Anything added to the read path
 * whose answer depends on something else (the clock, signed media URLs, project middlewares) must
 * either join the key or bypass the cache.
 */
import type { JsonBody } from '../http/json-body.js';

/** What an entry holds in memory: the body, the key (URLs can be long) and the bookkeeping. */
const weight = (key: string, body: JsonBody) => body.length + key.length * 2 + 200;

export class ResponseCache {
  private signal: string | undefined;
  private readonly entries = new Map<string, JsonBody>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The answer stored under `key` for this state of the database, if any. */
  lookup(key: string, signal: string): JsonBody | undefined {
    if (signal !== this.signal) {
      // Signals only move forward: entries of any other state can never be served again.
      this.clear();
      this.signal = signal;
      return undefined;
    }
    const body = this.entries.get(key);
    if (body) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(key);
      this.entries.set(key, body);
    }
    return body;
  }

  /** Keeps `body`, computed after reading `signal`, unless the database has moved on since. */
  store(key: string, signal: string, body: JsonBody): void {
    const size = weight(key, body);
    // One answer may take at most an eighth of the budget: a few huge pages must not evict the rest.
    if (signal !== this.signal || size > this.maxBytes / 8) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= weight(key, previous);
    }
    for (const [oldest, evicted] of this.entries) {
      if (this.bytes + size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= weight(oldest, evicted);
    }
    this.entries.set(key, body);
    this.bytes += size;
  }

  get size(): number {
    return this.entries.size;
  }

  private clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
