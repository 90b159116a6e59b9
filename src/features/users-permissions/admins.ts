/**
 * Administrators of a Vellum node: created at install time (`vellum admin create`), they log in to
 * the admin API under `/admin/` with a JWT of their own. Content API credentials never work there.
 */
import type { Passwords } from '../../core/passwords.js';
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
import { recordAudit, type Audited, type AuditTrail } from '../../core/documents/service.js';
import type { Db } from '../../core/database/dialect.js';
import { createDocumentId } from '../../core/documents/document-id.js';
import { createHash, randomBytes } from 'node:crypto';
import type { AdminRoles, RoleSummary } from '../admin-roles/index.js';
import { ADMIN_SESSIONS_TABLE, ADMINS_TABLE } from './model.js';
import { AdminSessions, type AdminSessionTokens } from './admin-sessions.js';
import { renderTemplate, type EmailService } from '../email/index.js';
import { Throttle } from './throttle.js';
import { normalizeEmail } from './users.js';

const MIN_PASSWORD = 8;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An administrator as Strapi's admin API answers one (never their password nor codes). */
export interface AdminInfo {
  id: number;
  documentId: string | null;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  email: string;
  isActive: boolean;
  blocked: boolean;
  preferedLanguage: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  publishedAt: string | null;
  locale: null;
  roles: RoleSummary[];
}

/** The profile fields an administrator's row keeps beside email and password. */
export interface AdminProfile {
  firstname?: string | null;
  lastname?: string | null;
  username?: string | null;
  preferedLanguage?: string | null;
}

const INFO_COLUMNS = [
  'id',
  'document_id',
  'firstname',
  'lastname',
  'username',
  'email',
  'is_active',
  'blocked',
  'prefered_language',
  'created_at',
  'updated_at',
] as const;

/** Invitation codes are kept hashed: a database read gives no way in. */
type InfoRow = { id: number; email: string; created_at: unknown } & Partial<
  Record<Exclude<(typeof INFO_COLUMNS)[number], 'id' | 'email' | 'created_at'>, unknown>
>;

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

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
/**
 * The revocation second a password change writes: now, or the second after the previous one when
 * that is later (two changes within a second: tokens issued between them carry the previous
 * revocation's second plus one, and must end with the second change too).
 */
function nextRevocation(previous: number | string | null | undefined): number {
  return Math.max(Math.floor(Date.now() / 1000), (seconds(previous) ?? 0) + 1);
}

export async function adminRevokedThrough(database: Database, id: number): Promise<number | undefined> {
  const row = await database.system
    .selectFrom(ADMINS_TABLE)
    .select('revoked_through')
    .where('id', '=', id)
    .executeTakeFirst();
  return seconds(row?.revoked_through);
}

/** How a sign-in's session starts (`rememberMe`, `deviceId` of Strapi's login body; the browser's name). */
export interface SignInOptions {
  rememberMe?: boolean;
  deviceId?: string;
  deviceName?: string;
}

export class Admins {
  /** Failed logins per email and client address. */
  private readonly throttle: Throttle;
  /** Their sign-ins: refresh cookies and access tokens (admin-sessions.ts). */
  readonly sessions: AdminSessions;

  constructor(
    private readonly database: Database,
    private readonly jwt: JwtSigner,
    private readonly config: AuthConfig,
    private readonly roles: AdminRoles,
    private readonly passwords: Passwords,
    /** What sends the forgotten-password email (absent in the CLI, which sends nothing). */
    private readonly mail: { email?: EmailService; adminUrl: () => string; log?: (message: string) => void } = {
      adminUrl: () => 'http://localhost:1337/admin',
    },
  ) {
    this.throttle = new Throttle(database, config.adminLoginLimit, 'admin-login');
    this.sessions = new AdminSessions(database, jwt, config.admin.sessions, (id) => this.active(id));
  }

  /** Whether the administrator exists and is active (a session may go on). */
  private async active(id: number): Promise<boolean> {
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'is_active'])
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined && !this.inactive(row.is_active);
  }

  /** A session for an administrator who just proved who they are (login, registration, reset). */
  signIn(id: number, options: SignInOptions = {}): Promise<AdminSessionTokens> {
    return this.sessions.start(id, options);
  }

  /** Whether any administrator exists (`GET /admin/init`'s `hasAdmin`). */
  async any(): Promise<boolean> {
    return (await this.database.system.selectFrom(ADMINS_TABLE).select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /**
   * The first administrator (`POST /admin/register-admin`), refused once one exists: the check is
   * in the write, so of two concurrent registrations one is the first and the other is refused.
   */
  async registerFirst(
    email: string,
    password: string,
    profile: AdminProfile = {},
    trail?: AuditTrail,
  ): Promise<{ id: number }> {
    const hash = await this.passwords.hash(password);
    const { dialect } = this.database;
    // Under the database's schema lock: with two at once and no administrator yet, a transaction's
    // check alone lets both insert (read committed on PostgreSQL and MySQL; the test caught it).
    const id = await dialect.withSchemaLock(this.database.db, async (db) => {
      const trx = db as unknown as SystemDb;
      if (await trx.selectFrom(ADMINS_TABLE).select('id').limit(1).executeTakeFirst())
        throw new ApplicationError('You cannot register a new super admin');
      const id = await dialect.insertReturningId(db, ADMINS_TABLE, this.newRow(email, hash, profile));
      await this.roles.makeSuperAdmin(db, id);
      // The first administrator made themselves.
      await trail?.record(db, { action: 'user.create', actor: id, subject: String(id), details: { email } });
      return id;
    });
    return { id };
  }

  async create(emailInput: unknown, password: unknown, audited?: Audited): Promise<{ id: number; email: string }> {
    const email = normalizeEmail(typeof emailInput === 'string' ? emailInput : '');
    const errors: FieldError[] = [];
    if (!EMAIL.test(email)) errors.push(fieldError('email', 'A valid email is required'));
    const weak = passwordProblem(password);
    if (weak) errors.push(weak);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const { dialect } = this.database;
    const hash = await this.passwords.hash(password as string);
    // In one write: a concurrent creation of the same email is answered as a sequential one is.
    const id = await this.database.write(async (trx: SystemDb) => {
      const taken = await trx.selectFrom(ADMINS_TABLE).select('id').where('email', '=', email).executeTakeFirst();
      if (taken)
        throw ValidationError.fromFieldErrors([fieldError('email', `An administrator ${email} already exists`)]);
      const id = await dialect.insertReturningId(trx, ADMINS_TABLE, this.newRow(email, hash, {}));
      // `vellum admin create` makes a Super Admin, as Strapi's `admin:create-user`.
      await this.roles.makeSuperAdmin(trx as unknown as Db, id);
      await recordAudit(trx, audited, { action: 'user.create', subject: String(id), details: { email } });
      return id;
    });
    return { id, email };
  }

  /** A new administrator's row (the first, or one made by the CLI): active, not blocked. */
  private newRow(email: string, hash: string, profile: AdminProfile): Record<string, unknown> {
    const { dialect } = this.database;
    const now = dialect.encode('datetime', new Date());
    return {
      email,
      password: hash,
      document_id: createDocumentId(),
      firstname: profile.firstname ?? null,
      lastname: profile.lastname ?? null,
      username: profile.username ?? null,
      prefered_language: profile.preferedLanguage ?? null,
      is_active: dialect.encode('boolean', true),
      blocked: dialect.encode('boolean', false),
      created_at: now,
      updated_at: now,
      published_at: now,
    };
  }

  /** Every administrator, oldest first (never their password hashes). */
  async list(): Promise<AdminInfo[]> {
    const rows = await this.database.system.selectFrom(ADMINS_TABLE).select(INFO_COLUMNS).orderBy('id').execute();
    return this.infos(rows);
  }

  /**
   * A page of administrators (`GET /admin/users`), searched by `_q` in names and email, sorted by
   * one column (`sort=email:asc`; default id): two statements and one for their roles.
   */
  async page(query: { page?: unknown; pageSize?: unknown; _q?: unknown; sort?: unknown }) {
    const page = Math.max(1, Number.parseInt(String(query.page ?? 1), 10) || 1);
    const pageSize = Math.min(100, Math.max(1, Number.parseInt(String(query.pageSize ?? 10), 10) || 10));
    const sortable: Record<string, (typeof INFO_COLUMNS)[number]> = {
      id: 'id',
      email: 'email',
      firstname: 'firstname',
      lastname: 'lastname',
      username: 'username',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      isActive: 'is_active',
    };
    const [sortField, sortOrder] = typeof query.sort === 'string' ? query.sort.split(':') : ['id', 'asc'];
    const column = sortable[sortField ?? 'id'];
    if (!column)
      throw new ValidationError(`Invalid sort: ${String(query.sort)} (one of ${Object.keys(sortable).join(', ')})`);
    const direction = (sortOrder ?? 'asc').toLowerCase() === 'desc' ? 'desc' : 'asc';
    const search = typeof query._q === 'string' && query._q !== '' ? `%${query._q.toLowerCase()}%` : undefined;
    const base = () => {
      const select = this.database.system.selectFrom(ADMINS_TABLE);
      return search === undefined
        ? select
        : select.where((eb) =>
            eb.or([
              eb(eb.fn('lower', ['email']), 'like', search),
              eb(eb.fn('lower', ['firstname']), 'like', search),
              eb(eb.fn('lower', ['lastname']), 'like', search),
              eb(eb.fn('lower', ['username']), 'like', search),
            ]),
          );
    };
    const rows = await base()
      .select(INFO_COLUMNS)
      .orderBy(column, direction)
      .orderBy('id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const total = Number(
      (
        await base()
          .select((eb) => eb.fn.countAll<number | string>().as('total'))
          .executeTakeFirst()
      )?.total ?? 0,
    );
    return {
      results: await this.infos(rows),
      pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total },
    };
  }

  /** One administrator, or a 404. */
  async get(id: number): Promise<AdminInfo> {
    const found = await this.find(id);
    if (!found) throw new NotFoundError('No such administrator');
    return found;
  }

  /** One administrator, or undefined. */
  async find(id: number): Promise<AdminInfo | undefined> {
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(INFO_COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? (await this.infos([row]))[0] : undefined;
  }

  /** Whether `password` is the administrator's (an update of their own password proves the current one). */
  async verifyPassword(id: number, password: unknown): Promise<boolean> {
    if (typeof password !== 'string' || password === '') return false;
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select('password')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined && row.password !== '' && (await this.passwords.verify(password, row.password));
  }

  /** Whether an administrator other than `except` has this email. */
  async emailTaken(email: string, except?: number): Promise<boolean> {
    let query = this.database.system.selectFrom(ADMINS_TABLE).select('id').where('email', '=', email);
    if (except !== undefined) query = query.where('id', '!=', except);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /**
   * Invites an administrator (`POST /admin/users`): inactive, with roles, and a registration code
   * to send them (answered once; kept hashed) with which they choose their password.
   */
  async invite(
    input: {
      email: string;
      firstname: string;
      lastname?: string | null;
      roles: number[];
      preferedLanguage?: string | null;
    },
    audited?: Audited,
  ): Promise<{ admin: AdminInfo; registrationToken: string }> {
    const { dialect } = this.database;
    const registrationToken = randomBytes(20).toString('hex');
    const id = await this.database.write(async (trx: SystemDb) => {
      if (await trx.selectFrom(ADMINS_TABLE).select('id').where('email', '=', input.email).executeTakeFirst())
        throw new ApplicationError('Email already taken');
      const now = dialect.encode('datetime', new Date());
      const id = await dialect.insertReturningId(trx, ADMINS_TABLE, {
        email: input.email,
        password: '',
        document_id: createDocumentId(),
        firstname: input.firstname,
        lastname: input.lastname ?? null,
        prefered_language: input.preferedLanguage ?? null,
        is_active: dialect.encode('boolean', false),
        blocked: dialect.encode('boolean', false),
        registration_token: hashCode(registrationToken),
        created_at: now,
        updated_at: now,
        published_at: now,
      });
      await this.roles.setUserRoles(trx as unknown as Db, id, input.roles);
      await recordAudit(trx, audited, {
        action: 'user.create',
        subject: String(id),
        details: { email: input.email, roles: input.roles },
      });
      return id;
    });
    return { admin: await this.get(id), registrationToken };
  }

  /** Who an invitation is for (`GET /admin/registration-info`), or undefined. */
  async registrationInfo(
    code: string,
  ): Promise<{ email: string; firstname: string | null; lastname: string | null } | undefined> {
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['email', 'firstname', 'lastname'])
      .where('registration_token', '=', hashCode(code))
      .executeTakeFirst();
    return row ?? undefined;
  }

  /** An invited administrator registers (`POST /admin/register`): their password, names; active from then. */
  async register(code: string, password: string, profile: AdminProfile, trail?: AuditTrail): Promise<{ id: number }> {
    const { dialect } = this.database;
    const hash = await this.passwords.hash(password);
    const id = await this.database.write(async (trx: SystemDb) => {
      const row = await trx
        .selectFrom(ADMINS_TABLE)
        .select('id')
        .where('registration_token', '=', hashCode(code))
        .executeTakeFirst();
      if (!row) throw new ValidationError('Invalid registration info');
      await trx
        .updateTable(ADMINS_TABLE)
        .set({
          password: hash,
          ...(profile.firstname !== undefined ? { firstname: profile.firstname } : {}),
          ...(profile.lastname !== undefined ? { lastname: profile.lastname } : {}),
          registration_token: null,
          is_active: dialect.encode('boolean', true),
          updated_at: dialect.encode('datetime', new Date()),
        })
        .where('id', '=', row.id)
        .execute();
      // The invited administrator completes their own account.
      const changed = ['password', ...(['firstname', 'lastname'] as const).filter((key) => profile[key] !== undefined)];
      await trail?.record(trx, { action: 'user.update', actor: row.id, subject: String(row.id), changed });
      return row.id;
    });
    return { id };
  }

  /**
   * Updates an administrator (`PUT /admin/users/:id`, `PUT /admin/users/me`): profile, email,
   * password (their earlier tokens end), active state and roles. At least one active Super Admin
   * remains: the Super Admins are locked and counted again in the write, so two changes at once
   * cannot both remove the last.
   */
  async update(
    id: number,
    input: AdminProfile & { email?: string; password?: string; isActive?: boolean; roles?: number[] },
    audited?: Audited,
    /** The session that asked, kept when an administrator changes their own password. */
    keepSession?: string,
  ): Promise<AdminInfo> {
    const { dialect } = this.database;
    const hash = input.password === undefined ? undefined : await this.passwords.hash(input.password);
    await this.database.write(async (trx: SystemDb) => {
      const db = trx as unknown as Db;
      const row = (await trx.selectFrom(ADMINS_TABLE).selectAll().where('id', '=', id).executeTakeFirst()) as
        Record<string, unknown> | undefined;
      if (!row) throw new NotFoundError('User does not exist');
      if (input.roles !== undefined || input.isActive === false) {
        const superAdmins = await this.lockedSuperAdmins(db);
        const losesRole = input.roles !== undefined && !(await this.roles.includesSuperAdmin(db, input.roles));
        if (superAdmins.length === 1 && superAdmins[0] === id && (losesRole || input.isActive === false))
          throw new ValidationError('You must have at least one user with super admin role.');
      }
      if (
        input.email !== undefined &&
        (await trx
          .selectFrom(ADMINS_TABLE)
          .select('id')
          .where('email', '=', input.email)
          .where('id', '!=', id)
          .executeTakeFirst())
      )
        throw new ApplicationError('A user with this email address already exists');
      const changes: Record<string, unknown> = { updated_at: dialect.encode('datetime', new Date()) };
      if (input.email !== undefined) changes.email = input.email;
      if (input.firstname !== undefined) changes.firstname = input.firstname;
      if (input.lastname !== undefined) changes.lastname = input.lastname;
      if (input.username !== undefined) changes.username = input.username;
      if (input.preferedLanguage !== undefined) changes.prefered_language = input.preferedLanguage;
      if (input.isActive !== undefined) changes.is_active = dialect.encode('boolean', input.isActive);
      if (hash !== undefined) {
        changes.password = hash;
        changes.revoked_through = nextRevocation(row.revoked_through as number | string | null);
        // Their other sign-ins end: a browser left signed in, a cookie that leaked.
        await this.sessions.revoke(id, keepSession ? { except: keepSession } : {}, trx);
      }
      // Made inactive: every sign-in ends (the access layer refuses them already).
      if (input.isActive === false) await this.sessions.revoke(id, {}, trx);
      await trx.updateTable(ADMINS_TABLE).set(changes).where('id', '=', id).execute();
      if (input.roles !== undefined) await this.roles.setUserRoles(db, id, input.roles);
      if (audited) {
        // The fields whose values changed (the password and the roles whenever given), never their values.
        const before: Record<string, unknown> = {
          email: row.email,
          firstname: row.firstname,
          lastname: row.lastname,
          username: row.username,
          preferedLanguage: row.prefered_language,
          isActive: dialect.decode('boolean', row.is_active),
        };
        const changed = Object.keys(before).filter(
          (key) => input[key as keyof typeof input] !== undefined && input[key as keyof typeof input] !== before[key],
        );
        if (hash !== undefined) changed.push('password');
        if (input.roles !== undefined) changed.push('roles');
        await recordAudit(trx, audited, { action: 'user.update', subject: String(id), changed });
      }
    });
    return this.get(id);
  }

  /** The Super Admins, their rows locked for the rest of the write (PostgreSQL, MariaDB). */
  private async lockedSuperAdmins(db: Db): Promise<number[]> {
    const ids = await this.roles.superAdminIds(db);
    if (ids.length) await this.database.dialect.lockRows(db, ADMINS_TABLE, 'id', ids);
    return this.roles.superAdminIds(db);
  }

  /**
   * Removes administrators: never oneself (`self`, the one asking), never the last Super Admin
   * (Strapi's rules and words). The Super Admins are locked and counted again after, so two
   * removals at once leave one. Answers the removed.
   */
  async removeMany(ids: number[], self: number, audited?: Audited): Promise<AdminInfo[]> {
    const found = (await Promise.all(ids.map((id) => this.find(id)))).filter((a): a is AdminInfo => a !== undefined);
    await this.database.write(async (trx: SystemDb) => {
      const db = trx as unknown as Db;
      const superAdmins = await this.lockedSuperAdmins(db);
      const remaining = superAdmins.filter((id) => !ids.includes(id));
      if (superAdmins.length > 0 && remaining.length === 0)
        throw new ValidationError('You must have at least one user with super admin role.');
      // After that check, as Strapi's order of refusals (its own-user check never matches a path's text id).
      if (ids.includes(self)) throw new ApplicationError('You cannot delete your own user');
      for (const id of ids) {
        await this.roles.forgetUser(db, id);
        const gone = await trx.deleteFrom(ADMINS_TABLE).where('id', '=', id).executeTakeFirst();
        const email = found.find((admin) => admin.id === id)?.email;
        if (Number(gone.numDeletedRows) > 0)
          await recordAudit(trx, audited, {
            action: 'user.delete',
            subject: String(id),
            ...(email ? { details: { email } } : {}),
          });
      }
    });
    return found;
  }

  /** Removes one administrator (Vellum's `/admin/administrators/:id`): as removeMany, a 404 when unknown. */
  async remove(id: number, self: number, audited?: Audited): Promise<AdminInfo> {
    if (id === self) throw new ApplicationError('You cannot delete your own administrator account');
    const [removed] = await this.removeMany([id], self, audited);
    if (!removed) throw new NotFoundError('No such administrator');
    return removed;
  }

  /**
   * An administrator changes their own password, proving the current one first. Their tokens
   * issued until now are refused from then on (another browser, a token that leaked); the answer
   * is a new token for the session that asked.
   */
  async changePassword(
    id: number,
    current: unknown,
    next: unknown,
    audited?: Audited,
    session?: string,
  ): Promise<string> {
    const errors: FieldError[] = [];
    if (typeof current !== 'string' || current === '')
      errors.push(fieldError('currentPassword', 'The current password is required'));
    const weak = passwordProblem(next);
    if (weak) errors.push(weak);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['password', 'revoked_through'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('No such administrator');
    if (!(await this.passwords.verify(current as string, row.password)))
      throw ValidationError.fromFieldErrors([fieldError('currentPassword', 'The current password is not correct')]);
    const hash = await this.passwords.hash(next as string);
    const now = nextRevocation(row.revoked_through);
    await this.database.write(async (trx: SystemDb) => {
      await trx.updateTable(ADMINS_TABLE).set({ password: hash, revoked_through: now }).where('id', '=', id).execute();
      await this.sessions.revoke(id, session ? { except: session } : {}, trx);
      await recordAudit(trx, audited, { action: 'user.update', subject: String(id), changed: ['password'] });
    });
    // This session goes on; without one (a token of no session), a new one.
    return session ? this.sessions.accessTokenFor(id, session) : (await this.signIn(id)).accessToken;
  }

  /**
   * Checks an administrator's credentials (`POST /admin/login`), in Strapi's words: "Missing
   * credentials", "Invalid credentials", "User not active" (400s). With a trail, records
   * `admin.auth.success` (in a transaction of its own). Answers the administrator's id.
   */
  async login(emailInput: unknown, password: unknown, clientIp: string, trail?: AuditTrail): Promise<number> {
    if (typeof emailInput !== 'string' || emailInput === '' || typeof password !== 'string' || password === '')
      throw new ApplicationError('Missing credentials');
    const email = normalizeEmail(emailInput);
    const attempt = [email, clientIp];
    await this.throttle.hit(attempt);
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'password', 'is_active'])
      .where('email', '=', email)
      .executeTakeFirst();
    const ok = await this.passwords.verify(password, row?.password);
    if (!row || !ok) throw new ApplicationError('Invalid credentials');
    // Strapi's words for an administrator made inactive (`isActive: false`).
    if (this.inactive(row.is_active)) throw new ApplicationError('User not active');
    await this.throttle.reset(attempt);
    // At `passwords.rounds` when made at another cost (docs/security.md "Password hashing"),
    // unless the password changed meanwhile.
    this.passwords.rehashLater(password, row.password, (hash) =>
      this.database.write((trx: SystemDb) =>
        trx
          .updateTable(ADMINS_TABLE)
          .set({ password: hash })
          .where('id', '=', row.id)
          .where('password', '=', row.password)
          .execute(),
      ),
    );
    if (trail) await this.database.write((trx) => trail.record(trx, { action: 'admin.auth.success', actor: row.id }));
    return row.id;
  }

  /**
   * An administrator logs out (`POST /admin/logout`): their sessions end (a `deviceId`: that
   * device's only, as Strapi's); with a trail, recorded as `admin.logout`.
   */
  async logout(id: number, deviceId: unknown, trail?: AuditTrail): Promise<void> {
    const device = typeof deviceId === 'string' && deviceId.length > 0 ? deviceId : undefined;
    await this.database.write(async (trx: SystemDb) => {
      await this.sessions.revoke(id, device ? { deviceId: device } : {}, trx);
      await trail?.record(trx, { action: 'admin.logout', actor: id });
    });
  }

  /**
   * `POST /admin/forgot-password`: an active administrator with this email gets a single-use code
   * by email, valid `forgotPassword.expiresIn` (1 hour), replacing any earlier one. Whoever the email
   * belongs to, nothing tells it: the route answers 204 before sending.
   */
  async forgotPassword(emailInput: string): Promise<void> {
    const email = normalizeEmail(emailInput);
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'email', 'firstname', 'lastname', 'username', 'is_active', 'password'])
      .where('email', '=', email)
      .executeTakeFirst();
    // Strapi's: active administrators only (an invitation not yet taken has no password to reset;
    // administrators of earlier Vellums, no `is_active`, are active as everywhere else).
    if (!row || this.inactive(row.is_active) || !row.password) return;
    const code = randomBytes(20).toString('hex');
    const { forgotPassword } = this.config.admin;
    const { dialect } = this.database;
    await this.database.write((trx: SystemDb) =>
      trx
        .updateTable(ADMINS_TABLE)
        .set({
          reset_password_token: hashCode(code),
          reset_password_expires_at: dialect.encode('datetime', new Date(Date.now() + forgotPassword.expiresIn * 1000)),
        })
        .where('id', '=', row.id)
        .execute(),
    );
    const { email: mailer, adminUrl, log } = this.mail;
    if (!mailer) return;
    const url = `${adminUrl()}/auth/reset-password?code=${code}`;
    const user = { email: row.email, firstname: row.firstname, lastname: row.lastname, username: row.username };
    const template = forgotPassword.emailTemplate;
    // After answering (the route does not wait): a failure is told to the log, never to the caller.
    void mailer
      .send({
        to: row.email,
        from: forgotPassword.from,
        replyTo: forgotPassword.replyTo,
        subject: renderTemplate(template.subject, { url, user }),
        text: renderTemplate(template.text, { url, user }),
        html: renderTemplate(template.html, { url, user }, true),
      })
      .catch((error: unknown) =>
        (log ?? console.error)(
          `admin: the reset password email to administrator ${row.id} was not sent: ${(error as Error)?.message ?? error}`,
        ),
      );
  }

  /**
   * `POST /admin/reset-password`: the code's administrator gets the new password; the code is used
   * up, and every session of theirs ends (Strapi's). Strapi's 400s: an unknown code is an
   * ApplicationError without words, an expired one "This reset password token has expired".
   * The caller starts the new session.
   */
  async resetPassword(code: string, password: string, trail?: AuditTrail): Promise<number> {
    const { dialect } = this.database;
    const hash = await this.passwords.hash(password);
    return this.database
      .write(async (trx: SystemDb) => {
        const row = await trx
          .selectFrom(ADMINS_TABLE)
          .select(['id', 'is_active', 'reset_password_expires_at', 'revoked_through'])
          .where('reset_password_token', '=', hashCode(code))
          .executeTakeFirst();
        if (!row || this.inactive(row.is_active)) throw new ApplicationError('An application error occurred');
        const expires = row.reset_password_expires_at;
        if (expires === null || new Date(dialect.decode('datetime', expires) as string).getTime() <= Date.now()) {
          await trx
            .updateTable(ADMINS_TABLE)
            .set({ reset_password_token: null, reset_password_expires_at: null })
            .where('id', '=', row.id)
            .execute();
          // Committed with the refusal: the stale code cannot be retried (Strapi's GH#25711).
          return -1;
        }
        await trx
          .updateTable(ADMINS_TABLE)
          .set({
            password: hash,
            reset_password_token: null,
            reset_password_expires_at: null,
            revoked_through: nextRevocation(row.revoked_through),
            updated_at: dialect.encode('datetime', new Date()),
          })
          .where('id', '=', row.id)
          .execute();
        await this.sessions.revoke(row.id, {}, trx);
        await trail?.record(trx, {
          action: 'user.update',
          actor: row.id,
          subject: String(row.id),
          changed: ['password'],
        });
        return row.id;
      })
      .then((id) => {
        if (id === -1) throw new ApplicationError('This reset password token has expired');
        return id;
      });
  }

  /**
   * `vellum admin reset-password` (Strapi's `admin:reset-user-password`): sets an administrator's
   * password by email and ends their sessions; a clear error when there is no such administrator.
   */
  async setPasswordByEmail(emailInput: string, password: unknown, audited?: Audited): Promise<number> {
    const weak = passwordProblem(password);
    if (weak) throw new ValidationError(weak.message);
    const email = normalizeEmail(emailInput);
    const hash = await this.passwords.hash(password as string);
    return this.database.write(async (trx: SystemDb) => {
      const row = await trx
        .selectFrom(ADMINS_TABLE)
        .select(['id', 'revoked_through'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (!row) throw new NotFoundError(`No administrator has the email ${email}`);
      await trx
        .updateTable(ADMINS_TABLE)
        .set({
          password: hash,
          reset_password_token: null,
          reset_password_expires_at: null,
          revoked_through: nextRevocation(row.revoked_through),
          updated_at: this.database.dialect.encode('datetime', new Date()),
        })
        .where('id', '=', row.id)
        .execute();
      await this.sessions.revoke(row.id, {}, trx);
      await recordAudit(trx, audited, { action: 'user.update', subject: String(row.id), changed: ['password'] });
      return row.id;
    });
  }

  /** Whether a stored `is_active` says inactive (administrators of earlier Vellums have none: active). */
  private inactive(value: unknown): boolean {
    return value !== null && value !== undefined && this.database.dialect.decode('boolean', value) !== true;
  }

  /** The administrator behind an admin JWT; 401 otherwise (content API tokens included). */
  async authenticate(authorization: string | string[] | undefined): Promise<number> {
    return (await this.authenticateSession(authorization)).id;
  }

  /**
   * The administrator and session behind an admin access token, in one statement: refused (401)
   * once the session ended (log out, password change or reset), the administrator was deleted or
   * made inactive, or the token was issued before their password last changed.
   */
  async authenticateSession(authorization: string | string[] | undefined): Promise<{ id: number; sessionId: string }> {
    const token = bearerToken(authorization);
    // Strapi's words for every refusal here; Vellum's `reason` says which (docs/errors.md).
    if (!token) throw new UnauthorizedError(undefined, { reason: 'No administrator token: log in at /admin/login' });
    const { id, issuedAt, sessionId } = await this.jwt.verifyIssued(token);
    // Every administrator token names its session (tokens of earlier Vellums, none: sign in again).
    if (sessionId === undefined)
      throw new UnauthorizedError(undefined, { reason: 'A token of no session: log in again' });
    const now = this.database.dialect.encode('datetime', new Date());
    const row = await this.database.system
      .selectFrom(ADMINS_TABLE)
      .select(['id', 'revoked_through', 'is_active'])
      .where('id', '=', id)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom(ADMIN_SESSIONS_TABLE)
            .select('admin_sessions.id')
            .where('admin_sessions.session_id', '=', sessionId)
            .where('admin_sessions.admin_id', '=', id)
            .where('admin_sessions.absolute_expires_at', '>', now),
        ),
      )
      .executeTakeFirst();
    // Deleted, made inactive or signed out since: their tokens end with it, as Strapi's.
    if (!row || this.inactive(row.is_active))
      throw new UnauthorizedError(undefined, { reason: 'The session ended, or the administrator is no longer active' });
    // Issued before the administrator's password last changed: no longer valid.
    const revoked = seconds(row.revoked_through);
    if (revoked !== undefined && (issuedAt === undefined || issuedAt <= revoked))
      throw new UnauthorizedError(undefined, { reason: 'Issued before the password changed' });
    return { id, sessionId };
  }

  private async infos(rows: InfoRow[]): Promise<AdminInfo[]> {
    const { dialect } = this.database;
    const roles = await this.roles.rolesOf(rows.map((row) => row.id));
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return rows.map((row) => {
      const createdAt = dialect.decode('datetime', row.created_at) as string | null;
      const updated =
        row.updated_at === null || row.updated_at === undefined
          ? null
          : (dialect.decode('datetime', row.updated_at) as string | null);
      return {
        id: row.id,
        documentId: text(row.document_id),
        firstname: text(row.firstname),
        lastname: text(row.lastname),
        username: text(row.username),
        email: row.email,
        // Administrators of earlier Vellums (no value): active, not blocked.
        isActive:
          row.is_active === null || row.is_active === undefined
            ? true
            : dialect.decode('boolean', row.is_active) === true,
        blocked:
          row.blocked === null || row.blocked === undefined ? false : dialect.decode('boolean', row.blocked) === true,
        preferedLanguage: text(row.prefered_language),
        createdAt,
        updatedAt: updated ?? createdAt,
        publishedAt: createdAt,
        locale: null,
        roles: roles.get(row.id) ?? [],
      };
    });
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
    { name: 'documentId', column: 'document_id', type: 'string' },
    { name: 'firstname', column: 'firstname', type: 'string' },
    { name: 'lastname', column: 'lastname', type: 'string' },
    { name: 'username', column: 'username', type: 'string' },
    { name: 'preferedLanguage', column: 'prefered_language', type: 'string' },
    { name: 'createdAt', column: 'created_at', type: 'datetime' },
    { name: 'updatedAt', column: 'updated_at', type: 'datetime' },
    { name: 'publishedAt', column: 'created_at', type: 'datetime' },
  ],
  constants: {
    resetPasswordToken: null,
    resetPasswordTokenExpiresAt: null,
    registrationToken: null,
    isActive: true,
    blocked: false,
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
