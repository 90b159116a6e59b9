/** The Content-Type Builder: Strapi's builder API over the project's schema files (see routes.ts). */
export type { ContentTypeBuilderOptions } from './routes.js';
export { registerContentTypeBuilderContentApi } from './reads.js';
/** The builder's admin API and the content manager's models, loaded with the admin API's first request. */
export const loadContentTypeBuilderRoutes = async () => {
  const [routes, models] = await Promise.all([import('./routes.js'), import('./manager-models.js')]);
  return {
    registerContentTypeBuilderRoutes: routes.registerContentTypeBuilderRoutes,
    managerModels: models.managerModels,
  };
};
export { coreFile, type Language } from './api-files.js';
export { newComponentFile } from './component-file.js';
export type { ManagerModels } from './manager-models.js';
