/**
 * Users managed through the content API, as Strapi's users-permissions `user` controller manages
 * them: `create`, `update` and `destroy` (REST `POST|PUT|DELETE /api/users`, GraphQL
 * `create|update|deleteUsersPermissionsUser`). Bodies are checked as Strapi's schemas check them
 * (`email must be a valid email`, `Username already taken`, `Email already taken`,
 * `password.notNull`) before anything is written; users are documents written through the
 * document service (validation, bcrypt-hashed password, role relation).
 *
 * Vellum's own rule: a user never changes their own `role`, `blocked` or `confirmed` (403), so
 * that a role allowed to update users cannot raise itself or lift its own block.
 */
import type { Database } from '../../core/database/connection.js';
import { auditCaller, type Audited, type Document, type TypeDocuments } from '../../core/documents/service.js';
import {
  ApplicationError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
  type FieldError,
} from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { ContentType, RelationAttribute } from '../../core/schema/model.js';
import { shaped, table, type LinkRow } from '../../core/database/system-tables.js';
import type { AdvancedSettingsValue } from './advanced.js';
import type { UserRow } from './model.js';
import type { Roles } from './roles.js';
import { normalizeEmail } from './users.js';

type Body = Record<string, unknown>;

/** Who asks: a user (their id), or another caller (an API token, a role without a user). */
export interface Actor {
  userId?: number;
}

export interface UserManagementDeps {
  database: Database;
  users: TypeDocuments;
  userType: ContentType;
  roles: Roles;
  settings: () => Promise<AdvancedSettingsValue>;
  /** Revokes a user's earlier JWTs (a password set by someone else, as a change or reset does). */
  revokeJwts: (userId: number) => Promise<void>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const BCRYPT_MAX_BYTES = 72;
/** What the admin panel's user list sorts by. */
const SORTABLE = ['username', 'email', 'createdAt', 'updatedAt', 'id', 'blocked', 'confirmed'];
/** Fields Vellum never takes from a body: its single-use codes live in `up_user_codes`. */
const NOT_WRITABLE = ['resetPasswordToken', 'confirmationToken', 'id', 'documentId'];

const fieldError = (field: string, message: string, value?: unknown): FieldError => ({
  path: [field],
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

/** Login takes an email or a username: a username that is an email address could answer for someone's email. */
function checkUsername(username: string | undefined, errors: FieldError[]): void {
  if (username !== undefined && EMAIL.test(username.trim()))
    errors.push(fieldError('username', 'username must not be an email address', username));
}

/** A role as a body names it: by id (a number, or digits) or by documentId. */
type RoleRef = { id: number } | { documentId: string };

/** `yup.strapiID()`: a whole number, or a non-empty string (digits name an id, as in Strapi). */
function strapiId(value: unknown): RoleRef | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { id: value };
  if (typeof value === 'string' && value !== '')
    return /^\d{1,15}$/.test(value) ? { id: Number(value) } : { documentId: value };
  return undefined;
}

/**
 * The role of a body, checked as Strapi 5.54's `createUserBodySchema`/`updateUserBodySchema`
 * check it: an id, a documentId, or `{ connect: [{ id | documentId }, ...] }` (the first entry
 * counts); required when creating; on update a `disconnect` without `connect` is refused.
 * `null`: no change.
 */
function roleRef(value: unknown, errors: FieldError[], creating: boolean): RoleRef | null | undefined {
  if (value === undefined || value === null) {
    if (creating) errors.push(fieldError('role', 'role is a required field'));
    return creating ? undefined : null;
  }
  if (isPlainObject(value)) {
    const { connect, disconnect } = value;
    if (connect === undefined && creating) {
      errors.push({ path: ['role', 'connect'], message: 'role.connect is a required field', name: 'ValidationError' });
      return undefined;
    }
    if (connect !== undefined && !Array.isArray(connect)) {
      errors.push({
        path: ['role', 'connect'],
        message: 'role.connect must be a `array` type',
        name: 'ValidationError',
        value: connect,
      });
      return undefined;
    }
    const entries = (connect ?? []) as unknown[];
    if (entries.length === 0) {
      if (creating)
        errors.push({
          path: ['role', 'connect'],
          message: 'Users must have a role',
          name: 'ValidationError',
          value: entries,
        });
      else if (Array.isArray(disconnect) && disconnect.length > 0)
        errors.push({
          path: ['role', 'disconnect'],
          message: 'Cannot remove role',
          name: 'ValidationError',
          value: disconnect,
        });
      return creating ? undefined : null;
    }
    const bad = entries.findIndex(
      (entry) => !isPlainObject(entry) || (strapiId(entry.id) ?? strapiId(entry.documentId)) === undefined,
    );
    if (bad >= 0) {
      errors.push({
        path: ['role', 'connect', String(bad)],
        message: 'Relation entry must include an id or documentId',
        name: 'ValidationError',
        value: entries[bad],
      });
      return undefined;
    }
    const first = entries[0] as Record<string, unknown>;
    return first.id !== undefined && first.id !== null ? strapiId(first.id) : { documentId: String(first.documentId) };
  }
  const ref = strapiId(value);
  if (!ref) errors.push(fieldError('role', 'role must be a role id or documentId, or { connect: [{ id }] }', value));
  return ref;
}

/** Strapi's words for a role that does not exist (its document service's). */
const unknownRoleMessage = (ref: RoleRef): string =>
  'id' in ref
    ? '1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist'
    : `Document with id "${ref.documentId}", locale "null" not found`;

/**
 * A body that is not an object, in yup's words (Strapi validates the body with yup). A missing
 * body is one too: Strapi answers it with a 500.
 */
function notAnObject(input: unknown): ValidationError {
  const shown = Array.isArray(input)
    ? JSON.stringify(input)
    : input === undefined
      ? 'undefined'
      : JSON.stringify(input);
  const message = `this must be a \`object\` type, but the final value was: \`${shown}\`.`;
  return new ValidationError(message, {
    errors: [{ path: [], message, name: 'ValidationError', ...(input === undefined ? {} : { value: input }) }],
  });
}

export class UserManagement {
  private readonly roleLink: RelationAttribute;

  constructor(private readonly deps: UserManagementDeps) {
    this.roleLink = deps.userType.attributes.role as RelationAttribute;
  }

  /**
   * `POST /api/users`: Strapi's `createUserBodySchema` (the role is required), `Email already
   * taken`, then the user, as Strapi 5.54 writes it: `provider` is `local` whatever the body says;
   * `confirmed` and `blocked` as given. What the document service refuses is a 400
   * `ApplicationError` with its message, as Strapi's controller rethrows it.
   */
  async create(input: unknown): Promise<Document> {
    const body = this.body(input);
    const errors: FieldError[] = [];
    const email = this.string(body, 'email', errors, true);
    if (email !== undefined && !EMAIL.test(email.trim()))
      errors.push(fieldError('email', 'email must be a valid email', email));
    const username = this.string(body, 'username', errors, true);
    checkUsername(username, errors);
    const password = this.string(body, 'password', errors, true);
    const role = roleRef(body.role, errors, true);
    this.checkPassword(password, errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);

    const normalized = normalizeEmail(email!);
    if (await this.identifierTaken('email', normalized)) throw new ApplicationError('Email already taken');
    try {
      const roleDocumentId = await this.roleDocumentId(role!, true);
      // Strapi's document service refuses a taken username with its unique rule's words.
      if (await this.identifierTaken('username', username!))
        throw new ApplicationError('This attribute must be unique');
      const data: Body = { ...body, email: normalized, username, password, provider: 'local', role: roleDocumentId };
      return await this.deps.users.create({ data });
    } catch (error) {
      if (error instanceof ValidationError) throw new ApplicationError(error.message);
      throw error;
    }
  }

  /** `PUT /api/users/:id`: Strapi's `updateUserBodySchema` and checks; the updated user. */
  async update(id: number, input: unknown, actor: Actor, audited?: Audited): Promise<Document> {
    const current = await this.row(id);
    const body = this.body(input);
    const errors: FieldError[] = [];
    const email = this.string(body, 'email', errors, false);
    if (email !== undefined && !EMAIL.test(email.trim()))
      errors.push(fieldError('email', 'email must be a valid email', email));
    const username = this.string(body, 'username', errors, false);
    checkUsername(username, errors);
    if (
      'password' in body &&
      body.password !== undefined &&
      typeof body.password !== 'string' &&
      body.password !== null
    ) {
      errors.push(fieldError('password', 'password must be a `string` type', body.password));
    }
    const password = typeof body.password === 'string' && body.password !== '' ? body.password : undefined;
    const role = roleRef(body.role, errors, false);
    for (const flag of ['blocked', 'confirmed']) {
      if (body[flag] !== undefined && typeof body[flag] !== 'boolean')
        errors.push(fieldError(flag, `${flag} must be a \`boolean\` type`, body[flag]));
    }
    if (body.provider !== undefined && typeof body.provider !== 'string')
      errors.push(fieldError('provider', 'provider must be a `string` type', body.provider));
    this.checkPassword(password, errors);
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    // Strapi's rule for local accounts; another provider's empty password meets the type's own rules.
    if ('password' in body && password === undefined && current.provider === 'local')
      throw new ValidationError('password.notNull');

    const data: Body = { ...body };
    if (role === null) delete data.role;
    else if (role !== undefined) data.role = await this.roleDocumentId(role, false);
    if (actor.userId === id) this.refuseSelfPromotion(current, data);
    if (username !== undefined) {
      const other = await this.identifierTaken('username', username, id);
      if (other !== undefined) throw new ApplicationError('Username already taken');
      data.username = username;
    }
    if (email !== undefined) {
      const normalized = normalizeEmail(email);
      const other = await this.identifierTaken('email', normalized, id);
      if (other !== undefined) throw new ApplicationError('Email already taken');
      data.email = normalized;
    }
    const updated = await this.deps.users.update({ documentId: current.documentId, data }, auditCaller(audited));
    // A password set for the user ends their earlier sessions, as a change or reset does.
    if (password !== undefined) await this.deps.revokeJwts(id);
    return updated;
  }

  /**
   * The admin panel's list of users: a page of them (1-based `page`, `pageSize` 1 to 100), those
   * whose username or email contains `search` (any case), sorted by `sort` (`field:asc|desc` of
   * SORTABLE), each with its role. Passwords and private attributes are never read out.
   */
  async list(input: { page?: unknown; pageSize?: unknown; search?: unknown; sort?: unknown }): Promise<{
    results: Document[];
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
  }> {
    const errors: FieldError[] = [];
    const whole = (name: string, value: unknown, fallback: number, max: number): number => {
      if (value === undefined || value === '') return fallback;
      const number =
        typeof value === 'string' && /^\d{1,6}$/.test(value) ? Number(value) : typeof value === 'number' ? value : NaN;
      if (!Number.isInteger(number) || number < 1 || number > max)
        errors.push(fieldError(name, `${name} must be a whole number from 1 to ${max}`, value));
      return number;
    };
    const page = whole('page', input.page, 1, 1_000_000);
    const pageSize = whole('pageSize', input.pageSize, 10, 100);
    const sort = input.sort === undefined || input.sort === '' ? 'username:asc' : input.sort;
    const [field, order] = typeof sort === 'string' ? sort.split(':') : [];
    if (!SORTABLE.includes(field!) || !['asc', 'desc'].includes(order ?? 'asc'))
      errors.push(fieldError('sort', `sort must be one of ${SORTABLE.join(', ')}, with :asc or :desc`, sort));
    if (input.search !== undefined && typeof input.search !== 'string')
      errors.push(fieldError('search', 'search must be a string', input.search));
    if (errors.length) throw ValidationError.fromFieldErrors(errors);
    const search = typeof input.search === 'string' ? input.search.trim() : '';
    const filters = search
      ? { $or: [{ username: { $containsi: search } }, { email: { $containsi: search } }] }
      : undefined;
    const found = await this.deps.users.findMany({
      filters,
      sort: [`${field}:${order ?? 'asc'}`, 'id:asc'],
      populate: ['role'],
      pagination: { page, pageSize },
    });
    const total = found.pagination.total ?? found.results.length;
    return { results: found.results, pagination: { page, pageSize, pageCount: Math.ceil(total / pageSize), total } };
  }

  /** One user with its role, or Strapi's 404. */
  async get(id: number): Promise<Document> {
    const current = await this.row(id);
    const user = await this.deps.users.findOne({ documentId: current.documentId, populate: ['role'] });
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  /** `DELETE /api/users/:id`: the user as it was (404 for an unknown id: REST answers it 204, as Strapi). */
  async destroy(id: number, audited?: Audited): Promise<Document> {
    const current = await this.row(id);
    const before = await this.deps.users.findOne({ documentId: current.documentId });
    // Strapi's users-permissions deletes with `strapi.db.query`: no entry.delete event.
    await this.deps.users.delete({ documentId: current.documentId }, { webhookEvents: false, ...auditCaller(audited) });
    return before ?? { id, documentId: current.documentId };
  }

  /** A user's id from its id (digits) or documentId (GraphQL's `id`), or Strapi's 404. */
  async idOf(ref: string): Promise<number> {
    if (/^\d{1,15}$/.test(ref)) return Number(ref);
    const row = await shaped<UserRow>(this.deps.database.db)
      .selectFrom(this.deps.userType.table)
      .select('id')
      .where('document_id', '=', ref)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('User not found');
    return Number(row.id);
  }

  /** The documentId of a user id, or Strapi's 404. */
  async documentIdOf(id: number): Promise<string> {
    return (await this.row(id)).documentId;
  }

  private async row(id: number): Promise<{
    documentId: string;
    blocked: boolean;
    confirmed: boolean;
    provider: string | null;
    roleDocumentId: string | null;
  }> {
    const { database, userType } = this.deps;
    const row = Number.isSafeInteger(id)
      ? await database.system
          .selectFrom(table<UserRow>(userType.table).as('u'))
          .leftJoin(table<LinkRow>(this.roleLink.link.table).as('l'), 'l.entity_id', 'u.id')
          .select(['u.document_id', 'u.blocked', 'u.confirmed', 'u.provider', 'l.target_document_id as role'])
          .where('u.id', '=', id)
          .executeTakeFirst()
      : undefined;
    if (!row) throw new NotFoundError('User not found');
    const decode = (value: unknown) => database.dialect.decode('boolean', value) === true;
    return {
      documentId: row.document_id,
      blocked: decode(row.blocked),
      confirmed: decode(row.confirmed),
      provider: row.provider ?? null,
      roleDocumentId: row.role ?? null,
    };
  }

  /** Vellum's rule: a user's own role, block and confirmation are someone else's to change. */
  private refuseSelfPromotion(
    current: { blocked: boolean; confirmed: boolean; roleDocumentId: string | null },
    data: Body,
  ): void {
    const changes: string[] = [];
    if (data.role !== undefined && data.role !== current.roleDocumentId) changes.push('role');
    if (data.blocked !== undefined && data.blocked !== current.blocked) changes.push('blocked');
    if (data.confirmed !== undefined && data.confirmed !== current.confirmed) changes.push('confirmed');
    if (changes.length) throw new ForbiddenError(`A user cannot change their own ${changes.join(', ')}`);
  }

  private body(input: unknown): Body {
    if (!isPlainObject(input)) throw notAnObject(input);
    const refused = NOT_WRITABLE.filter((key) => key in input);
    if (refused.length)
      throw new ValidationError(`Invalid parameters: ${refused.join(', ')}`, {
        errors: refused.map((key) => fieldError(key, `${key} cannot be set`)),
      });
    return input;
  }

  /** A string field (`yup.string().min(1)`, required when creating). */
  private string(body: Body, field: string, errors: FieldError[], required: boolean): string | undefined {
    const value = body[field];
    if (value === undefined || value === null || value === '') {
      if (required || value === '' || value === null)
        errors.push(
          fieldError(field, required ? `${field} is a required field` : `${field} must be at least 1 characters`),
        );
      return undefined;
    }
    if (typeof value !== 'string') {
      errors.push(fieldError(field, `${field} must be a \`string\` type`, value));
      return undefined;
    }
    return value;
  }

  private checkPassword(password: string | undefined, errors: FieldError[]): void {
    if (password !== undefined && Buffer.byteLength(password) > BCRYPT_MAX_BYTES)
      errors.push(fieldError('password', 'Password must be less than 73 bytes'));
  }

  /**
   * Another user (than `self`) for whom `value` already names an account at login: as username
   * or as (normalised) email, whichever `field` it is meant for, since login takes either (docs/security.md
   * "Accounts"). Read directly (email may be private).
   */
  private async identifierTaken(
    field: 'username' | 'email',
    value: string,
    self?: number,
  ): Promise<number | undefined> {
    const emails = field === 'email' ? [value] : [value, normalizeEmail(value)];
    let query = shaped<UserRow>(this.deps.database.db)
      .selectFrom(this.deps.userType.table)
      .select('id')
      .where((eb) => eb.or([eb('username', '=', value), eb('email', 'in', emails)]));
    if (self !== undefined) query = query.where('id', '<>', self);
    const row = await query.executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /**
   * The documentId of a named role, or Strapi's refusal in its words: an `ApplicationError` when
   * creating (its controller rethrows), a `ValidationError` when updating (for an id, with the
   * details Strapi's relation check gives).
   */
  private async roleDocumentId(ref: RoleRef, creating: boolean): Promise<string> {
    try {
      return (await this.deps.roles.get('id' in ref ? String(ref.id) : ref.documentId)).documentId;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      const message = unknownRoleMessage(ref);
      if (creating) throw new ApplicationError(message);
      if (!('id' in ref)) throw new ValidationError(message);
      const value = { role: { set: [{ id: ref.id }] }, publishedAt: new Date().toISOString() };
      throw new ValidationError(message, { errors: [{ path: [], message, name: 'ValidationError', value }] });
    }
  }
}
