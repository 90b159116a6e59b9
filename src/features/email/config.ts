/**
 * The email plugin's configuration, as Strapi reads it: `config/plugins` ->
 * `email: { config: { provider, providerOptions, settings: { defaultFrom, defaultReplyTo } } }`.
 * Strapi's defaults: the `sendmail` provider, from `Strapi <no-reply@strapi.io>`.
 */
import { z } from 'zod';
import { asRecord } from '../../core/objects.js';
import { parseConfig } from '../../core/config/validate.js';

export interface EmailSettings {
  defaultFrom: string;
  defaultReplyTo?: string;
  [key: string]: unknown;
}

export interface EmailConfig {
  /** `nodemailer`, `sendmail`, or another provider's name or package. */
  provider: string;
  providerOptions: Record<string, unknown>;
  settings: EmailSettings;
}

const DEFAULT_FROM = 'Strapi <no-reply@strapi.io>';

const schema = z.object({
  provider: z.string().min(1).default('sendmail'),
  providerOptions: z.record(z.string(), z.unknown()).default({}),
  settings: z
    .object({ defaultFrom: z.string().default(DEFAULT_FROM), defaultReplyTo: z.string().optional() })
    .catchall(z.unknown())
    .default({ defaultFrom: DEFAULT_FROM }),
});

export function resolveEmailConfig(plugins: Record<string, unknown>): EmailConfig {
  const raw = asRecord(asRecord(plugins.email).config);
  const parsed = parseConfig(schema, raw, 'config/plugins', 'email.config.');
  return {
    provider: parsed.provider,
    providerOptions: parsed.providerOptions,
    settings: parsed.settings as EmailSettings,
  };
}
