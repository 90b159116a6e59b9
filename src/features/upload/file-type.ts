import type { RawSchemaFile } from '../../core/schema/build.js';
import { FILE_UID } from '../../core/schema/model.js';

/**
 * The media library's file type (`plugin::upload.file`), stored in `files` as Strapi does. Media
 * attributes link to its rows; the upload API (its own issue) writes them.
 */
export const uploadFileType: RawSchemaFile = {
  file: '(built-in) plugin::upload.file',
  uid: FILE_UID,
  json: {
    kind: 'collectionType',
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string', required: true },
      alternativeText: { type: 'text' },
      caption: { type: 'text' },
      focalPoint: { type: 'json' },
      width: { type: 'integer' },
      height: { type: 'integer' },
      formats: { type: 'json' },
      hash: { type: 'string', required: true },
      ext: { type: 'string' },
      mime: { type: 'string', required: true },
      size: { type: 'decimal', required: true },
      url: { type: 'text', required: true },
      previewUrl: { type: 'text' },
      provider: { type: 'string', required: true },
      provider_metadata: { type: 'json' },
      folderPath: { type: 'string', private: true },
    },
  },
};
