/**
 * The users-permissions settings Strapi keeps in its core store (`strapi_core_store_settings`):
 * `plugin_users-permissions_advanced` (registration, email confirmation, redirect URLs, default
 * role) and `plugin_users-permissions_email` (the reset and confirmation email templates), with
 * Strapi's key names and default values. They are read from the database on every use (one indexed
 * statement), so a change made on one node applies on every node at once. At start-up the keys
 * missing from the store are seeded from `config/plugins` (`users-permissions.config.advanced`,
 * `.email`), else Strapi's defaults; keys already stored are kept (the store is the truth after
 * the first start: change it with `vellum settings set` or the admin API).
 */
import type { CoreStore } from '../../core/database/store.js';
import { recordAudit, type Audited } from '../../core/documents/service.js';
import { changedKeys } from './changed-keys.js';
import { META_TABLE } from '../../core/database/tables.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { ProjectError, ValidationError } from '../../core/errors.js';
import { isValidEmailTemplate } from '../email/index.js';
import { isPlainObject } from '../../core/objects.js';

export interface AdvancedSettingsValue {
  /** Stored as Strapi stores it; Vellum's emails are unique whatever it says (one unique index). */
  unique_email: boolean;
  allow_register: boolean;
  email_confirmation: boolean;
  /** The page of the frontend the reset email links to (`<%= URL %>?code=<%= TOKEN %>`). */
  email_reset_password: string | null;
  /** Where `GET /api/auth/email-confirmation` redirects once the email is confirmed (`/` when null). */
  email_confirmation_redirection: string | null;
  /** The type of the role given to registered users. */
  default_role: string;
}

export interface EmailTemplateOptions {
  from: { name: string; email: string };
  response_email: string;
  object: string;
  message: string;
}

export interface EmailTemplate {
  display: string;
  icon: string;
  options: EmailTemplateOptions;
}

export interface EmailTemplates {
  reset_password: EmailTemplate;
  email_confirmation: EmailTemplate;
}

export const DEFAULT_ADVANCED: AdvancedSettingsValue = {
  unique_email: true,
  allow_register: true,
  email_confirmation: false,
  email_reset_password: null,
  email_confirmation_redirection: null,
  default_role: 'authenticated',
};

/** Strapi's default templates, word for word. */
export const DEFAULT_EMAIL_TEMPLATES: EmailTemplates = {
  reset_password: {
    display: 'Email.template.reset_password',
    icon: 'sync',
    options: {
      from: { name: 'Administration Panel', email: 'no-reply@strapi.io' },
      response_email: '',
      object: 'Reset password',
      message: `<p>We heard that you lost your password. Sorry about that!</p>

<p>But don’t worry! You can use the following link to reset your password:</p>
<p><%= URL %>?code=<%= TOKEN %></p>

<p>Thanks.</p>`,
    },
  },
  email_confirmation: {
    display: 'Email.template.email_confirmation',
    icon: 'check-square',
    options: {
      from: { name: 'Administration Panel', email: 'no-reply@strapi.io' },
      response_email: '',
      object: 'Account confirmation',
      message: `<p>Thank you for registering!</p>

<p>You have to confirm your email address. Please click on the link below.</p>

<p><%= URL %>?confirmation=<%= CODE %></p>

<p>Thanks.</p>`,
    },
  },
};

const STORE = { type: 'plugin', name: 'users-permissions' } as const;
const BOOLEAN_KEYS = new Set(['unique_email', 'allow_register', 'email_confirmation']);
const URL_KEYS = new Set(['email_reset_password', 'email_confirmation_redirection']);
const TEMPLATE_NAMES = ['reset_password', 'email_confirmation'] as const;
type TemplateName = (typeof TEMPLATE_NAMES)[number];

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** An absolute http(s) URL; `null` or `''` clear the setting. */
function urlSetting(key: string, value: unknown): string | null {
  if (value === null || value === '') return null;
  if (typeof value === 'string') {
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') return value;
    } catch {
      // answered below
    }
  }
  throw new ValidationError(`${key} must be an absolute http(s) URL, or null`, { key, value });
}

/**
 * Advanced settings changed by `changes` (validated, merged over `current`). `roleExists` checks
 * `default_role`. Unknown keys and wrong types are a 400 naming the key; nothing is stored then.
 */
export async function mergeAdvanced(
  current: AdvancedSettingsValue,
  changes: Record<string, unknown>,
  roleExists: (type: string) => Promise<boolean>,
): Promise<AdvancedSettingsValue> {
  const next: AdvancedSettingsValue = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (BOOLEAN_KEYS.has(key)) {
      if (typeof value !== 'boolean') throw new ValidationError(`${key} must be a boolean`, { key, value });
      (next as unknown as Record<string, unknown>)[key] = value;
    } else if (URL_KEYS.has(key)) {
      (next as unknown as Record<string, unknown>)[key] = urlSetting(key, value);
    } else if (key === 'default_role') {
      if (typeof value !== 'string' || !(await roleExists(value)))
        throw new ValidationError(`default_role must be the type of an existing role`, { key, value });
      next.default_role = value;
    } else {
      throw new ValidationError(
        `Unknown advanced setting "${key}" (known: ${Object.keys(DEFAULT_ADVANCED).join(', ')})`,
        { key },
      );
    }
  }
  return next;
}

/** Templates changed by `changes` (`{ reset_password: { options: { object, message, ... } } }`), validated. */
export function mergeTemplates(current: EmailTemplates, changes: Record<string, unknown>): EmailTemplates {
  const next = clone(current);
  for (const [name, change] of Object.entries(changes)) {
    if (!(TEMPLATE_NAMES as readonly string[]).includes(name)) {
      throw new ValidationError(`Unknown email template "${name}" (known: ${TEMPLATE_NAMES.join(', ')})`, {
        key: name,
      });
    }
    const template = next[name as TemplateName];
    const options = isPlainObject(change) ? change.options : undefined;
    if (!isPlainObject(options)) throw new ValidationError(`${name}.options must be an object`, { key: name });
    for (const [key, value] of Object.entries(options)) {
      const where = `${name}.options.${key}`;
      if (key === 'from') {
        if (!isPlainObject(value))
          throw new ValidationError(`${where} must be an object { name, email }`, { key: where });
        for (const [part, text] of Object.entries(value)) {
          if ((part !== 'name' && part !== 'email') || typeof text !== 'string')
            throw new ValidationError(`${where}.${part}: name and email are strings`, { key: where });
          template.options.from[part] = text;
        }
      } else if (key === 'response_email' || key === 'object' || key === 'message') {
        if (typeof value !== 'string') throw new ValidationError(`${where} must be a string`, { key: where });
        if ((key === 'message' || key === 'object') && !isValidEmailTemplate(value))
          throw new ValidationError('Invalid template', { key: where });
        template.options[key] = value;
      } else {
        throw new ValidationError(`Unknown template option "${where}" (known: from, response_email, object, message)`, {
          key: where,
        });
      }
    }
  }
  return next;
}

/** The stored settings over the defaults (a store written by Strapi or by hand may lack keys). */
function advancedOf(stored: unknown): AdvancedSettingsValue {
  const value = { ...DEFAULT_ADVANCED };
  if (isPlainObject(stored))
    for (const key of Object.keys(DEFAULT_ADVANCED))
      if (stored[key] !== undefined) (value as unknown as Record<string, unknown>)[key] = stored[key];
  return value;
}

function templatesOf(stored: unknown): EmailTemplates {
  const value = clone(DEFAULT_EMAIL_TEMPLATES);
  if (!isPlainObject(stored)) return value;
  for (const name of TEMPLATE_NAMES) {
    const options = isPlainObject(stored[name]) ? (stored[name] as Record<string, unknown>).options : undefined;
    if (isPlainObject(options)) Object.assign(value[name].options, options);
  }
  return value;
}

/** A configured value the store would refuse stops start-up, naming the setting. */
async function asProjectError<T>(section: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ValidationError)
      throw new ProjectError(`users-permissions.config.${section}: ${error.message}`, 'config/plugins');
    throw error;
  }
}

export class AdvancedSettings {
  constructor(
    private readonly store: CoreStore,
    private readonly roleExists: (type: string) => Promise<boolean>,
  ) {}

  async get(): Promise<AdvancedSettingsValue> {
    return advancedOf(await this.store.get({ ...STORE, key: 'advanced' }));
  }

  /** Changes some keys; answers the whole new value. `audited`: the keys changed are recorded as `settings.update`. */
  async update(changes: Record<string, unknown>, audited?: Audited): Promise<AdvancedSettingsValue> {
    const current = await this.get();
    const next = await mergeAdvanced(current, changes, this.roleExists);
    await this.store.set({ ...STORE, key: 'advanced', value: next }, (trx) =>
      recordAudit(trx, audited, {
        action: 'settings.update',
        subject: 'users-permissions.advanced',
        changed: changedKeys(current, next),
      }),
    );
    return next;
  }

  async emailTemplates(): Promise<EmailTemplates> {
    return templatesOf(await this.store.get({ ...STORE, key: 'email' }));
  }

  /** `audited`: the templates changed are recorded as `settings.update`. */
  async updateEmailTemplates(changes: Record<string, unknown>, audited?: Audited): Promise<EmailTemplates> {
    const current = await this.emailTemplates();
    const next = mergeTemplates(current, changes);
    await this.store.set({ ...STORE, key: 'email', value: next }, (trx) =>
      recordAudit(trx, audited, {
        action: 'settings.update',
        subject: 'users-permissions.email-templates',
        changed: changedKeys(current, next),
      }),
    );
    return next;
  }

  /**
   * At start-up, under the schema lock (`store` on the lock's connection): the keys the store
   * lacks get their configured value, else the default. `legacyAllowRegister` is the switch
   * earlier versions of Vellum kept in `vellum_meta` (`auth.allow_register`), moved here once.
   */
  static async seed(
    store: CoreStore,
    db: SystemDb,
    seeds: { advanced: Record<string, unknown>; allowRegister?: boolean; email: Record<string, unknown> },
    roleExists: (type: string) => Promise<boolean>,
  ): Promise<void> {
    const legacy = await db
      .selectFrom(META_TABLE)
      .select('value')
      .where('name', '=', 'auth.allow_register')
      .executeTakeFirst();
    const storedAdvanced = await store.get({ ...STORE, key: 'advanced' });
    const stored = isPlainObject(storedAdvanced) ? storedAdvanced : {};
    const configured: Record<string, unknown> = { ...seeds.advanced };
    if (configured.allow_register === undefined && seeds.allowRegister !== undefined)
      configured.allow_register = seeds.allowRegister;
    if (legacy?.value !== undefined && legacy.value !== null) configured.allow_register = legacy.value !== 'false';
    const missing = Object.fromEntries(Object.entries(configured).filter(([key]) => stored[key] === undefined));
    const advanced = await asProjectError('advanced', () => mergeAdvanced(advancedOf(stored), missing, roleExists));
    const complete = Object.keys(DEFAULT_ADVANCED).every((key) => stored[key] !== undefined);
    if (!complete || Object.keys(missing).length) await store.set({ ...STORE, key: 'advanced', value: advanced });
    if (legacy) await db.deleteFrom(META_TABLE).where('name', '=', 'auth.allow_register').execute();

    const storedEmail = await store.get({ ...STORE, key: 'email' });
    if (!isPlainObject(storedEmail)) {
      const templates = await asProjectError('email', async () => mergeTemplates(DEFAULT_EMAIL_TEMPLATES, seeds.email));
      await store.set({ ...STORE, key: 'email', value: templates });
    }
  }
}
