import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { VellumConfig } from '../../core/config/load.js';
import { asRecord } from '../../core/objects.js';
import { parseConfig } from '../../core/config/validate.js';

/** `config/plugins` -> `upload.config`, as Strapi reads it, plus the public folder of `config/server`. */
export interface UploadConfig {
  /** Largest accepted file, in bytes. */
  sizeLimit: number;
  /**
   * Largest total of a request's files, in bytes: Strapi's `strapi::body` `formidable.maxFileSize`
   * in `config/middlewares` (formidable counts every file of a request against it). Default: the
   * `sizeLimit` (Strapi: 200 MB, its default `sizeLimit` too).
   */
  requestSizeLimit: number;
  /** Largest total of a request's other form fields (`fileInfo`, `ref`, ...), in bytes: `server.bodyLimit`. */
  fieldsSizeLimit: number;
  /** Responsive formats: name -> longest side in pixels (generated when the original is larger). */
  breakpoints: Record<string, number>;
  /** Whether to generate the responsive formats (the thumbnail is always made). */
  responsiveDimensions: boolean;
  provider: string;
  providerOptions: Record<string, unknown>;
  /** Where the local provider writes (`<public>/uploads`) and what `/uploads/...` serves. */
  publicDir: string;
}

const schema = z.object({
  sizeLimit: z.coerce
    .number()
    .int()
    .positive()
    .default(200 * 1024 * 1024),
  breakpoints: z
    .record(z.string().regex(/^[A-Za-z0-9_-]+$/), z.coerce.number().int().positive())
    .default({ large: 1000, medium: 750, small: 500 }),
  responsiveDimensions: z.boolean().default(true),
  provider: z.string().min(1).default('local'),
  providerOptions: z.record(z.string(), z.unknown()).default({}),
});

const bodySchema = z.object({
  formidable: z.object({ maxFileSize: z.coerce.number().int().positive().optional() }).default({}),
});

/** `formidable.maxFileSize` of `strapi::body` in `config/middlewares`, if the project sets it. */
function formidableLimit(middlewares: unknown[]): number | undefined {
  const body = middlewares.find((entry) => asRecord(entry).name === 'strapi::body');
  return parseConfig(bodySchema, asRecord(asRecord(body).config), 'config/middlewares', 'strapi::body config.')
    .formidable.maxFileSize;
}

export function resolveUploadConfig(config: VellumConfig): UploadConfig {
  const raw = asRecord(asRecord(config.plugins.upload).config);
  const parsedConfig = parseConfig(schema, raw, 'config/plugins', 'upload.config.');
  const publicDir = config.server.dirs.public;
  return {
    ...parsedConfig,
    requestSizeLimit: formidableLimit(config.middlewares) ?? parsedConfig.sizeLimit,
    fieldsSizeLimit: config.server.bodyLimit,
    publicDir: isAbsolute(publicDir) ? publicDir : resolve(config.projectDir, publicDir),
  };
}
