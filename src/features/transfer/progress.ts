/**
 * Progress of an import or export, on the terminal: a bar with counts and rate on a TTY, plain
 * lines (one per stage, and one every few seconds while it runs) otherwise. Peak memory is sampled
 * as it goes, for the summary.
 */
export interface ProgressOutput {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export class Progress {
  private stage = '';
  private total = 0;
  private done = 0;
  private started = 0;
  private lastDraw = 0;
  private peak = 0;
  private readonly tty: boolean;

  constructor(
    private readonly out: ProgressOutput | null,
    /** Plain lines at most this often (ms) when not a TTY. */
    private readonly every = 5000,
  ) {
    this.tty = out?.isTTY === true;
  }

  /** Highest resident set size seen, in bytes. */
  get peakRss(): number {
    this.sample();
    return this.peak;
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peak) this.peak = rss;
  }

  begin(stage: string, total = 0): void {
    this.end();
    this.stage = stage;
    this.total = total;
    this.done = 0;
    this.started = Date.now();
    this.lastDraw = 0;
    this.draw(true);
  }

  tick(count = 1): void {
    this.done += count;
    this.draw(false);
  }

  /** A line of its own (a warning, a note), not lost under the bar. */
  note(text: string): void {
    if (!this.out) return;
    if (this.tty) this.out.write(`\r\x1b[K${text}\n`);
    else this.out.write(`${text}\n`);
    if (this.tty && this.stage) this.draw(true);
  }

  end(): void {
    if (!this.stage) return;
    this.sample();
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    const line = `${this.stage}: ${this.done}${this.total ? `/${this.total}` : ''} in ${seconds.toFixed(1)} s (${Math.round(this.done / seconds)}/s)`;
    if (this.out) this.out.write(this.tty ? `\r\x1b[K${line}\n` : `${line}\n`);
    this.stage = '';
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < (this.tty ? 100 : this.every)) return;
    this.lastDraw = now;
    this.sample();
    if (!this.out || !this.stage) return;
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = `${Math.round(this.done / seconds)}/s`;
    const count = this.total ? `${this.done}/${this.total}` : `${this.done}`;
    if (!this.tty) {
      if (!force) this.out.write(`${this.stage}: ${count} (${rate})\n`);
      return;
    }
    const width = Math.max(
      10,
      Math.min(40, (this.out.columns ?? 80) - this.stage.length - count.length - rate.length - 10),
    );
    const filled = this.total ? Math.min(width, Math.round((this.done / this.total) * width)) : 0;
    const bar = this.total ? `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` : '';
    this.out.write(`\r\x1b[K${this.stage} ${bar}${count} ${rate}`);
  }
}
