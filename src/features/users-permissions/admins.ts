/**
 * Administrators of a Vellum node: created at install time (`vellum admin create`), they log in to
 * the admin API under `/admin/` with a JWT of their own. Content API credentials never work there.
 */
import type { Database } from '../../core/database/connection.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import {
  ApplicationError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
  type FieldError,
} from '../../core/errors.js';
import type { AuthConfig } from './config.js';
import { bearerToken, type JwtSigner } from './jwt.js';
import type { TableModel } from '../../core/documents/engine/table.js';
import { ADMINS_TABLE } from './model.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { Throttle } from './throttle.js';
import { normalizeEmail } from './users.js';

const MIN_PASSWORD = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface AdminInfo {
  id: number;
  email: string;
  createdAt: string | null;
}

const fieldError = (field: string, message: string): FieldError => ({
  path: [field],
  message,
  name: 'ValidationError',
});

/** The password rule of administrators, as a field error (never repeating the password). */
function passwordProblem(password: unknown, field = 'password'): FieldError | undefined {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD || Buffer.byteLength(password) > 72) {
    return fieldError(field, `The password needs ${MIN_PASSWORD} to 72 characters`);
  }
  return undefined;
}

/** A bigint column: a string on PostgreSQL, a number elsewhere. */
const seconds = (value: number | string | null | undefined): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

/**
 * The second through which an administrator's tokens are refused (their last password change),
 * for the admin signer: a token signed after it carries a later `iat`, even in the same second.
 */
export async function adminRevokedThrough(database: Database, id: number): Promise<number | undefined> {
  const row = await database.system
    .selectFrom(ADMINS_TABLE)
    .select('revoked_through')
    .where('id', '=', id)
    .executeTakeFirst();
  return seconds(row?.revoked_through);
}

export class Admins {
  /** Failed logins per email and client address. */
  private readonly throttle: Throttle;

  constructor(
    private readonly database: Database,
    private readonly jwt: JwtSigner,
    config: AuthConfig,
  ) {
    this.throttle = new Throttle(database, config.adminLoginLimit, 'admin-login');
  }

  /** Whether any administrator exists (`GET /admin/init`'s `hasAdmin`). */
  async any(): Promise<boolean> {
    return (await this.database.system.selectFrom(ADMINS_TABLE).select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * The first administrator (`POST /admin/register-admin`), refused once one exists: the check is
   * in the write, so of two concurrent registrations one is the first and the other is refused.
   */
  async registerFirst(email: string, password: string): Promise<{ id: number; token: string }> {
    const hash = await hashPassword(password);
    const { dialect } = this.database;
    // Under the database's schema lock: with two at once and no administrator yet, a transaction's
    // check alone lets both insert (read committed on PostgreSQL and MySQL; the test caught it).
    const id = await dialect.withSchemaLock(this.database.db, async (db) => {
      const trx = db as unknown as SystemDb;
      if (await trx.selectFrom(ADMINS_TABLE).select('id').limit(1).executeTakeFirst())
        throw new ApplicationError('You cannot register a new super admin');
      return dialect.insertReturningId(db, ADMINS_TABLE, {
        email,
        password: hash,
        created_at: dialect.encode('datetime', new Date()),
      });
    });
    return { id, token: await this.jwt.sign(id) };
  }

  async create(emailInput: unknown, password: unknown): Promise<{ id: number; email: string }> {
    const email = normalizeEmail(typeof emailInput === 'string' ? emailInput : '');
    const errors: FieldError[] = [];
    if (!EMAIL.test(email)) errors.push(fieldError('email', 'A valid email is required'));
    const weak = passwordProblem(password);
    if (weak) errors.push(weak);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const { dialect } = this.database;
    const hash = await hashPassword(password as string);
    // In one write: a concurrent creation of the same email is answered as a sequential one is.
    const id = await this.database.write(async (trx: SystemDb) => {
      const taken = await trx.selectFrom(ADMINS_TABLE).select('id').where('email', '=', email).executeTakeFirst();
      if (taken)
        throw ValidationError.fromFieldErrors([fieldError('email', `An administrator ${email} already exists`)]);
      return dialect.insertReturningId(trx, ADMINS_TABLE, {
        email,
        password: hash,
        created_at: dialect.encode('datetime', new Date()),
      });
    });
    return { id, email };
  }

  /** Every administrator, oldest first (never their password hashes). */
  async list(): Promise<AdminInfo[]> {
    const rows = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'email', 'created_at'])
      .orderBy('id')
      .execute();
    return rows.map((row) => this.info(row));
  }

  /** One administrator, or a 404. */
  async get(id: number): Promise<AdminInfo> {
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'email', 'created_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No such administrator');
    return this.info(row);
  }

  /**
   * Removes an administrator: never oneself (`self`, the one asking), never the last one. The
   * rows are locked first and counted again after: two administrators removing each other at
   * once leave one (the second waits for the first, then counts what it committed).
   */
  async remove(id: number, self: number): Promise<AdminInfo> {
    if (id === self) throw new ApplicationError('You cannot delete your own administrator account');
    const { dialect } = this.database;
    return this.database.write(async (trx: SystemDb) => {
      const ids = (await trx.selectFrom(ADMINS_TABLE).select('id').execute()).map((row) => row.id);
      if (ids.length) await dialect.lockRows(trx, ADMINS_TABLE, 'id', ids);
      const rows = await trx.selectFrom(ADMINS_TABLE).select(['id', 'email', 'created_at']).orderBy('id').execute();
      const target = rows.find((row) => row.id === id);
      if (!target) throw new NotFoundError('No such administrator');
      if (rows.length <= 1) throw new ApplicationError('The last administrator cannot be deleted');
      await trx.deleteFrom(ADMINS_TABLE).where('id', '=', id).execute();
      return this.info(target);
    });
  }

  /**
   * An administrator changes their own password, proving the current one first. Their tokens
   * issued until now are refused from then on (another browser, a token that leaked); the answer
   * is a new token for the session that asked.
   */
  async changePassword(id: number, current: unknown, next: unknown): Promise<string> {
    const errors: FieldError[] = [];
    if (typeof current !== 'string' || current === '')
      errors.push(fieldError('currentPassword', 'The current password is required'));
    const weak = passwordProblem(next);
    if (weak) errors.push(weak);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select('password')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No such administrator');
    if (!(await verifyPassword(current as string, row.password)))
      throw ValidationError.fromFieldErrors([fieldError('currentPassword', 'The current password is not correct')]);
    const hash = await hashPassword(next as string);
    const now = Math.floor(Date.now() / 1000);
    await this.database.write((trx: SystemDb) =>
      trx.updateTable(ADMINS_TABLE).set({ password: hash, revoked_through: now }).where('id', '=', id).execute(),
    );
    return this.jwt.sign(id);
  }

  async login(emailInput: unknown, password: unknown, clientIp: string): Promise<string> {
    if (typeof emailInput !== 'string' || typeof password !== 'string')
      throw new ValidationError('email and password are required');
    const email = normalizeEmail(emailInput);
    const attempt = [email, clientIp];
    await this.throttle.hit(attempt);
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'password'])
      .where('email', '=', email)
      .executeTakeFirst();
    const ok = await verifyPassword(password, row?.password);
    if (!row || !ok) throw new ValidationError('Invalid email or password');
    await this.throttle.reset(attempt);
    return this.jwt.sign(row.id);
  }

  /** The administrator behind an admin JWT; 401 otherwise (content API tokens included). */
  async authenticate(authorization: string | string[] | undefined): Promise<number> {
    const token = bearerToken(authorization);
    if (!token) throw new UnauthorizedError('Missing credentials: log in at /admin/login');
    const { id, issuedAt } = await this.jwt.verifyIssued(token);
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'revoked_through'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new UnauthorizedError('Invalid credentials');
    // Issued before the administrator's password last changed: no longer valid.
    const revoked = seconds(row.revoked_through);
    if (revoked !== undefined && (issuedAt === undefined || issuedAt <= revoked))
      throw new UnauthorizedError('Invalid credentials');
    return id;
  }

  private info(row: { id: number; email: string; created_at: unknown }): AdminInfo {
    return {
      id: row.id,
      email: row.email,
      createdAt: this.database.dialect.decode('datetime', row.created_at) as string | null,
    };
  }
}

export const ADMIN_USER_UID = 'admin::user';

/**
 * `strapi.db.query('admin::user')`: Vellum's administrators as Strapi's admin users, read-only
 * (administrators are made with `vellum admin create` and the admin API). The password is the
 * bcrypt hash, as Strapi's query engine answers it; the fields Vellum does not keep answer what a
 * fresh, active Strapi administrator has, and every administrator is a super admin (Vellum's are).
 */
export const adminUserModel: TableModel = {
  uid: ADMIN_USER_UID,
  table: ADMINS_TABLE,
  fields: [
    { name: 'email', column: 'email', type: 'email' },
    { name: 'password', column: 'password', type: 'string' },
    { name: 'createdAt', column: 'created_at', type: 'datetime' },
    { name: 'updatedAt', column: 'created_at', type: 'datetime' },
    { name: 'publishedAt', column: 'created_at', type: 'datetime' },
  ],
  constants: {
    firstname: null,
    lastname: null,
    username: null,
    resetPasswordToken: null,
    resetPasswordTokenExpiresAt: null,
    registrationToken: null,
    isActive: true,
    blocked: false,
    preferedLanguage: null,
    locale: null,
  },
  populates: {
    roles: [
      {
        id: 1,
        name: 'Super Admin',
        code: 'strapi-super-admin',
        description: 'Super Admins can access and manage all features and settings.',
      },
    ],
  },
  readOnly: 'admin::user is read-only in Vellum: administrators are made with `vellum admin create` and the admin API',
};
