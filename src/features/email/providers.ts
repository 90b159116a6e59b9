/**
 * Email providers in Strapi's shape: a module whose `init(providerOptions, settings)` returns
 * `{ send(options) }`. The configured name is resolved from the project as Strapi resolves it
 * (`nodemailer` -> `@strapi/provider-email-nodemailer`, else the name itself as a package or a
 * path), so Strapi's provider packages installed in the project load unchanged. Without such a
 * package, `nodemailer` and `sendmail` are Vellum's own, over nodemailer: SMTP with the same
 * `providerOptions` (nodemailer's transport options), and the machine's `sendmail` binary.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type Nodemailer from 'nodemailer';
import { ProjectError } from '../../core/errors.js';
import type { EmailConfig, EmailSettings } from './config.js';

/** What `send` takes: Strapi's fields (`to`, `from`, `subject`, `text`, `html`, ...) and nodemailer's. */
export type SendOptions = Record<string, unknown>;

export interface EmailProvider {
  send(options: SendOptions): Promise<unknown>;
  close?(): void;
}

interface ProviderModule {
  init(providerOptions: Record<string, unknown>, settings: EmailSettings): EmailProvider;
}

export interface LoadedProvider {
  provider: EmailProvider;
  /** The file of the provider package, or `built-in:<name>`. */
  source: string;
}

/** The message fields passed on to nodemailer, as Strapi's nodemailer provider passes them. */
const MESSAGE_FIELDS = [
  'to',
  'cc',
  'bcc',
  'sender',
  'subject',
  'attachments',
  'alternatives',
  'headers',
  'priority',
  'messageId',
  'date',
  'inReplyTo',
  'references',
  'textEncoding',
  'encoding',
  'list',
  'envelope',
  'icalEvent',
  'raw',
];

/** Vellum's provider over a nodemailer transport, sending as `@strapi/provider-email-nodemailer` does. */
function nodemailerProvider(transportOptions: Record<string, unknown>, settings: EmailSettings): EmailProvider {
  // nodemailer loads with the first message sent (a start, or a project that sends none, never
  // needs it: ~25 ms of a start's CPU, docs/performance.md "Start-up and memory").
  let transporter: ReturnType<typeof Nodemailer.createTransport> | undefined;
  const transport = () =>
    (transporter ??= (createRequire(import.meta.url)('nodemailer') as typeof Nodemailer).createTransport(
      transportOptions as Parameters<typeof Nodemailer.createTransport>[0],
    ));
  return {
    send(options) {
      const message: Record<string, unknown> = {};
      for (const field of MESSAGE_FIELDS) if (options[field] !== undefined) message[field] = options[field];
      message.from = options.from ?? settings.defaultFrom;
      message.replyTo = options.replyTo ?? settings.defaultReplyTo;
      message.text = options.text ?? options.html;
      message.html = options.html ?? options.text;
      // Never read local files or fetch URLs that attachments name (as Strapi's provider forces).
      message.disableFileAccess = true;
      message.disableUrlAccess = true;
      return transport().sendMail(message);
    },
    close: () => transporter?.close(),
  };
}

const BUILT_IN: Record<string, ProviderModule> = {
  nodemailer: { init: (options, settings) => nodemailerProvider(options, settings) },
  // nodemailer's sendmail transport: the machine's `sendmail` binary (`providerOptions.path`).
  sendmail: {
    init: (options, settings) => nodemailerProvider({ newline: 'unix', ...options, sendmail: true }, settings),
  },
};

function moduleOf(loaded: unknown): ProviderModule | undefined {
  const candidates = [loaded, (loaded as { default?: unknown } | null)?.default];
  return candidates.find(
    (candidate): candidate is ProviderModule => typeof (candidate as ProviderModule | null)?.init === 'function',
  );
}

/** The configured provider, initialised with its options and settings (at start-up, as Strapi's bootstrap). */
export async function loadEmailProvider(config: EmailConfig, projectDir: string): Promise<LoadedProvider> {
  const name = config.provider;
  const require = createRequire(join(projectDir, 'package.json'));
  for (const candidate of [`@strapi/provider-email-${name.toLowerCase()}`, name]) {
    let path: string;
    try {
      path = require.resolve(candidate);
    } catch {
      continue;
    }
    let module: ProviderModule | undefined;
    try {
      module = moduleOf(await import(pathToFileURL(path).href));
    } catch (error) {
      throw new ProjectError(`Could not load email provider "${name}": ${(error as Error).message}`, 'config/plugins');
    }
    if (!module) throw new ProjectError(`email provider ${candidate} does not export init()`, 'config/plugins');
    return { provider: module.init(config.providerOptions, config.settings), source: path };
  }
  const builtIn = BUILT_IN[name.toLowerCase()];
  if (!builtIn)
    throw new ProjectError(
      `Could not load email provider "${name}" (tried @strapi/provider-email-${name.toLowerCase()}, ${name})`,
      'config/plugins',
    );
  return { provider: builtIn.init(config.providerOptions, config.settings), source: `built-in:${name.toLowerCase()}` };
}
