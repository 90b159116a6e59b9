/**
 * Strapi's email templates, rendered without evaluating anything: `<%= NAME %>` and
 * `<%= NAME.path %>` are replaced by the value at that path of the data, and only when the path
 * names a leaf of the data (Strapi builds the same "strict interpolation" from `keysDeep(data)`).
 * Everything else, `<% code %>` and `${...}` included, stays as written. A null or undefined
 * value renders as nothing, any other as `String(value)` (lodash's `_.template` does the same).
 */

/** The paths of every leaf of `data` (`USER.username`, `URL`), as Strapi's `keysDeep`. */
export function keysDeep(data: unknown, path: string[] = []): string[] {
  if (data === null || (typeof data !== 'object' && typeof data !== 'function')) return [path.join('.')];
  return Object.entries(data as Record<string, unknown>).flatMap(([key, value]) => keysDeep(value, [...path, key]));
}

function valueAt(data: unknown, path: string): unknown {
  let value: unknown = data;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * `layout` with every `<%= path %>` that names a leaf of `data` replaced by its value; `html`
 * escapes the values (an HTML part: a username is text, never markup; Strapi inserts it as is).
 */
export function renderTemplate(layout: string, data: Record<string, unknown>, html = false): string {
  const names = keysDeep(data).filter((name) => name !== '');
  if (names.length === 0) return layout;
  // Longest first, so that `URL_X` is never read as `URL`.
  names.sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`<%=\\s*(${names.map(escapeRegExp).join('|')})\\s*%>`, 'g');
  return layout.replace(pattern, (_match, name: string) => {
    const value = valueAt(data, name);
    const text = value === null || value === undefined ? '' : String(value);
    return html ? escapeHtml(text) : text;
  });
}

/** The variables an email template of users-permissions may name (Strapi's list). */
const AUTHORIZED_KEYS = new Set([
  'URL',
  'ADMIN_URL',
  'SERVER_URL',
  'CODE',
  'USER',
  'USER.email',
  'USER.username',
  'TOKEN',
]);

/**
 * Strapi's check of a users-permissions template before it is stored: no `<% ... %>` evaluation
 * block, no `${...}`, and every `<%= ... %>` names an authorized variable.
 */
export function isValidEmailTemplate(template: string): boolean {
  if (/<%[^=]([^<>%]*)%>/m.test(template) || /\${([^{}]*)}/m.test(template)) return false;
  for (const match of template.matchAll(/<%=([^<>%=]*)%>/g)) {
    if (!AUTHORIZED_KEYS.has(match[1]!.trim())) return false;
  }
  return true;
}
