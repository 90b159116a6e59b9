/** Locales: `/api/i18n/locales` (the document service keeps the stored list, core/documents/locales.ts). */
export { registerI18nAdminRoutes, registerI18nRoutes } from './routes.js';
