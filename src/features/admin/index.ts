/**
 * The admin panel's server side: its API under /admin (sign-in, API tokens, users and roles of the
 * content API, settings), the content manager's routes and the panel's files.
 */
export { withPreviewFrames } from './preview.js';
/**
 * The routes and the panel load with the admin API's first request (app/admin-api.ts): at start
 * they were ~40% of a start's routes and ~25% of its code (docs/performance.md "Start-up and memory").
 */
export const loadAdminApi = () => import('./api.js');
export type { ContentManagerModels } from './models-routes.js';
