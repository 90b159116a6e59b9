/**
 * The account flows of Strapi's users-permissions that need email: forgotten and reset passwords,
 * password changes, and email confirmation. Answers, error names and messages are Strapi 5.54's
 * (`controllers/auth.js`, `controllers/validation/auth.js`); the differences are on purpose:
 *
 * - codes are single-use, expire (`resetPasswordLifetime`, `emailConfirmationLifetime`) and are
 *   stored hashed (codes.ts);
 * - a password change or reset revokes the user's earlier JWTs (`up_jwt_revocations`, checked on
 *   every request by the access layer) and their pending reset codes;
 * - `forgot-password` answers `{ ok: true }` before sending, and whatever the sending does, so that
 *   neither the answer nor its delay tells whether the email belongs to an account;
 * - validation errors never echo a password back.
 */
import type { Passwords } from '../../core/passwords.js';
import type { Database } from '../../core/database/connection.js';
import { shaped, type SystemDb } from '../../core/database/system-tables.js';
import { validateInput } from '../../core/documents/input.js';
import type { Document, TypeDocuments } from '../../core/documents/service.js';
import { renderTemplate, type EmailService } from '../email/index.js';
import { ApplicationError, NotFoundError, ValidationError, type FieldError } from '../../core/errors.js';
import type { Schema, ContentType } from '../../core/schema/model.js';
import type { AdvancedSettings, EmailTemplate } from './advanced.js';
import type { UserCodes } from './codes.js';
import type { AuthConfig } from './config.js';
import type { JwtSigner } from './jwt.js';
import { JWT_REVOCATIONS_TABLE, type UserRow } from './model.js';

export interface AccountResult {
  jwt: string;
  user: Document;
}

export interface AccountDeps {
  database: Database;
  schema: Schema;
  userType: ContentType;
  users: TypeDocuments;
  config: AuthConfig;
  jwt: JwtSigner;
  codes: UserCodes;
  advanced: AdvancedSettings;
  passwords: Passwords;
  /** Absent where nothing sends mail (the CLI). */
  email?: EmailService;
  /** The server's absolute URL (`server.url`, else its address), for the links of emails. */
  serverUrl: () => string;
  /** `api.rest.prefix`, for the confirmation link. */
  apiPrefix: string;
  /** Where a failed background send is told (the reset email). */
  log?: (message: string) => void;
  /** Ends the user's refresh sessions (sessions.ts) when their JWTs are revoked. */
  revokeSessions?: (userId: number) => Promise<void>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BCRYPT_MAX_BYTES = 72;
const RESET_CODE_BYTES = 64;
const CONFIRMATION_CODE_BYTES = 20;
const PASSWORD_FIELDS = new Set(['password', 'passwordConfirmation', 'currentPassword']);

const fieldError = (field: string, message: string): FieldError => ({
  path: [field],
  message,
  name: 'ValidationError',
});

/** Body checks in Strapi's yup wording, collected as yup collects them (`abortEarly: false`). */
class BodyCheck {
  readonly errors: FieldError[] = [];

  constructor(readonly body: Record<string, unknown>) {}

  /** yup's `noUnknown()`: one error naming the keys the body may not carry. */
  known(keys: string[]): void {
    const extra = Object.keys(this.body).filter((key) => !keys.includes(key));
    if (extra.length)
      this.errors.push({
        path: [],
        message: `this field has unspecified keys: ${extra.join(', ')}`,
        name: 'ValidationError',
      });
  }

  string(field: string): string | undefined {
    const value = this.body[field];
    if (value === undefined || value === null || value === '') {
      this.errors.push(fieldError(field, `${field} is a required field`));
      return undefined;
    }
    if (typeof value !== 'string') {
      const error = fieldError(field, `${field} must be a \`string\` type`);
      this.errors.push(PASSWORD_FIELDS.has(field) ? error : { ...error, value });
      return undefined;
    }
    return value;
  }

  email(field: string): string | undefined {
    const value = this.string(field);
    if (value !== undefined && !EMAIL.test(value.trim())) {
      this.errors.push({ ...fieldError(field, `${field} must be a valid email`), value });
      return undefined;
    }
    return value?.trim();
  }

  fail(): void {
    if (this.errors.length) throw ValidationError.fromFieldErrors(this.errors);
  }
}

interface UserLookup {
  id: number;
  email: string;
  blocked: boolean;
  confirmed: boolean;
}

export class AccountFlows {
  constructor(private readonly deps: AccountDeps) {}

  /** `POST /api/auth/forgot-password`: `{ ok: true }` whether or not the email is an account's. */
  async forgotPassword(body: Record<string, unknown>): Promise<{ ok: true }> {
    const check = new BodyCheck(body);
    const email = check.email('email');
    check.known(['email']);
    check.fail();
    const user = await this.byEmail(email!);
    if (!user || user.blocked) return { ok: true };
    const code = await this.deps.codes.issue(
      user.id,
      'reset-password',
      this.deps.config.resetPasswordLifetime,
      RESET_CODE_BYTES,
    );
    await this.codeIssued(user.id);
    // Sent after answering: how long sending takes tells nothing about the email either.
    this.sendResetEmail(user.id, code).catch((error: unknown) => {
      (this.deps.log ?? console.error)(
        `users-permissions: the reset password email to user ${user.id} was not sent: ${(error as Error)?.message ?? error}`,
      );
    });
    return { ok: true };
  }

  /** `POST /api/auth/reset-password` `{ code, password, passwordConfirmation }`: `{ jwt, user }`. */
  async resetPassword(body: Record<string, unknown>): Promise<AccountResult> {
    const check = new BodyCheck(body);
    const password = await this.newPassword(check);
    const confirmation = check.string('passwordConfirmation');
    if (password !== undefined && confirmation !== undefined && password !== confirmation)
      check.errors.push(fieldError('passwordConfirmation', 'Passwords do not match'));
    const code = check.string('code');
    check.known(['password', 'passwordConfirmation', 'code']);
    check.fail();
    const { codes } = this.deps;
    const userId = await codes.userOf(code!, 'reset-password');
    // Consumed before the password changes: of two requests with one code, one changes it.
    if (userId === undefined || !(await codes.consume(code!, 'reset-password')))
      throw new ValidationError('Incorrect code provided');
    await this.setPassword(userId, password!);
    return this.signedIn(userId);
  }

  /** `POST /api/auth/change-password` for the signed-in user: `{ jwt, user }` (earlier JWTs stop working). */
  async changePassword(userId: number, body: Record<string, unknown>): Promise<AccountResult> {
    const check = new BodyCheck(body);
    const password = await this.newPassword(check);
    const confirmation = check.string('passwordConfirmation');
    if (password !== undefined && confirmation !== undefined && password !== confirmation)
      check.errors.push(fieldError('passwordConfirmation', 'Passwords do not match'));
    const current = check.string('currentPassword');
    check.known(['password', 'passwordConfirmation', 'currentPassword']);
    check.fail();
    const row = await shaped<UserRow>(this.deps.database.db)
      .selectFrom(this.deps.userType.table)
      .select(['id', 'password'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!(await this.deps.passwords.verify(current!, row?.password)))
      throw new ValidationError('The provided current password is invalid');
    if (current === password)
      throw new ValidationError('Your new password must be different than your current password');
    await this.setPassword(userId, password!);
    return this.signedIn(userId);
  }

  /**
   * `GET /api/auth/email-confirmation?confirmation=`: confirms the user of a valid code (single
   * use); answers the user's id. The REST route then redirects, GraphQL answers `{ jwt, user }`.
   */
  async confirmEmail(query: Record<string, unknown>): Promise<number> {
    const check = new BodyCheck(query);
    const code = check.string('confirmation');
    check.fail();
    const { codes } = this.deps;
    const userId = await codes.userOf(code!, 'email-confirmation');
    if (userId === undefined || !(await codes.consume(code!, 'email-confirmation')))
      throw new ValidationError('Invalid token');
    const documentId = await this.documentIdOf(userId);
    await this.deps.users.update({ documentId, data: { confirmed: true } });
    return userId;
  }

  /** Where Strapi redirects after a confirmation: `email_confirmation_redirection`, else `/`. */
  async confirmationRedirect(): Promise<string> {
    return (await this.deps.advanced.get()).email_confirmation_redirection || '/';
  }

  /** GraphQL's `emailConfirmation`: the confirmed user, signed in. */
  async confirmEmailAndSignIn(query: Record<string, unknown>): Promise<AccountResult> {
    return this.signedIn(await this.confirmEmail(query));
  }

  /** `POST /api/auth/send-email-confirmation` `{ email }`: `{ email, sent: true }`, whoever the address belongs to. */
  async sendEmailConfirmation(body: Record<string, unknown>): Promise<{ email: string; sent: true }> {
    const check = new BodyCheck(body);
    const email = check.email('email');
    check.fail();
    // One answer whether the address has an account, is confirmed or is blocked, in the case stored
    // addresses have: it tells nothing about accounts (Strapi answers 400 "Already confirmed" or
    // "User blocked", and echoes an unknown address as typed). docs/coming-from-strapi.md "Differences from Strapi 5.54".
    const answer = { email: email!.toLowerCase(), sent: true } as const;
    const user = await this.byEmail(email!);
    if (user && !user.confirmed && !user.blocked) await this.sendConfirmationEmail(user.id);
    return answer;
  }

  /**
   * The confirmation email of a user (at registration, on request, from project code): a new code
   * replaces the earlier ones. A failure to send is an ApplicationError, as Strapi's register says it.
   */
  async sendConfirmationEmail(userId: number): Promise<void> {
    const { codes, config, advanced, serverUrl, apiPrefix } = this.deps;
    const user = await this.userDocument(userId);
    const code = await codes.issue(
      userId,
      'email-confirmation',
      config.emailConfirmationLifetime,
      CONFIRMATION_CODE_BYTES,
    );
    await this.codeIssued(userId);
    const template = (await advanced.emailTemplates()).email_confirmation;
    const base = serverUrl();
    try {
      await this.send(
        template,
        user,
        {
          URL: `${base}${apiPrefix}/auth/email-confirmation`,
          SERVER_URL: base,
          ADMIN_URL: `${base}/admin`,
          USER: user,
          CODE: code,
        },
        (from) => Boolean(from.email && from.name),
      );
    } catch (error) {
      if (error instanceof ValidationError) throw error;
      (this.deps.log ?? console.error)(
        `users-permissions: the confirmation email to user ${userId} was not sent: ${(error as Error)?.message ?? error}`,
      );
      throw new ApplicationError('Error sending confirmation email');
    }
  }

  /**
   * Revokes every JWT issued to the user until now (the access layer refuses them from the next
   * request), and ends their refresh sessions.
   */
  async revokeJwts(userId: number): Promise<void> {
    await this.deps.revokeSessions?.(userId);
    const now = Math.floor(Date.now() / 1000);
    await this.deps.database.write(async (trx: SystemDb) => {
      const updated = await trx
        .updateTable(JWT_REVOCATIONS_TABLE)
        .set({ revoked_through: now })
        .where('user_id', '=', userId)
        .where('revoked_through', '<', now)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return;
      const existing = await trx
        .selectFrom(JWT_REVOCATIONS_TABLE)
        .select('id')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!existing)
        await trx.insertInto(JWT_REVOCATIONS_TABLE).values({ user_id: userId, revoked_through: now }).execute();
    });
  }

  private async sendResetEmail(userId: number, code: string): Promise<void> {
    const [settings, templates] = await Promise.all([this.deps.advanced.get(), this.deps.advanced.emailTemplates()]);
    const user = await this.userDocument(userId);
    const base = this.deps.serverUrl();
    await this.send(
      templates.reset_password,
      user,
      {
        URL: settings.email_reset_password,
        SERVER_URL: base,
        ADMIN_URL: `${base}/admin`,
        USER: user,
        TOKEN: code,
      },
      (from) => Boolean(from.email || from.name),
    );
  }

  /** A users-permissions email: its message rendered with `data`, its subject with `USER` only. */
  private async send(
    template: EmailTemplate,
    user: Document,
    data: Record<string, unknown>,
    hasFrom: (from: { name: string; email: string }) => boolean,
  ): Promise<void> {
    const { email } = this.deps;
    if (!email) throw new Error('no email service on this node');
    const { options } = template;
    await email.send({
      to: user.email,
      from: hasFrom(options.from) ? `${options.from.name} <${options.from.email}>` : undefined,
      replyTo: options.response_email,
      subject: renderTemplate(options.object, { USER: user }),
      text: renderTemplate(options.message, data),
      html: renderTemplate(options.message, data, true),
    });
  }

  /** The new `password` of a body: at most 72 bytes, the project's `validatePassword`, the user type's own rules. */
  private async newPassword(check: BodyCheck): Promise<string | undefined> {
    const password = check.string('password');
    if (password === undefined) return undefined;
    const failed = (message: string) => {
      check.errors.push(fieldError('password', message));
      return undefined;
    };
    if (Buffer.byteLength(password) > BCRYPT_MAX_BYTES) return failed('Password must be less than 73 bytes');
    const { validatePassword } = this.deps.config;
    if (validatePassword) {
      try {
        if (!(await validatePassword(password))) return failed('Password validation failed.');
      } catch (error) {
        return failed((error as Error)?.message || 'An error occurred.');
      }
    }
    // The rules of the user type's password attribute (minLength, ...), as a write would apply them.
    const { errors } = validateInput(this.deps.schema, this.deps.userType, { password }, 'update');
    if (errors.length) {
      check.errors.push(...errors.map(({ value: _value, ...error }) => error));
      return undefined;
    }
    return password;
  }

  /** The new password, stored hashed; the user's earlier JWTs and pending reset codes stop working. */
  private async setPassword(userId: number, password: string): Promise<void> {
    await this.deps.users.update({ documentId: await this.documentIdOf(userId), data: { password } });
    // After the change: a login with the old password just before it cannot outlive it.
    await this.revokeJwts(userId);
    await this.deps.codes.revoke(userId, 'reset-password');
  }

  /**
   * Strapi stores a reset or confirmation token on the user (`edit`, through the document service):
   * the user's updatedAt moves and webhooks get entry.update. Vellum keeps codes apart (codes.ts),
   * so the same write is made without the token: a webhook receiver sees what Strapi sends.
   */
  private async codeIssued(userId: number): Promise<void> {
    await this.deps.users.update({ documentId: await this.documentIdOf(userId), data: {} });
  }

  private async signedIn(userId: number): Promise<AccountResult> {
    return { jwt: await this.deps.jwt.sign(userId), user: await this.userDocument(userId) };
  }

  /** The user as the API shows them (no password, no private fields). */
  private async userDocument(userId: number): Promise<Document> {
    const user = await this.deps.users.findFirst({ filters: { id: { $eq: userId } } });
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  private async documentIdOf(userId: number): Promise<string> {
    const row = await shaped<UserRow>(this.deps.database.db)
      .selectFrom(this.deps.userType.table)
      .select('document_id')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('User not found');
    return row.document_id;
  }

  /** The account of an email, read directly (a project's user schema may make email private). */
  private async byEmail(email: string): Promise<UserLookup | undefined> {
    const { database, userType } = this.deps;
    const columns = ['id', 'email', 'blocked', ...(userType.attributes.confirmed ? ['confirmed'] : [])] as (
      'id' | 'email' | 'blocked' | 'confirmed'
    )[];
    const row = await shaped<UserRow>(database.db)
      .selectFrom(userType.table)
      .select(columns)
      .where('email', '=', email.toLowerCase())
      .orderBy('id')
      .executeTakeFirst();
    if (!row) return undefined;
    const decode = (value: unknown) => database.dialect.decode('boolean', value) === true;
    return {
      id: row.id,
      email: row.email,
      blocked: decode(row.blocked),
      confirmed: userType.attributes.confirmed ? decode(row.confirmed) : true,
    };
  }
}
