/**
 * API tokens: `read-only`, `full-access` or `custom` (an explicit list of actions), optionally
 * expiring. Only an HMAC-SHA512 of a token is stored; the token itself is returned once, when it is
 * created. The last-used time is written at most once a minute per token, not on every request.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { CompiledQuery, Selectable } from 'kysely';
import type { Database } from '../../core/database/connection.js';
import { INLINE, type Dialect } from '../../core/database/dialect.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { recordAudit, type Audited } from '../../core/documents/service.js';
import { NotFoundError, UnauthorizedError, ValidationError } from '../../core/errors.js';
import { fullAccess, grantSet, readOnly, type Grants } from '../../api/access.js';
import { TOKEN_PERMISSIONS_TABLE, TOKEN_TYPES, TOKENS_TABLE, type TokenRow, type TokenType } from './model.js';

export type { TokenType } from './model.js';

/** Longest lifespan (100 years): a bound far beyond any use that keeps the expiry a date every database stores. */
const MAX_LIFESPAN = 100 * 365.25 * 86_400_000;

export interface TokenInfo {
  id: number;
  name: string;
  description: string | null;
  type: TokenType;
  permissions: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface CreateTokenInput {
  name: string;
  type: TokenType;
  description?: string | null;
  /** Lifetime in milliseconds (Strapi's `lifespan`); null or absent: never expires. */
  lifespan?: number | null;
  /** For `custom` tokens: concrete actions (expanded by the caller). */
  permissions?: string[];
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Hashes of this many valid keys are remembered, the least recently used forgotten first. */
const HASH_CACHE_ENTRIES = 1000;
/** Keys are 256 hex characters (Strapi's and Vellum's); anything much longer is not remembered. */
const CACHEABLE_KEY_LENGTH = 512;

/** What `verify` reads of a token. */
type KeyRow = Pick<Selectable<TokenRow>, 'id' | 'type' | 'expires_at' | 'last_used_at'>;

export class ApiTokens {
  private readonly db: SystemDb;
  private readonly dialect: Dialect;

  constructor(
    private readonly database: Database,
    private readonly salt: string,
  ) {
    this.db = database.system;
    this.dialect = database.dialect;
    const byKey = this.db
      .selectFrom(TOKENS_TABLE)
      .select(['id', 'type', 'expires_at', 'last_used_at'])
      .where('access_key', '=', '')
      .compile();
    // A unique key: one row, asked on every request, read without a thread hop (INLINE).
    this.byKey = { ...byKey, sql: INLINE + byKey.sql };
  }

  /**
   * Hashes of recently used valid keys: a pure function of the key and the salt, asked on every
   * request. Only keys that named a token, and not too long, are kept, so that what a client
   * sends (random keys of 60 KB each) never fills memory; at most HASH_CACHE_ENTRIES of them.
   */
  private readonly hashes = new Map<string, string>();

  /** How many key hashes are remembered (bounded: see `hashes`). */
  get cachedKeys(): number {
    return this.hashes.size;
  }

  private hash(token: string): string {
    const hash = this.hashes.get(token);
    if (hash === undefined) return createHmac('sha512', this.salt).update(token).digest('hex');
    // Most recently used last: the first entries are the ones to forget.
    this.hashes.delete(token);
    this.hashes.set(token, hash);
    return hash;
  }

  /** Remembers the hash of a key that named a token. */
  private remember(token: string, hash: string): void {
    if (token.length > CACHEABLE_KEY_LENGTH || this.hashes.has(token)) return;
    if (this.hashes.size >= HASH_CACHE_ENTRIES) this.hashes.delete(this.hashes.keys().next().value!);
    this.hashes.set(token, hash);
  }

  /** Creates a token; `audited`: recorded as `api-token.create` in its transaction (its name and type, never its key). */
  async create(input: CreateTokenInput, audited?: Audited): Promise<{ token: TokenInfo; accessKey: string }> {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!name)
      throw new ValidationError('A token needs a name', {
        errors: [{ path: ['name'], message: 'name is required', name: 'ValidationError' }],
      });
    if (!TOKEN_TYPES.includes(input.type))
      throw new ValidationError(`type must be one of ${TOKEN_TYPES.join(', ')}`, { type: input.type });
    const permissions = input.type === 'custom' ? (input.permissions ?? []) : [];
    if (input.type === 'custom' && permissions.length === 0)
      throw new ValidationError('A custom token needs at least one permission');
    if (
      input.lifespan !== undefined &&
      input.lifespan !== null &&
      (!Number.isInteger(input.lifespan) || input.lifespan <= 0 || input.lifespan > MAX_LIFESPAN)
    ) {
      const message = `lifespan must be a positive number of milliseconds, at most ${MAX_LIFESPAN} (100 years)`;
      throw ValidationError.fromFieldErrors([
        { path: ['lifespan'], message, name: 'ValidationError', value: input.lifespan },
      ]);
    }

    const accessKey = randomBytes(128).toString('hex');
    const now = new Date();
    const expiresAt = input.lifespan ? new Date(now.getTime() + input.lifespan) : null;
    const encode = (date: Date | null) => this.dialect.encode('datetime', date);
    const id = await this.database.write(async (trx: SystemDb) => {
      // In the transaction: a concurrent creator of the same name makes the unique index refuse this
      // one, and the write runs again, answered here.
      const taken = await trx.selectFrom(TOKENS_TABLE).select('id').where('name', '=', name).executeTakeFirst();
      if (taken) throw new ValidationError(`A token named "${name}" already exists`, { name });
      const tokenId = await this.dialect.insertReturningId(trx, TOKENS_TABLE, {
        name,
        description: input.description ?? null,
        type: input.type,
        access_key: this.hash(accessKey),
        expires_at: encode(expiresAt),
        created_at: encode(now),
        updated_at: encode(now),
      });
      if (permissions.length) {
        await trx
          .insertInto(TOKEN_PERMISSIONS_TABLE)
          .values(permissions.map((action) => ({ token_id: tokenId, action })))
          .execute();
      }
      await recordAudit(trx, audited, {
        action: 'api-token.create',
        subject: String(tokenId),
        details: { name, type: input.type, ...(permissions.length ? { permissions } : {}) },
      });
      return tokenId;
    });
    return { token: await this.get(String(id)), accessKey };
  }

  async list(): Promise<TokenInfo[]> {
    const rows = await this.db.selectFrom(TOKENS_TABLE).selectAll().orderBy('id').execute();
    const grants = await this.db
      .selectFrom(TOKEN_PERMISSIONS_TABLE)
      .select(['token_id', 'action'])
      .orderBy('action')
      .execute();
    return rows.map((row) =>
      this.info(
        row,
        grants.filter((g) => g.token_id === row.id).map((g) => g.action),
      ),
    );
  }

  /** A token by numeric id or name. */
  async get(ref: string): Promise<TokenInfo> {
    const query = this.db.selectFrom(TOKENS_TABLE).selectAll();
    const row = await (
      /^\d+$/.test(ref) ? query.where('id', '=', Number(ref)) : query.where('name', '=', ref)
    ).executeTakeFirst();
    if (!row) throw new NotFoundError(`No API token ${ref}`);
    const grants = await this.db
      .selectFrom(TOKEN_PERMISSIONS_TABLE)
      .select('action')
      .where('token_id', '=', row.id)
      .orderBy('action')
      .execute();
    return this.info(
      row,
      grants.map((g) => g.action),
    );
  }

  /** Deletes a token; `audited`: recorded as `api-token.revoke` in its transaction. */
  async revoke(ref: string, audited?: Audited): Promise<TokenInfo> {
    const token = await this.get(ref);
    await this.database.write(async (trx: SystemDb) => {
      await trx.deleteFrom(TOKEN_PERMISSIONS_TABLE).where('token_id', '=', token.id).execute();
      const gone = await trx.deleteFrom(TOKENS_TABLE).where('id', '=', token.id).executeTakeFirst();
      // Revoked meanwhile by another request: that one recorded it.
      if (Number(gone.numDeletedRows) === 0) throw new NotFoundError(`No API token ${ref}`);
      await recordAudit(trx, audited, {
        action: 'api-token.revoke',
        subject: String(token.id),
        details: { name: token.name, type: token.type },
      });
    });
    return token;
  }

  /** The token row by hashed key, compiled once: verify runs on every request that carries a token. */
  private readonly byKey: CompiledQuery<KeyRow>;

  /**
   * What the bearer of `accessKey` may do; 401 for unknown or expired tokens. One statement (a
   * second for custom tokens: their grants).
   */
  async verify(accessKey: string): Promise<{ id: number; type: TokenType; grants: Grants }> {
    const hash = this.hash(accessKey);
    const [row] = (await this.db.executeQuery<KeyRow>({ ...this.byKey, parameters: [hash] })).rows;
    if (!row) throw new UnauthorizedError();
    this.remember(accessKey, hash);
    const now = Date.now();
    const expiresAt = this.dialect.decode('datetime', row.expires_at) as string | null;
    if (expiresAt && Date.parse(expiresAt) <= now) throw new UnauthorizedError('Token expired');
    const lastUsed = this.dialect.decode('datetime', row.last_used_at) as string | null;
    if (!lastUsed || now - Date.parse(lastUsed) > LAST_USED_RESOLUTION_MS) {
      // A bookkeeping stamp, not the request's write: a locked or busy database skips it (the next
      // use records it) instead of failing a read with a 500.
      try {
        await this.db
          .updateTable(TOKENS_TABLE)
          .set({ last_used_at: this.dialect.encode('datetime', new Date(now)) })
          .where('id', '=', row.id)
          .execute();
      } catch (error) {
        if (!this.dialect.classifyError(error)) throw error;
      }
    }
    const { id, type } = row;
    if (type === 'full-access') return { id, type, grants: fullAccess };
    if (type === 'read-only') return { id, type, grants: readOnly };
    const actions = await this.db
      .selectFrom(TOKEN_PERMISSIONS_TABLE)
      .select('action')
      .where('token_id', '=', row.id)
      .execute();
    return { id, type, grants: grantSet(actions.map((a) => a.action)) };
  }

  private info(row: Selectable<TokenRow>, permissions: string[]): TokenInfo {
    const date = (value: unknown) => this.dialect.decode('datetime', value) as string | null;
    return {
      id: row.id,
      name: row.name,
      description: row.description ?? null,
      type: row.type,
      permissions,
      expiresAt: date(row.expires_at),
      lastUsedAt: date(row.last_used_at),
      createdAt: date(row.created_at)!,
    };
  }
}
