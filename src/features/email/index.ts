/**
 * Email: the service (`strapi.plugin('email').service('email')`) through the configured provider,
 * templates, and the `/api/email` routes.
 */
export { EmailService, startEmail } from './service.js';
export type { EmailConfig } from './config.js';
export type { SendOptions } from './providers.js';
export { isValidEmailTemplate, renderTemplate } from './template.js';
export { registerEmailRoutes } from './routes.js';
