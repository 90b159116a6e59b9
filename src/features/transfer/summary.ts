/**
 * What an import or export did, printed at its end: per type the rows (versions) the source held
 * and those the destination holds, what was left out and why, what the source could not give and
 * what to do about it, files and peak memory.
 */
import type { TransferProject } from './project.js';

interface TypeCount {
  source: number;
  written: number;
  destination?: number;
}

export class Summary {
  readonly types = new Map<string, TypeCount>();
  private readonly left = new Map<string, { count: number; why: string }>();
  private readonly skipped = new Map<string, number>();
  readonly notes: string[] = [];
  sourceVersion: string | null = null;
  assets = { count: 0, bytes: 0 };
  peakRss = 0;
  seconds = 0;

  constructor(
    readonly kind: 'archive' | 'api' | 'export',
    readonly source: string,
  ) {}

  wrote(uid: string, count: number): void {
    const entry = this.types.get(uid) ?? { source: 0, written: 0 };
    entry.written += count;
    this.types.set(uid, entry);
  }

  leftOut(uid: string, count: number, why: string): void {
    const entry = this.left.get(uid) ?? { count: 0, why };
    entry.count += count;
    this.left.set(uid, entry);
  }

  /** Something of the source that had no place here (an attribute, a link); counted, named once. */
  skip(what: string): void {
    this.skipped.set(what, (this.skipped.get(what) ?? 0) + 1);
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /** The source's rows per type beside the destination's, read from the project's database. */
  async compare(project: TransferProject, source: Map<string, number>, _side: string): Promise<void> {
    for (const [uid, count] of source) {
      const type = project.schema.contentTypes.get(uid);
      const entry = this.types.get(uid) ?? { source: 0, written: 0 };
      entry.source = count;
      if (type) {
        const row = await project.database.db
          .selectFrom(type.table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst();
        entry.destination = Number(row?.n ?? 0);
      }
      this.types.set(uid, entry);
    }
  }

  /** Mismatches between the source's and the destination's counts (types this run wrote). */
  get mismatches(): string[] {
    return [...this.types]
      .filter(([, c]) => c.destination !== undefined && c.written > 0 && c.destination < c.source)
      .map(([uid, c]) => `${uid}: ${c.source} in the source, ${c.destination} here`);
  }

  lines(): string[] {
    const out: string[] = [];
    const rows = [...this.types].filter(([, c]) => c.source || c.written || c.destination);
    if (rows.length) {
      const width = Math.max(...rows.map(([uid]) => uid.length), 4);
      out.push(`${'type'.padEnd(width)}  ${'source'.padStart(8)}  ${'written'.padStart(8)}  ${'here now'.padStart(8)}`);
      for (const [uid, c] of rows) {
        out.push(
          `${uid.padEnd(width)}  ${String(c.source).padStart(8)}  ${String(c.written).padStart(8)}  ${(c.destination === undefined ? '-' : String(c.destination)).padStart(8)}`,
        );
      }
    }
    if (this.assets.count) out.push(`files: ${this.assets.count} (${(this.assets.bytes / 1e6).toFixed(1)} MB)`);
    for (const [uid, { count, why }] of this.left) out.push(`left out: ${uid} (${count}): ${why}`);
    const skipped = [...this.skipped];
    if (skipped.length) {
      out.push(`not written (no place for them in this project):`);
      for (const [what, count] of skipped.slice(0, 20)) out.push(`  ${what}: ${count}`);
      if (skipped.length > 20) out.push(`  ... and ${skipped.length - 20} more`);
    }
    for (const note of this.notes) out.push(`note: ${note}`);
    if (this.seconds)
      out.push(`time: ${this.seconds.toFixed(1)} s; peak memory (RSS): ${Math.round(this.peakRss / 1e6)} MB`);
    return out;
  }
}
