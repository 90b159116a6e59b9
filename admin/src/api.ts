/**
 * The admin API as the panel calls it: JSON over fetch with the administrator's JWT, errors in
 * Vellum's envelope turned into ApiError (status, message, and the field errors of a ValidationError).
 */
const TOKEN_KEY = 'vellum-admin-token';
const DEVICE_KEY = 'vellum-admin-device';

/** A random UUID (crypto.randomUUID exists only in secure contexts: a panel over plain HTTP has none). */
function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** This browser's device id (Strapi's `deviceId`): logging out ends this browser's sessions only. */
export function deviceId(): string {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!id) {
    id = randomUuid();
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

/**
 * The access token lives in the tab (30 minutes); the session in the httpOnly refresh cookie every
 * tab shares ("remember me": it outlives the browser). A tab without a token, or whose token
 * expired, trades the cookie for a new one; of several at once, one request goes.
 */
let renewing: Promise<string | null> | null = null;

async function exchangeCookie(): Promise<Response> {
  return fetch('/admin/access-token', { method: 'POST', headers: { accept: 'application/json' } });
}

export function renewSession(): Promise<string | null> {
  renewing ??= (async () => {
    try {
      let response = await exchangeCookie();
      // Another tab renewed with the same cookie a moment before: its answer set the next cookie.
      if (response.status === 401) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        response = await exchangeCookie();
      }
      if (!response.ok) return null;
      const token = ((await response.json()) as { data: { token: string } }).data.token;
      session.set(token);
      return token;
    } catch {
      return null;
    } finally {
      renewing = null;
    }
  })();
  return renewing;
}

/** A request with the tab's access token; a 401 renews it from the cookie once and sends the request again. */
async function authorizedFetch(
  path: string,
  init: RequestInit & { headers: Record<string, string> },
): Promise<Response> {
  const send = (token: string | null) =>
    fetch(path, { ...init, headers: token ? { ...init.headers, authorization: `Bearer ${token}` } : init.headers });
  const token = session.token;
  const response = await send(token);
  if (response.status !== 401 || !token) return response;
  const fresh = await renewSession();
  return fresh ? send(fresh) : response;
}

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
    /** The error's `details` as the server sent them. */
    readonly details: Record<string, unknown> = {},
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
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await authorizedFetch(path, {
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
    const envelope = (
      body as {
        error?: string | { message?: string; details?: { errors?: FieldError[]; [key: string]: unknown } };
      } | null
    )?.error;
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
      (error && 'details' in error ? error.details : undefined) ?? {},
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
  const response = await authorizedFetch('/admin/upload', {
    method: 'POST',
    headers: { accept: 'application/json' },
    body: form,
  });
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | T[] | null;
  if (!response.ok)
    throw new ApiError(
      response.status,
      (body as { error?: { message?: string } } | null)?.error?.message ?? `The upload failed (${response.status})`,
    );
  return body as T[];
}
