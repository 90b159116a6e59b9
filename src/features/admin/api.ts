/** The admin API's routes and the panel's files, loaded with the admin API's first request (index.ts). */
export { registerAdminRoutes } from './routes.js';
export { registerAdminContentRoutes } from './content.js';
export { registerAdminPanel } from './panel.js';
export { registerAdminGuard, requireAction } from './guard.js';
export { registerStrapiContentManager } from './content-manager.js';
export { registerHomepage } from './homepage.js';
export { registerKeyStatistics } from './key-statistics.js';
export { mediaAdministrator } from './media-access.js';
export { registerManagerModels } from './models-routes.js';
