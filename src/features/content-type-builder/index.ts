/** The Content-Type Builder: Strapi's builder API over the project's schema files (see routes.ts). */
export { registerContentTypeBuilderRoutes, type ContentTypeBuilderOptions } from './routes.js';
export { coreFile, type Language } from './api-files.js';
export { newComponentFile } from './component-file.js';
export { managerModels, type ManagerModels } from './manager-models.js';
