/**
 * How often keys were asked for lately, approximately, in a fixed 64 KB: TinyLFU's sketch (Einhorn,
 * Friedman, Manes), used by the response cache to decide whether a new answer may evict an old one.
 * Two counters per key (the smaller one is the estimate, so a collision only ever overestimates),
 * saturating at 15; every counter is halved after `window` increments, so the past fades.
 */
const SIZE = 1 << 16;
const MASK = SIZE - 1;
const MAX = 15;

/** FNV-1a over the key's UTF-16 code units, then two counter positions from its halves. */
function positions(key: string): [number, number] {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h >>>= 0;
  return [h & MASK, (h >>> 16) ^ (Math.imul(h & MASK, 0x9e37) & MASK)];
}

export class FrequencySketch {
  private readonly counters = new Uint8Array(SIZE);
  private increments = 0;

  constructor(private readonly window = 10 * SIZE) {}

  /** Counts one more request for `key`. */
  increment(key: string): void {
    const [a, b] = positions(key);
    if (this.counters[a]! < MAX) this.counters[a]! += 1;
    if (this.counters[b]! < MAX) this.counters[b]! += 1;
    if (++this.increments >= this.window) this.age();
  }

  /** About how many times `key` was counted lately (never fewer than it was). */
  estimate(key: string): number {
    const [a, b] = positions(key);
    return Math.min(this.counters[a]!, this.counters[b]!);
  }

  private age(): void {
    for (let i = 0; i < SIZE; i++) this.counters[i]! >>= 1;
    this.increments = 0;
  }
}
