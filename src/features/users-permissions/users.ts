/**
 * End users (`plugin::users-permissions.user`): registration, login, creation by an administrator,
 * blocking. Users are documents of a built-in content-type, read and written through the document
 * service (validation, bcrypt-hashed password, role relation); login reads the hash directly since
 * the document service never returns it, and a JWT's identity joins the role's grants.
 */
import type { Passwords } from '../../core/passwords.js';
import type { Database } from '../../core/database/connection.js';
import { shaped, table, type LinkRow } from '../../core/database/system-tables.js';
import { UNIQUE_MESSAGE } from '../../core/database/write.js';
import {
  auditCaller,
  type Audited,
  type Document,
  type DocumentParams,
  type DocumentService,
  type TypeDocuments,
} from '../../core/documents/service.js';
import { ApplicationError, NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import type { ContentType, RelationAttribute } from '../../core/schema/model.js';
import type { AuthConfig } from './config.js';
import type { JwtSigner } from './jwt.js';
import {
  JWT_REVOCATIONS_TABLE,
  PERMISSIONS_TABLE,
  SESSIONS_TABLE,
  type JwtRevocationRow,
  type SessionRow,
  type UserRow,
} from './model.js';
import { routeKey, Throttle } from './throttle.js';
import type { AdvancedSettingsValue } from './advanced.js';

export interface CreateUserInput {
  username: string;
  email: string;
  password: string;
  /** Role type (`authenticated`) or documentId; default: authenticated. */
  role?: string;
  confirmed?: boolean;
  blocked?: boolean;
}

export interface AuthResult {
  /** Absent when the account waits for its email confirmation (`email_confirmation`). */
  jwt?: string;
  user: Document;
}

/** What registration and login read of the advanced settings, and the confirmation email they send. */
export interface Registration {
  /** The stored advanced settings, read per request (every node sees a change at once). */
  settings(): Promise<AdvancedSettingsValue>;
  sendConfirmationEmail(userId: number): Promise<void>;
  /** Whether the `email` provider (the local login) is enabled in the providers' settings. */
  localLoginEnabled?(): Promise<boolean>;
}

/** Who a JWT belongs to, as the access layer needs it. */
export interface UserIdentity {
  id: number;
  documentId: string;
  blocked: boolean;
  roleDocumentId: string | null;
  actions: Set<string>;
  /** The user's JWTs issued at or before this second are revoked (a password change); undefined: none. */
  revokedThrough?: number;
  /** Asked with a session id: whether the user still has that refresh session (not logged out, not revoked). */
  sessionActive?: boolean;
}

const INVALID_LOGIN = 'Invalid identifier or password';
const TAKEN = 'Email or Username are already taken';

/** A ValidationError whose only problems are an email or username that another user holds. */
function isTakenError(error: ValidationError): boolean {
  const errors = (error.details.errors ?? []) as { path?: unknown[]; message?: string }[];
  return (
    errors.length > 0 &&
    errors.every((e) => e.message === UNIQUE_MESSAGE && (e.path?.[0] === 'email' || e.path?.[0] === 'username'))
  );
}
const BCRYPT_MAX_BYTES = 72;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * A field Strapi's schemas require as a string (`yup.string().required()`): absent, null or empty is
 * "required", another type says so with its value (never a password's). Undefined when it failed.
 */
function requiredString(input: Record<string, unknown>, field: string, errors: FieldError[]): string | undefined {
  const value = input[field];
  if (value === undefined || value === null || value === '') {
    errors.push({ path: [field], message: `${field} is a required field`, name: 'ValidationError' });
    return undefined;
  }
  if (typeof value !== 'string') {
    const error: FieldError = { path: [field], message: `${field} must be a \`string\` type`, name: 'ValidationError' };
    if (!/password/i.test(field)) error.value = value;
    errors.push(error);
    return undefined;
  }
  return value;
}
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export class Users {
  private readonly roleLink: RelationAttribute;
  /** Logins: every one per address (Strapi's), or failed ones per account and address (`perAccount`). */
  private readonly logins: Throttle;
  /** Registrations: per email and address (Strapi's), or per address (`perAccount`). */
  private readonly registrations: Throttle;
  /** The user documents. */
  private readonly users: TypeDocuments;
  /** The node's password hashing (the documents'). */
  private readonly passwords: Passwords;

  constructor(
    private readonly database: Database,
    documents: DocumentService,
    readonly type: ContentType,
    private readonly config: AuthConfig,
    private readonly jwt: JwtSigner,
    private readonly registration: Registration,
    private readonly resolveRole: (ref: string) => Promise<string>,
    /** Ends a blocked user's refresh sessions (sessions.ts). */
    private readonly revokeSessions: (id: number) => Promise<void> = async () => undefined,
  ) {
    // Strapi's keys are shared with the account flows' (features/users-permissions/index.ts): one scope, `route`.
    this.logins = new Throttle(database, config.loginLimit, config.perAccount ? 'login' : 'route');
    this.registrations = new Throttle(database, config.registerLimit, config.perAccount ? 'register' : 'route');
    this.roleLink = type.attributes.role as RelationAttribute;
    this.users = documents.of(type);
    this.passwords = documents.passwords;
  }

  /** A user as the API shows it (no password, no private fields), or null. `params`: fields, populate. */
  findById(id: number, params: Pick<DocumentParams, 'fields' | 'populate'> = {}): Promise<Document | null> {
    return this.users.findFirst({ ...params, filters: { id: { $eq: id } } });
  }

  /** `clientIp`: the client's address, which registrations are counted by (every one, whatever its outcome). */
  async register(input: Record<string, unknown>, clientIp: string): Promise<AuthResult> {
    await this.registrations.hit(
      this.config.perAccount ? [clientIp] : routeKey('auth/local/register', input, clientIp),
    );
    const settings = await this.registration.settings();
    if (!settings.allow_register) throw new ApplicationError('Register action is currently disabled');
    const allowed = new Set(['username', 'email', 'password', ...this.config.allowedFields]);
    const extra = Object.keys(input).filter((key) => !allowed.has(key));
    if (extra.length) throw new ValidationError(`Invalid parameters: ${extra.join(', ')}`);
    const { username, email, password } = this.checkCredentials(input);
    await this.checkPasswordRule(password);
    const data: Record<string, unknown> = { ...input, username, email, password };
    const role = await this.defaultRole(settings);
    const user = await this.insert(data, role, { confirmed: !settings.email_confirmation, blocked: false });
    if (settings.email_confirmation) return this.awaitConfirmation(user);
    return { jwt: await this.jwt.sign(user.id as number), user };
  }

  /** A role an administrator names (type, documentId or id); a 400 on `role` when there is none. */
  private async namedRole(ref: string): Promise<string> {
    try {
      return await this.resolveRole(ref);
    } catch (error) {
      if (error instanceof NotFoundError)
        throw ValidationError.fromFieldErrors([
          { path: ['role'], message: `No role ${ref}`, name: 'ValidationError', value: ref },
        ]);
      throw error;
    }
  }

  /** The role of `default_role`; Strapi's ApplicationError when no role has that type. */
  private async defaultRole(settings: AdvancedSettingsValue): Promise<string> {
    try {
      return await this.resolveRole(settings.default_role);
    } catch (error) {
      if (error instanceof NotFoundError) throw new ApplicationError('Impossible to find the default role');
      throw error;
    }
  }

  /** A user registered while `email_confirmation` is on: the confirmation email, and no JWT (as Strapi). */
  private async awaitConfirmation(user: Document): Promise<AuthResult> {
    await this.registration.sendConfirmationEmail(user.id as number);
    return { user };
  }

  /** The project's `validationRules.validatePassword`, as Strapi's register schema applies it (its messages). */
  private async checkPasswordRule(password: string): Promise<void> {
    const { validatePassword } = this.config;
    if (!validatePassword) return;
    let message: string | undefined;
    try {
      if (!(await validatePassword(password))) message = 'Password validation failed.';
    } catch (error) {
      message = (error as Error)?.message || 'An error occurred.';
    }
    if (message) throw ValidationError.fromFieldErrors([{ path: ['password'], message, name: 'ValidationError' }]);
  }

  /** An administrator creates a user (CLI, admin API); `audited`: recorded as their `entry.create`. */
  async create(input: CreateUserInput, audited?: Audited): Promise<Document> {
    const { username, email, password } = this.checkCredentials(input as unknown as Record<string, unknown>);
    const role = input.role
      ? await this.namedRole(input.role)
      : await this.defaultRole(await this.registration.settings());
    return this.insert(
      { username, email, password },
      role,
      { confirmed: input.confirmed ?? true, blocked: input.blocked ?? false },
      audited,
    );
  }

  async login(input: Record<string, unknown>, clientIp: string): Promise<Required<AuthResult>> {
    // Strapi counts every login, whatever its outcome, before anything else is checked.
    if (!this.config.perAccount) await this.logins.hit(routeKey('auth/local', input, clientIp));
    // Strapi's check: an administrator may turn the local login off (providers' `email.enabled`).
    if (this.registration.localLoginEnabled && !(await this.registration.localLoginEnabled()))
      throw new ApplicationError('This provider is disabled');
    const errors: FieldError[] = [];
    const identifier = requiredString(input, 'identifier', errors)?.trim();
    const password = requiredString(input, 'password', errors);
    if (errors.length || !identifier || !password) throw ValidationError.fromFieldErrors(errors);

    const row = await shaped<UserRow>(this.database.db)
      .selectFrom(this.type.table)
      .select([
        'id',
        'password',
        'blocked',
        'provider',
        ...(this.type.attributes.confirmed ? (['confirmed'] as const) : []),
      ])
      .where((eb) => eb.or([eb('email', '=', normalizeEmail(identifier)), eb('username', '=', identifier)]))
      .orderBy('id')
      .executeTakeFirst();
    // Counted per account (its email and username share a count) and client address, before the
    // password is checked: failures of one client lock neither other accounts nor other clients.
    const attempt = [row ? `user ${row.id}` : `unknown ${identifier.toLowerCase()}`, clientIp];
    if (this.config.perAccount) await this.logins.hit(attempt);
    const matches = await this.passwords.verify(password, row?.password);
    if (!row || !matches) throw new ValidationError(INVALID_LOGIN);
    // Told only to whoever knows the password, so it reveals nothing to a guesser.
    await this.checkConfirmed(row);
    if (this.database.dialect.decode('boolean', row.blocked))
      throw new ApplicationError('Your account has been blocked by an administrator');
    if (this.config.perAccount) await this.logins.reset(attempt);
    this.rehashLater(row.id, password, row.password!);
    const user = (await this.findById(row.id))!;
    return { jwt: await this.jwt.sign(row.id), user };
  }

  /**
   * The password at `passwords.rounds` when its hash was made at another cost (docs/security.md
   * "Password hashing"): stored unless the password changed meanwhile.
   */
  private rehashLater(id: number, password: string, stored: string): void {
    this.passwords.rehashLater(password, stored, (hash) =>
      this.database.write((trx) =>
        shaped<UserRow>(trx)
          .updateTable(this.type.table)
          .set({ password: hash })
          .where('id', '=', id)
          .where('password', '=', stored)
          .execute(),
      ),
    );
  }

  /**
   * A login with a provider (features/users-permissions/oauth.ts read the profile), with Strapi 5's rules and messages:
   * the user of this email and provider signs in; without one, a new user is created (the default
   * role, `confirmed`, no password) unless registration is closed; an account of this email made
   * another way refuses it (Vellum's emails are unique whatever `unique_email` says: one index).
   */
  async providerLogin(provider: string, profile: { username?: string; email?: string }): Promise<Required<AuthResult>> {
    const email = profile.email ? normalizeEmail(profile.email) : '';
    if (!email) throw new ApplicationError('Email was not available.');
    const rows = await shaped<UserRow>(this.database.db)
      .selectFrom(this.type.table)
      .select(['id', 'provider', 'blocked'])
      .where('email', '=', email)
      .orderBy('id')
      .execute();
    const settings = await this.registration.settings();
    const own = rows.find((row) => row.provider === provider);
    if (!own && !settings.allow_register) throw new ApplicationError('Register action is actually not available.');
    if (!own && rows.length) throw new ApplicationError('Email is already taken.');
    let id: number;
    if (own) {
      if (this.database.dialect.decode('boolean', own.blocked))
        throw new ApplicationError('Your account has been blocked by an administrator');
      id = own.id;
    } else {
      const username = profile.username?.trim() || email.split('@')[0]!;
      const user = await this.insert({ username, email }, await this.defaultRole(settings), {
        confirmed: true,
        blocked: false,
        provider,
      });
      id = user.id as number;
    }
    return { jwt: await this.jwt.sign(id), user: (await this.findById(id))! };
  }

  /** With `email_confirmation` on, an unconfirmed account cannot log in (Strapi's check, before `blocked`). */
  private async checkConfirmed(row: Pick<UserRow, 'confirmed'>): Promise<void> {
    if (!this.type.attributes.confirmed || this.database.dialect.decode('boolean', row.confirmed) === true) return;
    if ((await this.registration.settings()).email_confirmation)
      throw new ApplicationError('Your account email is not confirmed');
  }

  async setBlocked(id: number, blocked: boolean, audited?: Audited): Promise<Document> {
    const user = await this.findById(id);
    if (!user) throw new NotFoundError('User not found');
    const updated = await this.users.update(
      { documentId: user.documentId as string, data: { blocked } },
      auditCaller(audited),
    );
    if (blocked) await this.revokeSessions(id);
    return updated;
  }

  /**
   * The user behind a JWT with their role's actions, in one statement: user row, role link and
   * grants joined (and the refresh session of an access token, when `sessionId` is given). Null
   * when the user no longer exists.
   */
  async identity(id: number, sessionId?: string): Promise<UserIdentity | null> {
    const query = this.database.system
      .selectFrom(table<UserRow>(this.type.table).as('u'))
      .leftJoin(table<LinkRow>(this.roleLink.link.table).as('l'), 'l.entity_id', 'u.id')
      .leftJoin(`${PERMISSIONS_TABLE} as p`, 'p.role_document_id', 'l.target_document_id')
      .leftJoin(table<JwtRevocationRow>(JWT_REVOCATIONS_TABLE).as('r'), 'r.user_id', 'u.id')
      .select(['u.id', 'u.document_id', 'u.blocked', 'l.target_document_id as role', 'p.action', 'r.revoked_through'])
      .where('u.id', '=', id);
    const rows =
      sessionId === undefined
        ? await query.execute()
        : await query
            .leftJoin(table<SessionRow>(SESSIONS_TABLE).as('s'), (join) =>
              join.onRef('s.user_id', '=', 'u.id').on('s.session_id', '=', sessionId),
            )
            .select('s.id as session')
            .execute();
    const first = rows[0];
    if (!first) return null;
    return {
      id: first.id,
      documentId: first.document_id,
      blocked: this.database.dialect.decode('boolean', first.blocked) as boolean,
      roleDocumentId: first.role ?? null,
      actions: new Set(rows.flatMap((r) => (r.action ? [r.action] : []))),
      revokedThrough:
        first.revoked_through === null || first.revoked_through === undefined
          ? undefined
          : Number(first.revoked_through),
      ...(sessionId === undefined ? {} : { sessionActive: (first as { session?: number | null }).session != null }),
    };
  }

  /** Strapi's register schema, in its order: email (a valid one), username, password. */
  private checkCredentials(input: Record<string, unknown>): { username: string; email: string; password: string } {
    const errors: FieldError[] = [];
    const email = requiredString(input, 'email', errors);
    if (email && !EMAIL.test(email.trim()))
      errors.push({ path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: email });
    const username = requiredString(input, 'username', errors)?.trim();
    if (username === '')
      errors.push({ path: ['username'], message: 'username is a required field', name: 'ValidationError' });
    // Login takes an email or a username: a username shaped as an email could be someone's email,
    // now or once they register, and would answer for it.
    else if (username && EMAIL.test(username))
      errors.push({
        path: ['username'],
        message: 'username must not be an email address',
        name: 'ValidationError',
        value: username,
      });
    const password = requiredString(input, 'password', errors);
    if (password && Buffer.byteLength(password) > BCRYPT_MAX_BYTES) {
      errors.push({ path: ['password'], message: 'Password must be less than 73 bytes', name: 'ValidationError' });
    }
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    return { username: username!, email: normalizeEmail(email!), password: password! };
  }

  private async insert(
    data: Record<string, unknown>,
    roleDocumentId: string,
    flags: { confirmed: boolean; blocked: boolean; provider?: string },
    audited?: Audited,
  ): Promise<Document> {
    // Read directly, as login reads: a project's user schema may make email private (not filterable).
    // Identifiers never collide: neither the email nor the username may be another user's email
    // or username (accounts from before usernames could not be emails may hold one as username).
    const identifiers = [data.email as string, data.username as string];
    const taken = await this.database.db
      .selectFrom(this.type.table)
      .select('id')
      .where((eb) =>
        eb.or([
          eb('email', 'in', [data.email as string, normalizeEmail(data.username as string)]),
          eb('username', 'in', identifiers),
        ]),
      )
      .executeTakeFirst();
    if (taken) throw new ApplicationError(TAKEN);
    try {
      return await this.users.create(
        {
          data: {
            ...data,
            provider: flags.provider ?? 'local',
            role: roleDocumentId,
            confirmed: flags.confirmed,
            blocked: flags.blocked,
          },
        },
        auditCaller(audited),
      );
    } catch (error) {
      // Lost a race with a concurrent registration of the same email or username: the unique
      // index refused it. Answered as the check above answers.
      if (error instanceof ValidationError && isTakenError(error)) throw new ApplicationError(TAKEN);
      throw error;
    }
  }
}
