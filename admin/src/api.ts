/**
 * The admin API as the panel calls it: JSON over fetch with the administrator's JWT, errors in
 * Vellum's envelope turned into ApiError (status, message, and the field errors of a ValidationError).
 */
const TOKEN_KEY = 'vellum-admin-token';

export const session = {
  get token(): string | null {
    return sessionStorage.getItem(TOKEN_KEY);
  },
  set(token: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN_KEY);
  },
};

export interface FieldError {
  path: (string | number)[];
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** Called when the server refuses the token (expired, revoked): the app goes back to the login screen. */
let onUnauthorized: () => void = () => undefined;
export const setUnauthorizedHandler = (handler: () => void): void => {
  onUnauthorized = handler;
};

/**
 * Called when the server refuses an action (403): the administrator's roles may have changed since
 * the panel read them, so the panel reads them again.
 */
let onForbidden: () => void = () => undefined;
export const setForbiddenHandler = (handler: () => void): void => {
  onForbidden = handler;
};

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = session.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method: init.method ?? 'GET',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): answered below by the status.
  }
  if (!response.ok) {
    const envelope = (body as { error?: string | { message?: string; details?: { errors?: FieldError[] } } } | null)
      ?.error;
    // The Content-Type Builder's refusals are Strapi's `{"error": "<message>"}`.
    const error = typeof envelope === 'string' ? { message: envelope } : envelope;
    if (response.status === 401 && token) {
      session.clear();
      onUnauthorized();
    }
    if (response.status === 403 && token) onForbidden();
    throw new ApiError(
      response.status,
      error?.message ?? `The server answered ${response.status}`,
      (error && 'details' in error ? error.details?.errors : undefined) ?? [],
    );
  }
  return body as T;
}

/** A query string in Strapi's bracket notation, from nested objects. */
export function queryString(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    if (typeof value === 'object') {
      for (const [name, inner] of Object.entries(value as Record<string, unknown>)) add(`${key}[${name}]`, inner);
      return;
    }
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  };
  for (const [key, value] of Object.entries(params)) add(key, value);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Files sent to the media library (`POST /admin/upload`, multipart); answers the stored files. */
export async function uploadFiles<T>(files: File[]): Promise<T[]> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (session.token) headers.authorization = `Bearer ${session.token}`;
  const response = await fetch('/admin/upload', { method: 'POST', headers, body: form });
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | T[] | null;
  if (!response.ok)
    throw new ApiError(
      response.status,
      (body as { error?: { message?: string } } | null)?.error?.message ?? `The upload failed (${response.status})`,
    );
  return body as T[];
}
