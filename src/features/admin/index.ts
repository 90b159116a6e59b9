/**
 * The admin panel's server side: its API under /admin (sign-in, API tokens, users and roles of the
 * content API, settings), the content manager's routes and the panel's files.
 */
export { registerAdminRoutes } from './routes.js';
export { registerAdminContentRoutes } from './content.js';
export { registerAdminPanel } from './panel.js';
export { registerAdminGuard, requireAction } from './guard.js';
export { registerStrapiContentManager } from './content-manager.js';
export { registerHomepage } from './homepage.js';
export { registerKeyStatistics } from './key-statistics.js';
export { mediaAdministrator } from './media-access.js';
export { withPreviewFrames } from './preview.js';
export { registerManagerModels, type ContentManagerModels } from './models-routes.js';
