/**
 * What a project's `require('@strapi/strapi')` and `import { factories } from '@strapi/strapi'`
 * get in Vellum (project/modules.ts resolves the name here): Strapi's `factories`.
 */
import { factories } from '../factories.js';

export { factories };
export default { factories };

/** The file of this module, for the resolve hook of ES modules (the same module, never a copy). */
export const moduleUrl = import.meta.url;
