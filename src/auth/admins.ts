/**
 * Administrators of a Vellum node: created at install time (`vellum admin create`), they log in to
 * the admin API under `/admin/` with a JWT of their own. Content API credentials never work there.
 */
import type { Database } from '../database/connection.js';
import type { SystemDb } from '../database/system-tables.js';
import { UnauthorizedError, ValidationError } from '../errors.js';
import type { AuthConfig } from './config.js';
import { bearerToken, type JwtSigner } from './jwt.js';
import { ADMINS_TABLE } from './model.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { Throttle } from './throttle.js';
import { normalizeEmail } from './users.js';

const MIN_PASSWORD = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class Admins {
  /** Failed logins per email and client address. */
  private readonly throttle: Throttle;

  constructor(
    private readonly database: Database,
    private readonly jwt: JwtSigner,
    config: AuthConfig,
  ) {
    this.throttle = new Throttle(database, config.loginLimit, 'admin-login');
  }

  async create(emailInput: string, password: string): Promise<{ id: number; email: string }> {
    const email = normalizeEmail(emailInput ?? '');
    if (!EMAIL.test(email)) throw new ValidationError('A valid email is required');
    if (typeof password !== 'string' || password.length < MIN_PASSWORD || Buffer.byteLength(password) > 72) {
      throw new ValidationError(`The password needs ${MIN_PASSWORD} to 72 characters`);
    }
    const { dialect } = this.database;
    const hash = await hashPassword(password);
    // In one write: a concurrent creation of the same email is answered as a sequential one is.
    const id = await this.database.write(async (trx: SystemDb) => {
      const taken = await trx.selectFrom(ADMINS_TABLE).select('id').where('email', '=', email).executeTakeFirst();
      if (taken) throw new ValidationError(`An administrator ${email} already exists`);
      return dialect.insertReturningId(trx, ADMINS_TABLE, { email, password: hash, created_at: dialect.encode('datetime', new Date()) });
    });
    return { id, email };
  }

  async login(emailInput: unknown, password: unknown, clientIp: string): Promise<string> {
    if (typeof emailInput !== 'string' || typeof password !== 'string') throw new ValidationError('email and password are required');
    const email = normalizeEmail(emailInput);
    const attempt = [email, clientIp];
    await this.throttle.hit(attempt);
    const row = await this.database.system.selectFrom(ADMINS_TABLE).select(['id', 'password']).where('email', '=', email).executeTakeFirst();
    const ok = await verifyPassword(password, row?.password);
    if (!row || !ok) throw new ValidationError('Invalid email or password');
    await this.throttle.reset(attempt);
    return this.jwt.sign(row.id);
  }

  /** The administrator behind an admin JWT; 401 otherwise (content API tokens included). */
  async authenticate(authorization: string | string[] | undefined): Promise<number> {
    const token = bearerToken(authorization);
    if (!token) throw new UnauthorizedError('Missing credentials: log in at /admin/login');
    const id = await this.jwt.verify(token);
    const row = await this.database.system.selectFrom(ADMINS_TABLE).select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw new UnauthorizedError('Invalid credentials');
    return id;
  }
}
