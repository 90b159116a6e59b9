/**
 * The locales documents may be written in, kept in the database as Strapi keeps them: the table
 * `i18n_locale` (one row per code, with its display name) and the default locale under Strapi's
 * core-store key `plugin_i18n_default_locale`. `config/plugins` `i18n.config` gives the first
 * values: the locales it lists are added at start when missing, its `defaultLocale` is the default
 * until one is chosen at run time. Editors add and remove others at run time (CLI, admin API,
 * `vellum import`); no node needs a restart: every node holds the list in memory (the `i18n` object
 * every parser reads) and reads it again when a request names a code it does not know.
 */
import type { Database } from '../database/connection.js';
import type { Db } from '../database/dialect.js';
import type { TableSpec } from '../database/tables.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { indexName } from '../schema/naming.js';
import { createDocumentId } from './document-id.js';
import { recordAudit, type Audited } from './audit-port.js';

const LOCALES_TABLE = 'i18n_locale';
const STORE_TABLE = 'strapi_core_store_settings';
const DEFAULT_KEY = 'plugin_i18n_default_locale';

export const localesTable: TableSpec = {
  name: LOCALES_TABLE,
  columns: [
    { name: 'id', type: 'id' },
    { name: 'document_id', type: 'string' },
    { name: 'name', type: 'string' },
    { name: 'code', type: 'string', notNull: true },
    { name: 'created_at', type: 'datetime' },
    { name: 'updated_at', type: 'datetime' },
    { name: 'published_at', type: 'datetime' },
  ],
  indexes: [{ name: indexName(LOCALES_TABLE, ['code']), columns: ['code'], unique: true }],
};

/** The locales every parser reads: mutated in place when the stored list changes. */
export interface I18n {
  defaultLocale: string;
  locales: string[];
}

export interface LocaleInfo {
  id: number;
  documentId: string;
  name: string;
  code: string;
  createdAt: unknown;
  updatedAt: unknown;
  publishedAt: unknown;
  isDefault: boolean;
}

/** Display names for common codes; other codes show as themselves. */
const NAMES: Record<string, string> = {
  en: 'English (en)',
  fr: 'French (fr)',
  de: 'German (de)',
  es: 'Spanish (es)',
  it: 'Italian (it)',
  nl: 'Dutch (nl)',
  pt: 'Portuguese (pt)',
  ja: 'Japanese (ja)',
  zh: 'Chinese (zh)',
};

/** Strapi's rule for a code: ISO letters, optionally with regions or scripts (`fr-CA`, `zh-Hans-CN`). */
const CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const localeName = (code: string): string => NAMES[code] ?? code;

interface LocaleRow {
  id: number;
  document_id: string | null;
  name: string | null;
  code: string;
  created_at: unknown;
  updated_at: unknown;
  published_at: unknown;
}

export class Locales {
  /** The reload in flight, shared by the requests that wait for it. */
  private loading: Promise<void> | undefined;

  constructor(
    private readonly database: Database,
    /** The object the document service and parsers read (the configuration's `i18n`). */
    readonly i18n: I18n,
  ) {}

  /**
   * At start, once the tables exist: adds the configured locales the table lacks and the default
   * locale when none is stored, then reads the list. Under the schema lock when `db` is its connection.
   */
  async start(initial: I18n, db: Db = this.database.db): Promise<void> {
    const have = new Set(
      (await db.selectFrom(LOCALES_TABLE).select('code').execute()).map((row) => row.code as string),
    );
    const missing = initial.locales.filter((code) => !have.has(code));
    for (const code of missing) await this.insert(db, code, localeName(code));
    if ((await readDefault(db)) === undefined) await writeDefault(db, initial.defaultLocale);
    await this.reload(db);
  }

  /** Reads the list and the default again (every node: a change elsewhere shows here). */
  reload(db: Db = this.database.db): Promise<void> {
    this.loading ??= (async () => {
      try {
        const rows = await db.selectFrom(LOCALES_TABLE).select('code').orderBy('id').execute();
        const codes = rows.map((row) => row.code as string);
        const stored = await readDefault(db);
        const defaultLocale =
          stored !== undefined && codes.includes(stored) ? stored : (codes[0] ?? this.i18n.defaultLocale);
        if (!codes.includes(defaultLocale)) codes.unshift(defaultLocale);
        this.i18n.locales.splice(0, this.i18n.locales.length, ...codes);
        this.i18n.defaultLocale = defaultLocale;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }

  /**
   * Undefined when every locale code the parameters name is known; otherwise the reload that
   * learns the ones another node added (an unknown code stays a 400 after it). Synchronous on the
   * common path: a request naming known locales waits for nothing.
   */
  refreshFor(params: { locale?: unknown; filters?: unknown; data?: unknown }): Promise<void> | undefined {
    const named: unknown[] = [];
    const { locale, filters } = params;
    if (Array.isArray(locale)) named.push(...locale);
    else named.push(locale);
    if (filters && typeof filters === 'object' && !Array.isArray(filters)) {
      const value = (filters as Record<string, unknown>).locale;
      if (value && typeof value === 'object' && !Array.isArray(value))
        named.push(...Object.values(value as Record<string, unknown>).flat());
      else named.push(value);
    }
    const known = this.i18n.locales;
    const unknown = named.some(
      (code) => typeof code === 'string' && code !== '' && code !== '*' && CODE.test(code) && !known.includes(code),
    );
    return unknown ? this.reload() : undefined;
  }

  async list(): Promise<LocaleInfo[]> {
    await this.reload();
    const rows = (await this.database.db
      .selectFrom(LOCALES_TABLE)
      .select(['id', 'document_id', 'name', 'code', 'created_at', 'updated_at', 'published_at'])
      .orderBy('id')
      .execute()) as LocaleRow[];
    const { dialect } = this.database;
    return rows.map((row) => ({
      id: Number(row.id),
      documentId: row.document_id ?? '',
      name: row.name ?? row.code,
      code: row.code,
      createdAt: dialect.decode('datetime', row.created_at),
      updatedAt: dialect.decode('datetime', row.updated_at),
      publishedAt: dialect.decode('datetime', row.published_at),
      isDefault: row.code === this.i18n.defaultLocale,
    }));
  }

  /**
   * Adds a locale (a code already there keeps its row; a new name renames it). `audited`: recorded
   * as `locale.create`, `locale.update` (a new name) and `locale.default.update`, Strapi's actions.
   */
  async add(
    code: string,
    name?: string,
    options: { isDefault?: boolean; documentId?: string } = {},
    audited?: Audited,
  ): Promise<LocaleInfo> {
    if (typeof code !== 'string' || !CODE.test(code))
      throw new ValidationError(`Invalid locale code ${JSON.stringify(code)}: a code such as en or fr-CA`, {
        key: 'code',
      });
    if (name !== undefined && (typeof name !== 'string' || name.length > 255))
      throw new ValidationError('name must be a text of at most 255 characters', { key: 'name' });
    const wasDefault = code === this.i18n.defaultLocale;
    await this.database.write(async (trx) => {
      const row = await trx
        .selectFrom(LOCALES_TABLE)
        .select(['id', 'name'])
        .where('code', '=', code)
        .executeTakeFirst();
      if (!row) {
        await this.insert(trx, code, name ?? localeName(code), options.documentId);
        await recordAudit(trx, audited, { action: 'locale.create', subject: code });
      } else if (name !== undefined) {
        await trx.updateTable(LOCALES_TABLE).set({ name, updated_at: this.now() }).where('id', '=', row.id).execute();
        if (name !== row.name)
          await recordAudit(trx, audited, { action: 'locale.update', subject: code, changed: ['name'] });
      }
      if (options.isDefault) {
        await writeDefault(trx, code);
        if (!wasDefault) await recordAudit(trx, audited, { action: 'locale.default.update', subject: code });
      }
    });
    return this.get(code);
  }

  /** A locale as an archive holds it: its documentId, name and timestamps kept (an import). */
  async restore(locale: {
    code: string;
    name?: string;
    documentId?: string;
    createdAt?: unknown;
    updatedAt?: unknown;
    publishedAt?: unknown;
  }): Promise<void> {
    if (!CODE.test(locale.code))
      throw new ValidationError(`Invalid locale code ${JSON.stringify(locale.code)}`, { key: 'code' });
    const { dialect } = this.database;
    const time = (value: unknown) =>
      typeof value === 'string' && !Number.isNaN(Date.parse(value))
        ? dialect.encode('datetime', new Date(value))
        : this.now();
    const values = {
      document_id: locale.documentId ?? createDocumentId(),
      name: locale.name ?? localeName(locale.code),
      created_at: time(locale.createdAt),
      updated_at: time(locale.updatedAt),
      published_at: time(locale.publishedAt),
    };
    await this.database.write(async (trx) => {
      const row = await trx.selectFrom(LOCALES_TABLE).select(['id']).where('code', '=', locale.code).executeTakeFirst();
      if (row) await trx.updateTable(LOCALES_TABLE).set(values).where('id', '=', row.id).execute();
      else
        await trx
          .insertInto(LOCALES_TABLE)
          .values({ ...values, code: locale.code })
          .execute();
    });
    await this.reload();
  }

  /** Removes a locale. The default locale, and the locales `config/plugins` lists, stay. */
  async remove(code: string, configured: string[] = [], audited?: Audited): Promise<LocaleInfo> {
    const locale = await this.get(code);
    if (locale.isDefault)
      throw new ValidationError(`${code} is the default locale; choose another default first`, { key: 'code' });
    if (configured.includes(code))
      throw new ValidationError(`${code} is listed in config/plugins (i18n.config.locales); remove it there first`, {
        key: 'code',
      });
    await this.database.write(async (trx) => {
      const gone = await trx.deleteFrom(LOCALES_TABLE).where('code', '=', code).executeTakeFirst();
      if (Number(gone.numDeletedRows) > 0) await recordAudit(trx, audited, { action: 'locale.delete', subject: code });
    });
    await this.reload();
    return { ...locale, isDefault: false };
  }

  /** `audited`: recorded as `locale.default.update` (when the default changes). */
  async setDefault(code: string, audited?: Audited): Promise<LocaleInfo> {
    await this.get(code);
    const wasDefault = code === this.i18n.defaultLocale;
    await this.database.write(async (trx) => {
      await writeDefault(trx, code);
      if (!wasDefault) await recordAudit(trx, audited, { action: 'locale.default.update', subject: code });
    });
    return this.get(code);
  }

  async get(code: string): Promise<LocaleInfo> {
    const locale = (await this.list()).find((l) => l.code === code);
    if (!locale) throw new NotFoundError(`No locale ${JSON.stringify(code)}`, { code });
    return locale;
  }

  private now(): unknown {
    return this.database.dialect.encode('datetime', new Date());
  }

  private async insert(db: Db, code: string, name: string, documentId = createDocumentId()): Promise<void> {
    const now = this.now();
    await db
      .insertInto(LOCALES_TABLE)
      .values({ document_id: documentId, name, code, created_at: now, updated_at: now, published_at: now })
      .execute();
  }
}

/** The stored default locale (Strapi's core-store row, a JSON string), if any. */
async function readDefault(db: Db): Promise<string | undefined> {
  const row = await db
    .selectFrom(STORE_TABLE)
    .select('value')
    .where('key', '=', DEFAULT_KEY)
    .where('environment', 'is', null)
    .where('tag', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
  if (!row || typeof row.value !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(row.value);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function writeDefault(db: Db, code: string): Promise<void> {
  const value = JSON.stringify(code);
  const updated = await db
    .updateTable(STORE_TABLE)
    .set({ value, type: 'string' })
    .where('key', '=', DEFAULT_KEY)
    .where('environment', 'is', null)
    .where('tag', 'is', null)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    await db
      .insertInto(STORE_TABLE)
      .values({ key: DEFAULT_KEY, value, type: 'string', environment: null, tag: null })
      .execute();
}
