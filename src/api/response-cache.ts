/**
 * Serialised answers to content API reads, kept while what they read has not changed.
 *
 * Every lookup first reads the database's change counters (core/database/changes.ts: one statement,
 * one counter per content-type and component, bumped by triggers in every writing transaction, from
 * this node or any other, plain SQL included). An answer remembers the counters of the groups it
 * read (core/documents/dependencies.ts: its type, and every type and component it populates, filters or
 * sorts through) as they were before it was computed, and is served only while they are unchanged:
 * a write to tags keeps the cached article lists that never read tags. Nothing here is the truth:
 * a node that restarts, or one that never cached, answers the same.
 *
 * Answers are keyed by what they depend on: the URL as sent (path and query string), the caller's
 * grants (Caller.cacheScope, api/access.ts) and the response format. Authentication and the permission
 * check still run on every request, before the cache is consulted. Anything added to the read path
 * whose answer depends on something else (the clock, signed media URLs, project middlewares) must
 * either join the key or bypass the cache.
 */
import type { JsonBody } from './json-body.js';

import type { ChangeVersions } from '../core/database/changes.js';
import { FrequencySketch } from './frequency-sketch.js';

interface Entry {
  body: JsonBody;
  /** The change groups the answer read, and their counters before it was computed. */
  groups: string[];
  versions: number[];
}

/** What an entry holds in memory: the body, the key (URLs can be long), the groups and the bookkeeping. */
const weight = (key: string, entry: Entry) => entry.body.length + key.length * 2 + entry.groups.length * 40 + 200;

/** Lookups since start: answered, computed (no entry), recomputed (an entry whose groups moved). */
export interface CacheStats {
  hits: number;
  misses: number;
  stale: number;
}

export interface ResponseCacheOptions {
  maxBytes: number;
  /**
   * How long after this node last saw a group's counter move its answers are not stored (ms; 0
   * stores always). A type written every few requests would drop each answer before anyone asks
   * for it again: storing it costs the copy and the garbage collector's work for nothing
   * (measured on 600 distinct URLs with one write in twenty: 420 req/s cached, 653 without).
   */
  holdAfterWriteMs: number;
  /** The clock, in ms (tests pass their own). */
  now?: () => number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  readonly stats: CacheStats = { hits: 0, misses: 0, stale: 0 };
  private readonly maxBytes: number;
  private readonly holdMs: number;
  private readonly now: () => number;
  /** Each group's counter when this node last saw it, and when it saw it move. */
  private readonly seen = new Map<string, { version: number; movedAt: number }>();
  /** How often each key was asked for lately: a full cache admits only what is asked more often. */
  private readonly frequency = new FrequencySketch();

  constructor(options: ResponseCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.holdMs = options.holdAfterWriteMs;
    this.now = options.now ?? Date.now;
  }

  /** The answer stored under `key`, if no group it read has changed since (`versions`: read now). */
  lookup(key: string, versions: ChangeVersions): JsonBody | undefined {
    this.frequency.increment(key);
    const entry = this.entries.get(key);
    if (!entry) {
      this.stats.misses += 1;
      return undefined;
    }
    for (let i = 0; i < entry.groups.length; i++) {
      if (versions.get(entry.groups[i]!) !== entry.versions[i]) {
        // Counters only move forward: this entry can never be served again.
        this.remove(key, entry);
        this.stats.stale += 1;
        return undefined;
      }
    }
    // Most recently used last: eviction takes from the front.
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.stats.hits += 1;
    return entry.body;
  }

  /**
   * Keeps `body`, computed after reading `versions`, as depending on `groups`. An answer that names
   * no group, or a group without a counter, is not kept: nothing would tell when it changes.
   */
  store(key: string, versions: ChangeVersions, groups: string[], body: JsonBody): void {
    if (groups.length === 0) return;
    const counters: number[] = [];
    let recent = false;
    for (const group of groups) {
      const version = versions.get(group);
      if (version === undefined) return;
      counters.push(version);
      if (this.holdMs > 0 && this.movedRecently(group, version)) recent = true;
    }
    if (recent) return;
    const entry: Entry = { body, groups, versions: counters };
    const size = weight(key, entry);
    // One answer may take at most an eighth of the budget: a few huge pages must not evict the rest.
    if (size > this.maxBytes / 8) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    // A full cache takes a new answer only if it is asked for more often than the least recently
    // used one it would evict (TinyLFU's admission). Plain LRU keeps nothing when a site's distinct
    // URLs outgrow the budget and come round in turn: each new answer evicts one that is about to
    // be asked for (600 URLs of 26 MB through 16 MB: no hits at all; with admission ~60%).
    let admitted = false;
    for (const [oldest, evicted] of this.entries) {
      if (this.bytes + size <= this.maxBytes) break;
      if (!admitted) {
        if (this.frequency.estimate(key) <= this.frequency.estimate(oldest)) return;
        admitted = true;
      }
      this.remove(oldest, evicted);
    }
    this.entries.set(key, entry);
    this.bytes += size;
  }

  /**
   * Whether answers that read `group` are not worth looking up: this node saw its counter move
   * within the hold time, so an entry that read it is stale (it was stored before that move: a
   * group moving is not stored) and the answer computed now would not be stored. The caller then
   * reads the database without the change counters or a key (exact either way: nothing is served
   * from memory). With one write in 20 to a type every answer reads (the bench's mixed traffic),
   * the counters' read, the key and the lookup were ~16% of a request's CPU for no hit.
   */
  moving(group: string): boolean {
    if (this.holdMs <= 0) return false;
    const last = this.seen.get(group);
    return last !== undefined && this.now() - last.movedAt < this.holdMs;
  }

  /** Notes `version` as seen now; whether the group moved within the hold time (a first sight is no move). */
  private movedRecently(group: string, version: number): boolean {
    const now = this.now();
    const last = this.seen.get(group);
    if (!last) {
      this.seen.set(group, { version, movedAt: -Infinity });
      return false;
    }
    if (last.version !== version) {
      last.version = version;
      last.movedAt = now;
    }
    return now - last.movedAt < this.holdMs;
  }

  get size(): number {
    return this.entries.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= weight(key, entry);
  }
}
