/**
 * Cron jobs, each tick run on exactly one node. Every node keeps its own timers (croner computes the
 * ticks, so every node computes the same ones) and, when one fires, moves the job's lease row
 * (`vellum_cron_leases`: the next tick the job may run) past that tick with one conditional UPDATE
 * (`where next_at <= tick`): the node whose UPDATE changes the row runs the tick, the others find
 * it moved. A tick missed while every node was down is not run later: a starting node waits for the
 * next tick, whose UPDATE moves the lease past the missed one too; so no tick runs twice.
 *
 * `CronService` is Strapi's `strapi.cron` (`add`, `remove`, `start`, `stop`, `destroy`, `jobs`) over
 * Strapi's task shapes: `{ name: { task({ strapi }), options: rule | { rule, tz, start, end } | Date } }`
 * and `{ '<rule>': ({ strapi }) => ... }`; a task receives the tick's date as a second argument.
 */
import { createHash } from 'node:crypto';
import { Cron } from 'croner';
import type { Database } from '../../core/database/connection.js';
import { BACKGROUND, shaped } from '../../core/database/system-tables.js';
import { ProjectError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { CRON_TABLE, type CronLeaseRow } from './tables.js';

/** The latest time a Date holds: a lease past every tick (a one-off job that ran). */
const NEVER = 8.64e15;
/** setTimeout's longest delay; a tick further away re-arms on the way. */
const LONGEST_TIMER = 2 ** 31 - 1;

/** A job the scheduler runs on one node per tick. */
export interface LeasedJob {
  /** The lease row's name: the same on every node for the same job. */
  key: string;
  /** The first tick strictly after `after`, or null when there is none. */
  next(after: Date): Date | null;
  run(tick: Date): Promise<void>;
  /** When given, a tick claims its lease only when this says there is something to do (an idle job writes nothing). */
  due?(): Promise<boolean>;
}

type Log = (message: string, error?: unknown) => void;

/** Runs leased jobs on this node: each tick runs here only if this node's UPDATE takes it. */
export class LeaseScheduler {
  private readonly jobs = new Map<string, { job: LeasedJob; timer?: NodeJS.Timeout }>();
  private running = false;
  private readonly runs = new Set<Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly log: Log,
  ) {}

  add(job: LeasedJob): void {
    this.remove(job.key);
    const entry: { job: LeasedJob; timer?: NodeJS.Timeout } = { job };
    this.jobs.set(job.key, entry);
    if (this.running) this.arm(entry);
  }

  remove(key: string): void {
    const entry = this.jobs.get(key);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.jobs.delete(key);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    for (const entry of this.jobs.values()) this.arm(entry);
  }

  /** Stops the timers; waits for the ticks being run here. */
  async stop(): Promise<void> {
    this.running = false;
    for (const entry of this.jobs.values()) clearTimeout(entry.timer);
    await Promise.all(this.runs);
  }

  private arm(entry: { job: LeasedJob; timer?: NodeJS.Timeout }, after = Date.now()): void {
    clearTimeout(entry.timer);
    const next = entry.job.next(new Date(after));
    if (!next) return;
    const tick = next.getTime();
    const wait = tick - Date.now();
    entry.timer =
      wait > LONGEST_TIMER
        ? setTimeout(() => this.arm(entry, after), LONGEST_TIMER)
        : setTimeout(() => this.fire(entry, tick), Math.max(0, wait));
    entry.timer.unref?.();
  }

  private fire(entry: { job: LeasedJob; timer?: NodeJS.Timeout }, tick: number): void {
    if (!this.running || this.jobs.get(entry.job.key) !== entry) return;
    // The next tick is armed before this one runs: a long task does not hold the schedule back.
    this.arm(entry, Math.max(Date.now(), tick));
    const run = this.tick(entry.job, tick).finally(() => this.runs.delete(run));
    this.runs.add(run);
  }

  private async tick(job: LeasedJob, tick: number): Promise<void> {
    try {
      if (job.due && !(await job.due())) return;
      const following = job.next(new Date(tick))?.getTime() ?? NEVER;
      if (!(await this.claim(job.key, tick, following))) return;
      await job.run(new Date(tick));
    } catch (error) {
      this.log(`Cron job "${job.key}" failed`, error);
    }
  }

  /** Moves the lease of `key` from at most `tick` to `following`; true when this node did. */
  async claim(key: string, tick: number, following: number): Promise<boolean> {
    const leases = shaped<CronLeaseRow>(this.database.db);
    const move = async () => {
      const result = await leases
        .updateTable(CRON_TABLE)
        .set({ next_at: following, last_run_at: Date.now() })
        .where('name', '=', key)
        .where('next_at', '<=', tick)
        .modifyEnd(BACKGROUND)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    };
    if (await move()) return true;
    if (
      await leases.selectFrom(CRON_TABLE).select('id').where('name', '=', key).modifyEnd(BACKGROUND).executeTakeFirst()
    )
      return false;
    try {
      await leases
        .insertInto(CRON_TABLE)
        .values({ name: key, next_at: following, last_run_at: Date.now() })
        .modifyEnd(BACKGROUND)
        .execute();
      return true;
    } catch (error) {
      // Another node made the row first, for this tick or an earlier one.
      if (this.database.dialect.classifyError(error)?.kind !== 'unique') throw error;
      return move();
    }
  }
}

/** Ticks every `interval` ms, at multiples of it since 1970 (the same ticks on every node). */
export const every =
  (interval: number) =>
  (after: Date): Date =>
    new Date((Math.floor(after.getTime() / interval) + 1) * interval);

type TaskFunction = (context: { strapi: unknown }, tick?: Date) => unknown;

/** A task's schedule as Strapi takes it: a rule, a date, or `{ rule, tz, start, end }`. */
export type CronOptions =
  string | Date | { rule: string | Date; tz?: string; start?: string | Date; end?: string | Date };

export interface CronJobInfo {
  name: string | null;
  options: CronOptions;
  /** croner's job: `nextRun()`, `nextRuns(n)`, ... (paused: the scheduler runs it). */
  job: Cron;
}

interface ParsedTask {
  name: string | null;
  key: string;
  options: CronOptions;
  cron: Cron;
  fn: TaskFunction;
}

/** Where bad tasks are reported: a start-up error naming the file and key, or a plain error for `strapi.cron.add`. */
type Fail = (key: string, message: string) => never;

function croner(options: unknown, key: string, fail: Fail): Cron {
  let rule: unknown = options;
  let settings: { timezone?: string; startAt?: string | Date; stopAt?: string | Date } = {};
  if (isPlainObject(options) && !(options instanceof Date)) {
    const { rule: inner, tz, start, end } = options;
    rule = inner;
    if (tz !== undefined && typeof tz !== 'string')
      fail(key, 'options.tz must be a time zone name such as Europe/Paris');
    settings = {
      timezone: tz as string | undefined,
      startAt: start as string | Date | undefined,
      stopAt: end as string | Date | undefined,
    };
  }
  if (typeof rule !== 'string' && !(rule instanceof Date))
    fail(key, 'options must be a cron rule, a date or { rule, tz }');
  try {
    const cron = new Cron(rule as string | Date, { ...settings, paused: true });
    cron.nextRun();
    return cron;
  } catch (error) {
    return fail(
      key,
      `invalid cron rule ${JSON.stringify(rule instanceof Date ? rule.toISOString() : rule)}${settings.timezone ? ` in time zone ${settings.timezone}` : ''}: ${(error as Error).message}`,
    );
  }
}

/** Strapi's task map, each task checked (a function, a valid rule and time zone). */
function parseTasks(tasks: unknown, fail: Fail): ParsedTask[] {
  if (tasks === undefined || tasks === null) return [];
  if (!isPlainObject(tasks)) fail('', 'cron tasks must be an object of tasks');
  return Object.entries(tasks).map(([key, value]) => {
    if (typeof value === 'function') {
      const fn = value.bind(tasks) as TaskFunction;
      // A task named by its rule: keyed by the rule and its code, the same on every node.
      const digest = createHash('sha1').update(String(value)).digest('hex').slice(0, 12);
      return { name: null, key: `cron:${key}#${digest}`, options: key, cron: croner(key, key, fail), fn };
    }
    if (isPlainObject(value) && typeof value.task === 'function') {
      const options = value.options as CronOptions;
      return {
        name: key,
        key: `cron:${key}`,
        options,
        cron: croner(options, key, fail),
        fn: (value.task as TaskFunction).bind(value),
      };
    }
    return fail(key, 'no function found: a task is a function keyed by its rule, or { task, options }');
  });
}

/** Reports bad tasks of `config/server` (`cron.tasks`) as a start-up error naming the file and key. */
export const configFail =
  (file: string): Fail =>
  (key, message) => {
    throw new ProjectError(`cron.tasks${key ? `[${JSON.stringify(key)}]` : ''}: ${message}`, file);
  };

const addFail: Fail = (key, message) => {
  throw new Error(`Could not schedule a cron job${key ? ` for "${key}"` : ''}: ${message}`);
};

/**
 * `strapi.cron`: the project's jobs. They are kept until the node runs (`start`, after bootstrap),
 * then handed to the lease scheduler; `stop` pauses them on this node.
 */
export class CronService {
  private readonly tasks = new Map<string, ParsedTask>();
  private scheduler?: LeaseScheduler;
  private running = false;
  private context: { strapi: unknown } = { strapi: undefined };

  constructor(private readonly log: Log) {}

  /** Adds tasks in Strapi's shapes; a bad one throws (naming it) and adds nothing. */
  add(tasks: unknown, fail: Fail = addFail): this {
    for (const task of parseTasks(tasks, fail)) {
      this.tasks.set(task.key, task);
      if (this.running) this.scheduler?.add(this.leased(task));
    }
    return this;
  }

  /** Removes the tasks of that name (Strapi: named tasks only). */
  remove(name: string): this {
    if (!name) throw new Error('You must provide a name to remove a cron job.');
    for (const [key, task] of this.tasks) {
      if (task.name !== name) continue;
      this.tasks.delete(key);
      this.scheduler?.remove(key);
    }
    return this;
  }

  get jobs(): CronJobInfo[] {
    return [...this.tasks.values()].map((task) => ({ name: task.name, options: task.options, job: task.cron }));
  }

  /** Runs the tasks on `scheduler` from now on (the node has started). */
  attach(scheduler: LeaseScheduler, context: { strapi: unknown }): void {
    this.scheduler = scheduler;
    this.context = context;
  }

  start(): this {
    if (this.running || !this.scheduler) return this;
    this.running = true;
    for (const task of this.tasks.values()) this.scheduler.add(this.leased(task));
    return this;
  }

  stop(): this {
    this.running = false;
    for (const key of this.tasks.keys()) this.scheduler?.remove(key);
    return this;
  }

  destroy(): this {
    this.stop();
    this.tasks.clear();
    return this;
  }

  private leased(task: ParsedTask): LeasedJob {
    return {
      key: task.key,
      next: (after) => task.cron.nextRun(after),
      run: async (tick) => {
        try {
          await task.fn(this.context, tick);
        } catch (error) {
          this.log(`Cron job "${task.name ?? String(task.options)}" failed`, error);
        }
      },
    };
  }

  /** What project code sees as `strapi.cron`. */
  api(): Record<string, unknown> {
    const api: Record<string, unknown> = {
      add: (tasks: unknown) => (this.add(tasks), api),
      remove: (name: string) => (this.remove(name), api),
      start: () => (this.start(), api),
      stop: () => (this.stop(), api),
      destroy: () => (this.destroy(), api),
    };
    Object.defineProperty(api, 'jobs', { enumerable: true, get: () => this.jobs });
    return api;
  }
}
