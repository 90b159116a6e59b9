/**
 * Failed logins per key (client and identifier), counted in the database so every node shares
 * the count: past `attempts` failures within `windowSeconds`, further tries answer 429.
 */
import type { Database } from '../database/connection.js';
import { RateLimitError } from '../errors.js';
import { LOGIN_FAILURES_TABLE } from './model.js';

export class LoginThrottle {
  constructor(
    private readonly database: Database,
    private readonly attempts: number,
    private readonly windowSeconds: number,
  ) {}

  private windowStart(): unknown {
    return this.database.dialect.encode('datetime', new Date(Date.now() - this.windowSeconds * 1000));
  }

  /** 429 when `key` has used up its failures. */
  async check(key: string): Promise<void> {
    const row = await this.database.system
      .selectFrom(LOGIN_FAILURES_TABLE)
      .select((eb) => eb.fn.countAll().as('failures'))
      .where('key', '=', key)
      .where('failed_at', '>', this.windowStart())
      .executeTakeFirst();
    if (Number(row?.failures ?? 0) >= this.attempts) throw new RateLimitError();
  }

  async fail(key: string): Promise<void> {
    const { system: db, dialect } = this.database;
    await db.deleteFrom(LOGIN_FAILURES_TABLE).where('failed_at', '<=', this.windowStart()).execute();
    await db.insertInto(LOGIN_FAILURES_TABLE).values({ key, failed_at: dialect.encode('datetime', new Date()) }).execute();
  }

  async succeed(key: string): Promise<void> {
    await this.database.system.deleteFrom(LOGIN_FAILURES_TABLE).where('key', '=', key).execute();
  }
}
