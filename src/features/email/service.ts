/**
 * The email service of a node, Strapi's `strapi.plugin('email').service('email')`: `send(options)`
 * through the configured provider, `sendTemplatedEmail(options, template, data)` and
 * `getProviderSettings()`. Users-permissions sends its reset and confirmation emails through it.
 */
import type { VellumConfig } from '../../core/config/load.js';
import { ValidationError } from '../../core/errors.js';
import { resolveEmailConfig, type EmailConfig } from './config.js';
import { loadEmailProvider, type EmailProvider, type LoadedProvider, type SendOptions } from './providers.js';
import { renderTemplate } from './template.js';

const TEMPLATE_ATTRIBUTES = ['subject', 'text', 'html'] as const;

export class EmailService {
  constructor(
    private readonly config: EmailConfig,
    private readonly loaded: LoadedProvider,
  ) {}

  /** The provider Strapi's bootstrap sets as `strapi.plugin('email').provider`. */
  get provider(): EmailProvider {
    return this.loaded.provider;
  }

  /** Where the provider came from: a package's file, or `built-in:nodemailer` / `built-in:sendmail`. */
  get providerSource(): string {
    return this.loaded.source;
  }

  getProviderSettings(): EmailConfig {
    return this.config;
  }

  send(options: SendOptions): Promise<unknown> {
    return this.loaded.provider.send(options);
  }

  /**
   * Strapi's `sendTemplatedEmail`: `subject`, `text` and `html` of `template` rendered with `data`
   * (`<%= name %>` of a leaf of `data` only; nothing is evaluated), sent with `options`.
   */
  sendTemplatedEmail(
    options: SendOptions,
    template: Record<string, unknown>,
    data: Record<string, unknown>,
  ): Promise<unknown> {
    const missing = TEMPLATE_ATTRIBUTES.filter((attribute) => !(attribute in (template ?? {})));
    if (missing.length)
      throw new ValidationError(`Following attributes are missing from your email template : ${missing.join(', ')}`);
    const rendered: Record<string, string> = {};
    for (const attribute of TEMPLATE_ATTRIBUTES) {
      const layout = template[attribute];
      if (typeof layout === 'string' && layout !== '')
        rendered[attribute] = renderTemplate(layout, data ?? {}, attribute === 'html');
    }
    return this.send({ ...options, ...rendered });
  }

  /** Closes the provider's connections (built-in providers; a package's `close` when it has one). */
  close(): void {
    this.loaded.provider.close?.();
  }
}

/** The node's email service, its provider loaded from `config/plugins` (a missing provider stops start-up). */
export async function startEmail(config: VellumConfig): Promise<EmailService> {
  const emailConfig = resolveEmailConfig(config.plugins);
  return new EmailService(emailConfig, await loadEmailProvider(emailConfig, config.projectDir));
}
