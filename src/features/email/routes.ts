/**
 * The email plugin's content-API route, `POST /api/email` (Strapi 5.54's `email.send`, permission
 * `plugin::email.email.send`, which no role has until granted): sends the body through the
 * configured provider and answers `{}`.
 *
 * Differences from Strapi on purpose: the body is checked first (`to`, `subject` and `text` are
 * required strings, every other key a string too, as Strapi's route schema declares them; Strapi
 * passes anything to the provider and answers 500 when it fails), and a provider failure is a 503
 * naming the provider's error (the request was fine; it may be sent again), not a 500.
 */
import type { FastifyInstance } from 'fastify';
import type { AccessControl } from '../../api/access.js';
import type { EmailService } from './service.js';
import type { SendOptions } from './providers.js';
import { ApplicationError, ServiceUnavailableError, ValidationError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';

const EMAIL_PERMISSION_UID = 'plugin::email.email';
const REQUIRED = ['to', 'subject', 'text'] as const;

/** The send options of a body, or a 400 naming each key that is missing or not a string. */
function sendOptionsOf(body: unknown): SendOptions {
  if (!isPlainObject(body)) throw new ValidationError('The request body must be a JSON object');
  const errors = [
    ...REQUIRED.filter((key) => body[key] === undefined).map((key) => ({
      path: [key],
      message: `${key} is a required field`,
      name: 'ValidationError',
    })),
    ...Object.entries(body)
      .filter(([, value]) => value !== undefined && typeof value !== 'string')
      .map(([key]) => ({ path: [key], message: `${key} must be a \`string\` type`, name: 'ValidationError' })),
  ];
  if (errors.length) throw ValidationError.fromFieldErrors(errors);
  return body;
}

export function registerEmailRoutes(
  app: FastifyInstance,
  options: { email: EmailService; access: AccessControl; prefix: string },
): void {
  const { email, access, prefix } = options;
  app.post(`${prefix}/email`, async (request) => {
    await access.authorize(request.headers, { uid: EMAIL_PERMISSION_UID, action: 'send' });
    const sendOptions = sendOptionsOf(request.body);
    try {
      await email.send(sendOptions);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // As Strapi: a provider's own 400 is the caller's mistake.
      if (isPlainObject(error) && error.statusCode === 400) throw new ApplicationError(message);
      throw new ServiceUnavailableError(`Couldn't send email: ${message}`);
    }
    return {};
  });
}
