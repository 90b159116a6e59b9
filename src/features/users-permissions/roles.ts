/**
 * Roles and their granted actions. Public answers requests without credentials, Authenticated is
 * given to registered users; administrators add others. Roles are documents of a built-in
 * content-type, created through the document service; grants live in `up_permissions` and are
 * read on every request, so a change applies at once on every node.
 */
import type { Selectable } from 'kysely';
import type { Db } from '../../core/database/dialect.js';
import { shaped, type SystemDb } from '../../core/database/system-tables.js';
import { UNIQUE_MESSAGE } from '../../core/database/write.js';
import {
  auditCaller,
  recordAudit,
  type Audited,
  type DocumentService,
  type TypeDocuments,
} from '../../core/documents/service.js';

/** Runs a write transaction through the database's write hook (Database.write). */
export type WriteRunner = <T>(fn: (trx: Db) => Promise<T>) => Promise<T>;
import { NotFoundError, ValidationError } from '../../core/errors.js';
import type { ContentType } from '../../core/schema/model.js';
import { PERMISSIONS_TABLE, SEEDED_PERMISSIONS_TABLE, type RoleRow } from './model.js';

export interface RoleInfo {
  id: number;
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  permissions: string[];
}

export const BUILT_IN_ROLES = {
  public: { name: 'Public', description: 'Default role given to unauthenticated user.' },
  authenticated: { name: 'Authenticated', description: 'Default role given to authenticated user.' },
} as const;

const slug = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** A ValidationError whose only problem is a `type` another role holds (the unique index's answer). */
function isTypeTaken(error: unknown): boolean {
  if (!(error instanceof ValidationError)) return false;
  const errors = (error.details.errors ?? []) as { path?: unknown[]; message?: string }[];
  return errors.length > 0 && errors.every((e) => e.message === UNIQUE_MESSAGE && e.path?.[0] === 'type');
}

export class Roles {
  /** The role documents. */
  private readonly roles: TypeDocuments;

  constructor(
    private readonly db: SystemDb,
    private readonly documents: DocumentService,
    private readonly roleType: ContentType,
    /** Grants' writes: a concurrent duplicate is answered as a sequential one is, not a 500. */
    private readonly write: WriteRunner = (fn) => fn(this.db),
  ) {
    this.roles = documents.of(roleType);
  }

  /**
   * The role's documentId, creating it when missing. At start-up, under the schema lock: `db` is
   * the lock's connection, which the document service then writes on.
   */
  async ensure(db: Db, type: string, name: string, description: string | null): Promise<string> {
    const existing = await shaped<RoleRow>(db)
      .selectFrom(this.roleType.table)
      .select('document_id')
      .where('type', '=', type)
      .executeTakeFirst();
    if (existing) return existing.document_id;
    const created = await this.documents.underLock(db).of(this.roleType).create({ data: { name, description, type } });
    return created.documentId as string;
  }

  async create(name: string, description: string | null = null, audited?: Audited): Promise<RoleInfo> {
    const type = slug(name);
    if (name.trim().length < 3 || !type) throw new ValidationError('A role name needs at least 3 characters', { name });
    const taken = () => new ValidationError(`A role "${type}" already exists`, { name });
    if (
      await shaped<RoleRow>(this.db)
        .selectFrom(this.roleType.table)
        .select('id')
        .where('type', '=', type)
        .executeTakeFirst()
    )
      throw taken();
    try {
      await this.roles.create({ data: { name: name.trim(), description, type } }, auditCaller(audited));
    } catch (error) {
      // A concurrent create of the same role won: answered as the check above answers.
      if (isTypeTaken(error)) throw taken();
      throw error;
    }
    return this.get(type);
  }

  /** A role by type (`public`, `authenticated`, ...), documentId or numeric id. */
  async get(ref: string): Promise<RoleInfo> {
    let query = shaped<RoleRow>(this.db)
      .selectFrom(this.roleType.table)
      .select(['id', 'document_id', 'name', 'description', 'type']);
    query = /^\d+$/.test(ref)
      ? query.where('id', '=', Number(ref))
      : query.where((eb) => eb.or([eb('type', '=', ref), eb('document_id', '=', ref)]));
    const row = await query.executeTakeFirst();
    if (!row) throw new NotFoundError(`No role ${ref}`);
    return { ...this.info(row), permissions: [...(await this.actionsOf(row.document_id))].sort() };
  }

  async list(): Promise<RoleInfo[]> {
    const rows = await shaped<RoleRow>(this.db)
      .selectFrom(this.roleType.table)
      .select(['id', 'document_id', 'name', 'description', 'type'])
      .orderBy('id')
      .execute();
    const grants = await this.db
      .selectFrom(PERMISSIONS_TABLE)
      .select(['role_document_id', 'action'])
      .orderBy('action')
      .execute();
    return rows.map((row) => ({
      ...this.info(row),
      permissions: grants.filter((g) => g.role_document_id === row.document_id).map((g) => g.action),
    }));
  }

  async actionsOf(roleDocumentId: string, db: SystemDb = this.db): Promise<Set<string>> {
    const rows = await db
      .selectFrom(PERMISSIONS_TABLE)
      .select('action')
      .where('role_document_id', '=', roleDocumentId)
      .execute();
    return new Set(rows.map((row) => row.action));
  }

  /**
   * `actionsOf` for one role on the hot path (Public, every anonymous request): the statement is
   * compiled once, the grants are still read from the database every time.
   */
  grantsReader(roleDocumentId: string): () => Promise<Set<string>> {
    const compiled = this.db
      .selectFrom(PERMISSIONS_TABLE)
      .select('action')
      .where('role_document_id', '=', roleDocumentId)
      .compile();
    return async () => new Set((await this.db.executeQuery(compiled)).rows.map((row) => row.action));
  }

  /**
   * Adds grants; actions already granted are left as they are. `db`: a transaction of the caller's.
   * `audited`: the actions added are recorded as `permission.create`.
   */
  async grant(roleDocumentId: string, actions: string[], db?: SystemDb, audited?: Audited): Promise<void> {
    const add = async (trx: SystemDb) => {
      const have = await this.actionsOf(roleDocumentId, trx);
      const missing = actions.filter((action) => !have.has(action));
      if (missing.length === 0) return;
      await trx
        .insertInto(PERMISSIONS_TABLE)
        .values(missing.map((action) => ({ role_document_id: roleDocumentId, action })))
        .execute();
      await this.recordPermissions(trx, audited, 'permission.create', roleDocumentId, { actions: missing });
    };
    // A concurrent grant of the same action makes the unique index refuse this one; run again, it
    // finds the action granted.
    await (db ? add(db) : this.write(add));
  }

  /**
   * The grants of `config/permissions`, each (role, action) applied once: what the file named at an
   * earlier start is not granted again, so a grant revoked since (CLI, admin API, project code)
   * stays revoked; an action the file names for the first time (a new line, or a new type a
   * wildcard now matches) is granted. Answers the actions granted now. At start-up, under the
   * schema lock: `db` is the lock's connection.
   */
  async seed(roleDocumentId: string, actions: string[], db: SystemDb): Promise<string[]> {
    const rows = await db
      .selectFrom(SEEDED_PERMISSIONS_TABLE)
      .select('action')
      .where('role_document_id', '=', roleDocumentId)
      .execute();
    const seeded = new Set(rows.map((row) => row.action));
    const fresh = actions.filter((action) => !seeded.has(action));
    if (fresh.length === 0) return [];
    await this.grant(roleDocumentId, fresh, db);
    await db
      .insertInto(SEEDED_PERMISSIONS_TABLE)
      .values(fresh.map((action) => ({ role_document_id: roleDocumentId, action })))
      .execute();
    return fresh;
  }

  /**
   * The role's grants become exactly `actions`, in one write transaction (a reader sees the old set
   * or the new one). `audited`: a change is recorded as `permission.update` (the actions added and removed).
   */
  async replace(roleDocumentId: string, actions: string[], audited?: Audited): Promise<void> {
    const wanted = [...new Set(actions)];
    await this.write(async (trx: SystemDb) => {
      const have = await this.actionsOf(roleDocumentId, trx);
      const gone = [...have].filter((action) => !wanted.includes(action));
      if (gone.length)
        await trx
          .deleteFrom(PERMISSIONS_TABLE)
          .where('role_document_id', '=', roleDocumentId)
          .where('action', 'in', gone)
          .execute();
      const missing = wanted.filter((action) => !have.has(action));
      if (missing.length)
        await trx
          .insertInto(PERMISSIONS_TABLE)
          .values(missing.map((action) => ({ role_document_id: roleDocumentId, action })))
          .execute();
      if (missing.length || gone.length)
        await this.recordPermissions(trx, audited, 'permission.update', roleDocumentId, {
          added: missing.sort(),
          removed: gone.sort(),
        });
    });
  }

  /** Removes grants, in one write transaction. `audited`: the actions removed are recorded as `permission.delete`. */
  async revoke(roleDocumentId: string, actions: string[], audited?: Audited): Promise<void> {
    if (actions.length === 0) return;
    await this.write(async (trx: SystemDb) => {
      const have = await this.actionsOf(roleDocumentId, trx);
      const gone = actions.filter((action) => have.has(action));
      if (gone.length === 0) return;
      await trx
        .deleteFrom(PERMISSIONS_TABLE)
        .where('role_document_id', '=', roleDocumentId)
        .where('action', 'in', gone)
        .execute();
      await this.recordPermissions(trx, audited, 'permission.delete', roleDocumentId, { actions: gone });
    });
  }

  private async recordPermissions(
    db: SystemDb,
    audited: Audited | undefined,
    action: string,
    roleDocumentId: string,
    details: Record<string, string[]>,
  ): Promise<void> {
    await recordAudit(db, audited, { action, contentType: this.roleType.uid, documentId: roleDocumentId, details });
  }

  private info(
    row: Pick<Selectable<RoleRow>, 'id' | 'document_id' | 'name' | 'description' | 'type'>,
  ): Omit<RoleInfo, 'permissions'> {
    return {
      id: row.id,
      documentId: row.document_id,
      name: row.name,
      description: row.description ?? null,
      type: row.type,
    };
  }
}
