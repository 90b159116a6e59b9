import type { Readable } from 'node:stream';

/**
 * A file handed to a storage provider, shaped as Strapi's upload providers expect it: the provider
 * reads `hash`, `ext`, `mime` and the bytes (`stream`/`getStream()` or `buffer`), and sets `url`
 * (and optionally `provider_metadata`) on the object.
 */
export interface ProviderFile {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  /** Kilobytes, as stored. */
  size: number;
  sizeInBytes: number;
  width?: number | null;
  height?: number | null;
  /** Folder prefix some providers use; always null here. */
  path?: string | null;
  url?: string;
  provider_metadata?: Record<string, unknown> | null;
  buffer?: Buffer;
  stream?: Readable;
  getStream?: () => Readable;
}

/**
 * The storage interface (Strapi's provider shape): `local` is built in; any package exporting
 * `init(providerOptions)` that returns these methods (`@strapi/provider-upload-aws-s3`, ...) plugs in.
 */
export interface UploadProvider {
  upload(file: ProviderFile): Promise<void>;
  uploadStream?(file: ProviderFile): Promise<void>;
  delete(file: ProviderFile): Promise<void>;
}

export interface ProviderModule {
  init(options: Record<string, unknown>): UploadProvider | Promise<UploadProvider>;
}
