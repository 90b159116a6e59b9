/**
 * Moving a project in and out: `vellum import --file` (Strapi's export archive), `vellum import
 * strapi --url --token` (a running Strapi, over its API), `vellum export --file` (the archive
 * format, for `strapi import` or another Vellum).
 */
export { exportArchive } from './export-archive.js';
export { importArchive } from './import-archive.js';
export { importFromStrapi } from './import-api.js';
export type { TransferProject } from './project.js';
export { archiveSchemas } from './strapi-schemas.js';
export { Progress, type ProgressOutput } from './progress.js';
export type { Summary } from './summary.js';
