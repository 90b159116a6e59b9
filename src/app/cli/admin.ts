/**
 * The administration commands: they open the project's database (synchronising the schema first,
 * as a starting node does), act through the same services as the admin API, and close it.
 *
 *   vellum admin create --email a@b.c --password ...
 *   vellum admin reset-password --email a@b.c --password ...
 *   vellum token create --name ci --type read-only|full-access|custom [--permissions a,b] [--lifespan-days 30]
 *   vellum token list | vellum token revoke <id|name>
 *   vellum permissions grant|revoke <role> <action...> | vellum permissions list
 *   vellum user create --username u --email e --password p [--role authenticated] | vellum user block|unblock <id>
 *   vellum registration open|close
 *   vellum settings get [key] | vellum settings set <key> <value>
 *   vellum locale list | add <code> [--name n] [--default] | remove <code> | default <code>
 *   vellum webhook create --name n --url u --events entry.create,... [--header 'K: V'] [--secret s] [--disabled]
 *   vellum webhook list | vellum webhook delete <id>
 *   vellum schedule list [--state pending] | vellum schedule cancel <id>
 */
import { parseArgs } from 'node:util';
import { adminIdentity, resolveAuthConfig, startAuth, type Auth } from '../../features/users-permissions/index.js';
import { AuditLog } from '../../features/audit/index.js';
import type { Audited } from '../../core/documents/service.js';
import type { TokenType } from '../../features/api-tokens/index.js';
import { builtInTypes } from '../built-ins.js';
import { commandDocuments } from '../command-documents.js';
import { loadConfig } from '../../core/config/load.js';
import { connectDatabase } from '../../core/database/connection.js';
import type { DocumentService } from '../../core/documents/service.js';
import { createPasswords } from '../../core/passwords.js';
import { ValidationError } from '../../core/errors.js';
import type { Database } from '../../core/database/connection.js';
import { ScheduledActions, WebhookStore } from '../../features/events/index.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import { loadProjectForCommand } from '../../strapi/index.js';
import type { CliIo } from './io.js';

export const ADMIN_USAGE = `  vellum admin create --email <email> --password <password> [--project dir]
  vellum admin reset-password --email <email> --password <password>   (or VELLUM_ADMIN_PASSWORD; ends their sessions)
  vellum token create --name <name> --type read-only|full-access|custom [--permissions a,b] [--lifespan-days n]
  vellum token list | vellum token revoke <id|name>
  vellum permissions list | vellum permissions grant|revoke <role> <action> [action...]
  vellum user create --username <u> --email <e> --password <p> [--role <type>]
  vellum user block|unblock <id>
  vellum registration open|close
  vellum settings get [key]                  advanced settings, email templates and login providers (JSON; providers.<name>.<setting>)
  vellum settings set <key> <value>          e.g. email_confirmation true, email_reset_password https://app.example/reset,
                                             email.reset_password.object 'Reset your password' (true/false/null parsed)
  vellum locale list | vellum locale add <code> [--name <name>] [--default] | vellum locale remove|default <code>
  vellum webhook create --name <name> --url <url> --events entry.create,entry.update,... [--header 'Name: value'] [--secret <s>] [--disabled]
  vellum webhook list | vellum webhook delete <id>
  vellum schedule list [--state pending|done|failed|cancelled] | vellum schedule cancel <id>`;

interface AdminContext {
  database: Database;
  documents: DocumentService;
  /** The locales config/plugins lists (they stay). */
  configuredLocales: string[];
  /** `server.webhooks.allowPrivateAddresses`, as resolved (features/events/targets.ts). */
  allowPrivateWebhooks: boolean;
  /** The variables the configuration was read with (the project's .env included). */
  env: NodeJS.ProcessEnv;
}

async function withAuth<T>(
  projectDir: string,
  io: CliIo,
  run: (auth: Auth, context: AdminContext) => Promise<T>,
): Promise<T> {
  const config = await loadConfig(projectDir, { env: io.env, cwd: io.cwd });
  const configuredLocales = [...config.i18n.locales];
  const { schema } = loadProjectSchema(projectDir, builtInTypes(projectDir));
  const authConfig = resolveAuthConfig(config);
  for (const warning of authConfig.warnings) io.err(`Warning: ${warning}`);
  // The project's routes decide which actions exist (its custom ones; none for a type without a
  // router); its register, which custom fields are (before the tables are checked).
  const project = await loadProjectForCommand(config, schema, []);
  const database = await connectDatabase(config.database);
  const passwords = createPasswords(config.server.passwords);
  try {
    const documents = await commandDocuments(database, schema, config, passwords);
    return await run(
      await startAuth(database, documents, config, authConfig, { actions: project.actions, routed: project.routed }),
      {
        database,
        documents,
        configuredLocales,
        allowPrivateWebhooks: config.server.webhooks.allowPrivateAddresses,
        env: config.env,
      },
    );
  } finally {
    await passwords.close();
    await database.close();
  }
}

/** `--header 'Name: value'` (repeatable) as a header map. */
function headerMap(values: string[] | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values ?? []) {
    const colon = value.indexOf(':');
    if (colon <= 0) throw new ValidationError(`--header ${JSON.stringify(value)} must be written 'Name: value'`);
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

const OPTIONS = {
  project: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  username: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  type: { type: 'string' },
  description: { type: 'string' },
  permissions: { type: 'string' },
  'lifespan-days': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  header: { type: 'string', multiple: true },
  secret: { type: 'string' },
  disabled: { type: 'boolean' },
  state: { type: 'string' },
  default: { type: 'boolean' },
} as const;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new ValidationError(`--${flag} is required`);
  return value;
}

/** A value on the command line: `true`, `false`, `null`, else the text. */
const parseValue = (text: string): unknown =>
  text === 'true' ? true : text === 'false' ? false : text === 'null' ? null : text;

/**
 * `email.reset_password.object` names a template option (`email.<template>.<option>`, `from.name`,
 * `from.email`); any other key an advanced setting.
 */
function templateKey(key: string): { name: string; path: string[] } | undefined {
  const [head, name, ...path] = key.split('.');
  return head === 'email' && name && path.length ? { name, path } : undefined;
}

/** `providers.github.enabled` names a login provider's setting. */
function providerKey(key: string): { name: string; setting: string } | undefined {
  const [head, name, setting, ...more] = key.split('.');
  return head === 'providers' && name && setting && !more.length ? { name, setting } : undefined;
}

function settingValue(all: { advanced: object; email: object; providers: object }, key: string): unknown {
  const template = templateKey(key);
  const provider = providerKey(key);
  const path = template
    ? ['email', template.name, 'options', ...template.path]
    : provider
      ? ['providers', provider.name, provider.setting]
      : ['advanced', key];
  let value: unknown = all;
  for (const part of path)
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  if (value === undefined) throw new ValidationError(`unknown setting "${key}"`);
  return value;
}

async function setSetting(auth: Auth, key: string, value: unknown, cli: Audited): Promise<void> {
  const provider = providerKey(key);
  if (provider) {
    await auth.providers.update({ [provider.name]: { [provider.setting]: value } }, cli);
    return;
  }
  const template = templateKey(key);
  if (!template) {
    await auth.advanced.update({ [key]: value }, cli);
    return;
  }
  const options = template.path.reduceRight<unknown>((inner, part) => ({ [part]: inner }), value);
  await auth.advanced.updateEmailTemplates({ [template.name]: { options } }, cli);
}

/** Runs an admin command on the project `--project` names (`projectDir` checks it; the current folder without it). */
export async function runAdminCommand(
  argv: string[],
  projectDir: (named: string | undefined) => string,
  io: CliIo,
): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [group, verb, ...rest] = positionals;
  const project = projectDir(values.project);
  const print = (value: unknown) => io.out(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  await withAuth(project, io, async (auth, { database, documents, configuredLocales, allowPrivateWebhooks, env }) => {
    // The command's changes, recorded in the audit log as Vellum's own (no administrator).
    const cli: Audited = { trail: new AuditLog(database, adminIdentity), actor: null };
    switch (`${group} ${verb}`) {
      case 'admin create': {
        const admin = await auth.admins.create(
          required(values.email, 'email'),
          required(values.password ?? env.VELLUM_ADMIN_PASSWORD, 'password'),
          cli,
        );
        return print(`Administrator ${admin.email} created. Log in with POST /admin/login.`);
      }
      // Strapi's `admin:reset-user-password`: for an administrator who cannot receive email.
      case 'admin reset-password': {
        const email = required(values.email, 'email');
        await auth.admins.setPasswordByEmail(
          email,
          required(values.password ?? env.VELLUM_ADMIN_PASSWORD, 'password'),
          cli,
        );
        return print(
          `Password of ${email.trim().toLowerCase()} changed; their sessions ended. Log in at /admin with it.`,
        );
      }
      case 'token create': {
        const type = required(values.type, 'type') as TokenType;
        const days = values['lifespan-days'] ? Number(values['lifespan-days']) : undefined;
        if (days !== undefined && !(days > 0)) throw new ValidationError('--lifespan-days must be a positive number');
        const permissions =
          type === 'custom'
            ? auth.expand(
                required(values.permissions, 'permissions')
                  .split(',')
                  .map((a) => a.trim()),
              )
            : undefined;
        const { token, accessKey } = await auth.tokens.create(
          {
            name: required(values.name, 'name'),
            type,
            description: values.description ?? null,
            lifespan: days ? Math.round(days * 86_400_000) : null,
            permissions,
          },
          cli,
        );
        print(`API token "${token.name}" (${token.type}, id ${token.id}) created. It is shown only once:`);
        return print(accessKey);
      }
      case 'token list':
        return print(await auth.tokens.list());
      case 'token revoke':
        return print(
          `Revoked API token "${(await auth.tokens.revoke(required(rest[0], 'token id or name'), cli)).name}".`,
        );
      case 'permissions list':
        return print((await auth.roles.list()).map(({ type, name, permissions }) => ({ type, name, permissions })));
      case 'permissions grant':
      case 'permissions revoke': {
        const role = await auth.roles.get(required(rest[0], 'role'));
        const actions = auth.expand(rest.slice(1).length ? rest.slice(1) : [required(undefined, 'action')]);
        if (verb === 'grant') await auth.roles.grant(role.documentId, actions, undefined, cli);
        else await auth.roles.revoke(role.documentId, actions, cli);
        return print(`${verb === 'grant' ? 'Granted' : 'Revoked'} for ${role.name}: ${actions.join(', ')}`);
      }
      case 'user create': {
        const user = await auth.users.create({
          username: required(values.username, 'username'),
          email: required(values.email, 'email'),
          password: required(values.password, 'password'),
          role: values.role,
        });
        return print(`User ${user.username} created (id ${user.id}).`);
      }
      case 'user block':
      case 'user unblock': {
        const user = await auth.users.setBlocked(Number(required(rest[0], 'user id')), verb === 'block');
        return print(`User ${user.username} ${verb === 'block' ? 'blocked' : 'unblocked'}.`);
      }
      case 'locale list':
        return print((await documents.locales.list()).map(({ code, name, isDefault }) => ({ code, name, isDefault })));
      case 'locale add': {
        const locale = await documents.locales.add(
          required(rest[0], 'locale code'),
          values.name,
          { isDefault: values.default === true },
          cli,
        );
        return print(`Locale ${locale.code} (${locale.name}) is available${locale.isDefault ? ', the default' : ''}.`);
      }
      case 'locale remove':
        return print(
          `Locale ${(await documents.locales.remove(required(rest[0], 'locale code'), configuredLocales, cli)).code} removed (documents written in it stay in the database).`,
        );
      case 'locale default':
        return print(
          `${(await documents.locales.setDefault(required(rest[0], 'locale code'), cli)).code} is the default locale.`,
        );
      case 'settings get': {
        const all = {
          advanced: await auth.advanced.get(),
          email: await auth.advanced.emailTemplates(),
          providers: await auth.providers.get(),
        };
        return print(rest[0] === undefined ? all : settingValue(all, rest[0]));
      }
      case 'settings set': {
        const key = required(rest[0], 'setting key');
        if (rest[1] === undefined) throw new ValidationError('settings set needs a value');
        await setSetting(auth, key, parseValue(rest[1]), cli);
        return print(
          `${key} = ${JSON.stringify(settingValue({ advanced: await auth.advanced.get(), email: await auth.advanced.emailTemplates(), providers: await auth.providers.get() }, key))}`,
        );
      }
      case 'registration open':
      case 'registration close':
        await auth.setRegistrationOpen(verb === 'open', cli);
        return print(`Registration is ${verb === 'open' ? 'open' : 'closed'}.`);
      case 'webhook create': {
        const webhook = await new WebhookStore(database, allowPrivateWebhooks).create(
          {
            name: required(values.name, 'name'),
            url: required(values.url, 'url'),
            events: required(values.events, 'events')
              .split(',')
              .map((event) => event.trim())
              .filter(Boolean),
            headers: headerMap(values.header),
            isEnabled: values.disabled !== true,
            ...(values.secret ? { secret: values.secret } : {}),
          },
          cli,
        );
        return print(
          `Webhook "${webhook.name}" created (id ${webhook.id}): ${webhook.events.join(', ')} to ${webhook.url}`,
        );
      }
      case 'webhook list':
        return print(await new WebhookStore(database, allowPrivateWebhooks).list());
      case 'webhook delete':
        return print(
          `Deleted webhook "${(await new WebhookStore(database, allowPrivateWebhooks).delete(required(rest[0], 'webhook id'), cli)).name}".`,
        );
      case 'schedule list':
      case 'schedule cancel': {
        const schedules = new ScheduledActions(database, documents, () => undefined);
        if (verb === 'list') return print(await schedules.list({ state: values.state }));
        const cancelled = await schedules.cancel(Number(required(rest[0], 'scheduled action id')), cli);
        return print(
          `Cancelled the ${cancelled.action} of ${cancelled.uid} ${cancelled.documentId} scheduled at ${cancelled.scheduledAt}.`,
        );
      }
      default:
        throw new ValidationError(`unknown command "${positionals.join(' ')}"\n${ADMIN_USAGE}`);
    }
  });
  return 0;
}
