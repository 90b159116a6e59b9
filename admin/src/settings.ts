/**
 * The settings screens' logic without React: locale codes and their names, a webhook's headers
 * as editable rows and its events in Strapi's groups, the field an API error is about.
 */
import type { ApiError } from './api.ts';

/** A locale code as the API accepts it (`src/core/documents/locales.ts`): `en`, `fr-CA`, `zh-Hant-TW`. */
export const LOCALE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** Common ISO codes offered when adding a locale (any valid code is accepted besides these). */
const COMMON_CODES = [
  'af',
  'ar',
  'ar-EG',
  'ar-SA',
  'bg',
  'bn',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'de-AT',
  'de-CH',
  'el',
  'en',
  'en-AU',
  'en-CA',
  'en-GB',
  'en-IE',
  'en-IN',
  'en-NZ',
  'en-US',
  'es',
  'es-AR',
  'es-ES',
  'es-MX',
  'et',
  'eu',
  'fa',
  'fi',
  'fil',
  'fr',
  'fr-BE',
  'fr-CA',
  'fr-CH',
  'fr-FR',
  'ga',
  'gl',
  'he',
  'hi',
  'hr',
  'hu',
  'hy',
  'id',
  'is',
  'it',
  'ja',
  'ka',
  'kk',
  'km',
  'ko',
  'lt',
  'lv',
  'mk',
  'ms',
  'mt',
  'nb',
  'nl',
  'nl-BE',
  'nn',
  'pl',
  'pt',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sl',
  'sq',
  'sr',
  'sv',
  'sw',
  'ta',
  'th',
  'tr',
  'uk',
  'ur',
  'uz',
  'vi',
  'zh',
  'zh-Hans',
  'zh-Hant',
  'zh-CN',
  'zh-TW',
  'zh-HK',
];

/** A code's English name (`de` → German, `fr-CA` → Canadian French), or the code when the browser does not know it. */
export function localeName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code; // not a well-formed BCP 47 tag for Intl (the API may still take it)
  }
}

/** The codes to offer, `name (code)`, without those already added. */
export function localeOptions(taken: string[]): { value: string; label: string }[] {
  const have = new Set(taken.map((code) => code.toLowerCase()));
  return COMMON_CODES.filter((code) => !have.has(code.toLowerCase())).map((code) => ({
    value: code,
    label: `${localeName(code)} (${code})`,
  }));
}

export interface HeaderRow {
  key: string;
  value: string;
}

/** A webhook's headers as rows to edit (one empty row when there are none). */
export function headerRows(headers: Record<string, string>): HeaderRow[] {
  const rows = Object.entries(headers).map(([key, value]) => ({ key, value }));
  return rows.length ? rows : [{ key: '', value: '' }];
}

/** Rows back to the API's object: rows without a name are left out, names trimmed. */
export function headersOf(rows: HeaderRow[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const row of rows) if (row.key.trim() !== '') headers[row.key.trim()] = row.value;
  return headers;
}

/** The webhook events the API accepts (WEBHOOK_EVENTS), in Strapi's groups. */
export const EVENT_GROUPS: { label: string; events: { value: string; label: string }[] }[] = [
  {
    label: 'Entry',
    events: [
      { value: 'entry.create', label: 'Create' },
      { value: 'entry.update', label: 'Update' },
      { value: 'entry.delete', label: 'Delete' },
      { value: 'entry.publish', label: 'Publish' },
      { value: 'entry.unpublish', label: 'Unpublish' },
      { value: 'entry.draft-discard', label: 'Discard draft' },
    ],
  },
  {
    label: 'Media',
    events: [
      { value: 'media.create', label: 'Create' },
      { value: 'media.update', label: 'Update' },
      { value: 'media.delete', label: 'Delete' },
    ],
  },
  // Strapi shows it with its releases' license; Vellum's releases are free.
  { label: 'Releases', events: [{ value: 'releases.publish', label: 'Publish' }] },
];

/**
 * An API error by the form field it is about: the field errors' first path segment (a webhook's
 * `url`, `headers.X-Token` → `headers`), or, for an error naming no field, the message alone.
 */
export function fieldMessages(error: Pick<ApiError, 'message' | 'errors'>): {
  fields: Record<string, string>;
  general?: string;
} {
  const fields: Record<string, string> = {};
  for (const item of error.errors) {
    const key = String(item.path[0] ?? '');
    if (key && !fields[key]) fields[key] = item.message;
  }
  return Object.keys(fields).length ? { fields } : { fields, general: error.message };
}

/** Milliseconds as a short duration (`85 ms`, `1.2 s`). */
export const duration = (ms: number | null): string =>
  ms === null ? '—' : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;

/**
 * The setting an API message is about, for the errors that name it at their start rather than in
 * `details.errors` (the users-permissions settings: `allow_register must be a boolean`,
 * `github.key must be a string`, `reset_password.options.object must be a string`): the first of
 * the dotted name leading the message that is one of `keys`; undefined when it names none.
 */
export function settingOf<K extends string>(message: string, keys: readonly K[]): K | undefined {
  const lead = /^([\w-]+(?:\.[\w-]+)*)/.exec(message)?.[1];
  if (!lead) return undefined;
  return lead.split('.').find((part): part is K => (keys as readonly string[]).includes(part));
}
