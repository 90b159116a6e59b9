/**
 * How often keys were asked for lately, approximately, in a fixed 64 KB: TinyLFU's sketch (Einhorn,
 * Friedman, Manes), used by the response cache to decide whether a new answer may evict an old one.
 * Two counters per key (the smaller one is the estimate, so a collision only ever overestimates),
 * saturating at 15; every counter is halved after `window` increments, so the past fades.
 */
const SIZE = 1 << 16;
const MASK = SIZE - 1;
const MAX = 15;

/** FNV-1a over the key's UTF-16 code units, then two probe positions from its halves. */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class FrequencySketch {
  private readonly counters = new Uint8Array(SIZE);
  private increments = 0;

  constructor(private readonly window = 10 * SIZE) {}

  /** Counts one more request for `key`. */
  increment(key: string): void {
    const h = hash(key);
    const a = h & MASK;
    const b = (h >>> 16) ^ ((h & MASK) * 0x9e37) & MASK;
    if (this.counters[a]! < MAX) this.counters[a]! += 1;
    if (this.counters[b]! < MAX) this.counters[b]! += 1;
    if (++this.increments >= this.window) this.age();
  }

  /** About how many times `key` was counted lately (never fewer than it was). */
  estimate(key: string): number {
    const h = hash(key);
    const b = (h >>> 16) ^ ((h & MASK) * 0x9e37) & MASK;
    return Math.min(this.counters[h & MASK]!, this.counters[b]!);
  }

  private age(): void {
    for (let i = 0; i < SIZE; i++) this.counters[i]! >>= 1;
    this.increments = 0;
  }
}
