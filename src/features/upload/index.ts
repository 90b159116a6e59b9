/** The media library: `/api/upload` routes, the file content type, storage providers. */
export { registerUploadRoutes, type UploadRoutes } from './routes.js';
export { resolveUploadConfig, type UploadConfig } from './config.js';
export { uploadFileType } from './file-type.js';
export { loadProvider, type UploadProvider } from './providers/index.js';
