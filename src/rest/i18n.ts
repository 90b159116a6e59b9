import type { FastifyInstance } from 'fastify';

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

/** `GET /api/i18n/locales`: the configured locales, as Strapi's i18n plugin lists them (no envelope). */
export function registerI18nRoutes(app: FastifyInstance, prefix: string, i18n: { defaultLocale: string; locales: string[] }): void {
  const locales = i18n.locales.map((code, index) => ({
    id: index + 1,
    documentId: `locale${code.replace(/[^A-Za-z0-9]/g, '').toLowerCase().padEnd(18, '0')}`.slice(0, 24),
    name: NAMES[code] ?? code,
    code,
    isDefault: code === i18n.defaultLocale,
  }));
  app.get(`${prefix}/i18n/locales`, async () => locales);
}
