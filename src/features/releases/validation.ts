/**
 * The bodies and query parameters of the releases' routes, checked as Strapi 5.54's yup schemas
 * check them (controllers/validation/release*.ts): the same fields, the same rules and messages
 * ("name is a required field", "timezone is a required field", ...), a ValidationError listing each
 * problem with its path. Vellum checks two things more: a time zone must be one the runtime knows
 * (IANA names: Europe/Paris), and a date must be a date.
 */
import { ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { ReleaseActionType } from './tables.js';

const problem = (path: string, message: string, value?: unknown): FieldError => ({
  path: [path],
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

const fail = (errors: FieldError[]): never => {
  throw ValidationError.fromFieldErrors(errors);
};

export interface ReleaseInput {
  name: string;
  /** Milliseconds since 1970, or null: published by hand. */
  scheduledAt: number | null;
  timezone: string | null;
}

/** Whether `zone` is a time zone the runtime knows. */
function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A release's body: `name` (trimmed, required), `scheduledAt` (a date or null), `timezone` (required with a date); nothing else. */
export function parseRelease(body: unknown): ReleaseInput {
  if (!isPlainObject(body)) return fail([problem('', 'this must be a `object` type')]);
  const errors: FieldError[] = [];
  const unknown = Object.keys(body).filter((key) => !['name', 'scheduledAt', 'timezone'].includes(key));
  if (unknown.length > 0) errors.push(problem('', `this field has unspecified keys: ${unknown.join(', ')}`));
  const name = typeof body.name === 'string' ? body.name.trim() : undefined;
  if (body.name !== undefined && body.name !== null && typeof body.name !== 'string')
    errors.push(problem('name', 'name must be a `string` type', body.name));
  else if (!name) errors.push(problem('name', 'name is a required field'));
  else if (name.length > 255) errors.push(problem('name', 'name must be at most 255 characters', name));
  let scheduledAt: number | null = null;
  const at = body.scheduledAt;
  if (at !== undefined && at !== null) {
    const time = typeof at === 'string' && at.trim() !== '' ? Date.parse(at) : NaN;
    if (Number.isNaN(time))
      errors.push(problem('scheduledAt', 'scheduledAt must be a date and time, such as 2030-01-31T09:00:00.000Z', at));
    else scheduledAt = time;
  }
  let timezone: string | null = null;
  const zone = body.timezone;
  if (zone !== undefined && zone !== null && typeof zone !== 'string')
    errors.push(problem('timezone', 'timezone must be a `string` type', zone));
  else if (typeof zone === 'string' && zone !== '') {
    if (!knownTimeZone(zone))
      errors.push(
        problem('timezone', `timezone ${JSON.stringify(zone)} is not a known time zone, such as Europe/Paris`, zone),
      );
    else timezone = zone;
  } else if (at !== undefined && at !== null) errors.push(problem('timezone', 'timezone is a required field'));
  if (errors.length > 0) return fail(errors);
  return { name: name!, scheduledAt, timezone: scheduledAt === null ? null : timezone };
}

/**
 * `PUT /content-releases/settings`' body, as Strapi's yup schema checks it (strict: nothing is
 * cast, no default filled in): an object of `defaultTimezone` (a string or null) and nothing else;
 * answered as given. Vellum also refuses a zone the runtime does not know, as on a release.
 */
export function parseSettings(body: unknown): Partial<{ defaultTimezone: string | null }> {
  if (!isPlainObject(body))
    return fail([problem('', `this must be a \`object\` type, but the final value was: \`${JSON.stringify(body)}\`.`)]);
  const errors: FieldError[] = [];
  const unknown = Object.keys(body).filter((key) => key !== 'defaultTimezone');
  if (unknown.length > 0) errors.push(problem('', `this field has unspecified keys: ${unknown.join(', ')}`, body));
  const zone = body.defaultTimezone;
  if (zone !== undefined && zone !== null && typeof zone !== 'string')
    errors.push(
      problem(
        'defaultTimezone',
        `defaultTimezone must be a \`string\` type, but the final value was: \`${JSON.stringify(zone)}\`.`,
        zone,
      ),
    );
  else if (typeof zone === 'string' && !knownTimeZone(zone))
    errors.push(
      problem(
        'defaultTimezone',
        `defaultTimezone ${JSON.stringify(zone)} is not a known time zone, such as Europe/Paris`,
        zone,
      ),
    );
  if (errors.length > 0) return fail(errors);
  return 'defaultTimezone' in body ? { defaultTimezone: zone as string | null } : {};
}

export interface ActionInput {
  contentType: string;
  entryDocumentId?: string;
  locale?: string;
  type: ReleaseActionType;
}

const isType = (value: unknown): value is ReleaseActionType => value === 'publish' || value === 'unpublish';

/** An action's body: `contentType` and `type` required, `entryDocumentId` and `locale` texts. */
export function parseAction(body: unknown): ActionInput {
  if (!isPlainObject(body)) return fail([problem('', 'this must be a `object` type')]);
  const errors: FieldError[] = [];
  if (typeof body.contentType !== 'string' || body.contentType === '')
    errors.push(problem('contentType', 'contentType is a required field'));
  const documentId = body.entryDocumentId;
  if (documentId !== undefined && documentId !== null && (typeof documentId !== 'string' || documentId === ''))
    errors.push(problem('entryDocumentId', 'entryDocumentId must be a `string` type', documentId));
  const locale = body.locale;
  if (locale !== undefined && locale !== null && typeof locale !== 'string')
    errors.push(problem('locale', 'locale must be a `string` type', locale));
  if (body.type === undefined || body.type === null) errors.push(problem('type', 'type is a required field'));
  else if (!isType(body.type))
    errors.push(problem('type', 'type must be one of the following values: publish, unpublish', body.type));
  if (errors.length > 0) return fail(errors);
  return {
    contentType: body.contentType as string,
    type: body.type as ReleaseActionType,
    ...(typeof documentId === 'string' ? { entryDocumentId: documentId } : {}),
    ...(typeof locale === 'string' && locale !== '' ? { locale } : {}),
  };
}

/** An action's update: `type` only. */
export function parseActionUpdate(body: unknown): ReleaseActionType {
  const type = isPlainObject(body) ? body.type : undefined;
  if (type === undefined || type === null) return fail([problem('type', 'type is a required field')]);
  if (!isType(type))
    return fail([problem('type', 'type must be one of the following values: publish, unpublish', type)]);
  return type;
}

/** A positive page number or size (Strapi's defaults when absent: page 1, size 10), within bounds. */
export function pageParam(value: unknown, fallback: number, max: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(number) || number < 1)
    return fail([problem(name, `${name} must be a positive integer`, value)]);
  return Math.min(number, max);
}

/** A release or action id in a path: a positive integer; anything else names no release (404 by the caller). */
export function pathId(value: string): number | null {
  return /^\d{1,15}$/.test(value) ? Number(value) : null;
}
