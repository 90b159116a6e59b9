import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ProviderFile, UploadProvider } from './types.js';

/** Stored names are only ever `<hash><ext>` built by the upload service; this refuses anything else. */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]{1,16})?$/;

function keyOf(file: ProviderFile): string {
  const key = `${file.hash}${file.ext}`;
  if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key ${JSON.stringify(key)}`);
  return key;
}

/** Files under `<public>/uploads`, served at `/uploads/<hash><ext>`. */
export function localProvider(uploadsDir: string): UploadProvider {
  return {
    async upload(file) {
      await mkdir(uploadsDir, { recursive: true });
      const key = keyOf(file);
      if (file.buffer) await writeFile(join(uploadsDir, key), file.buffer, { flag: 'wx' });
      else await pipeline(file.stream ?? file.getStream!(), createWriteStream(join(uploadsDir, key), { flags: 'wx' }));
      file.url = `/uploads/${key}`;
    },
    async uploadStream(file) {
      await this.upload(file);
    },
    async delete(file) {
      await rm(join(uploadsDir, keyOf(file)), { force: true });
    },
  };
}
