/** Uploading real files to a test server, with its public folder in a temporary directory. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { startServer, type DialectName, type StartOptions, type TestServer } from './server.js';

export interface UploadServer extends TestServer {
  publicDir: string;
  /** Names in `<public>/uploads`. */
  stored(): string[];
  /** Bytes of a stored file by its url (`/uploads/...`). */
  storedBytes(url: string): Buffer;
  isStored(url: string): boolean;
}

export async function startUploadServer(
  dialect: DialectName,
  upload: Record<string, unknown> = {},
  options: StartOptions = {},
): Promise<UploadServer> {
  const publicDir = mkdtempSync(join(tmpdir(), 'vellum-public-'));
  const server = await startServer(dialect, {
    ...options,
    config: { ...options.config, server: { dirs: { public: publicDir } }, plugins: { upload: { config: upload } } },
  });
  const path = (url: string) => join(publicDir, url.replace(/^\/+/, ''));
  return {
    ...server,
    publicDir,
    stored: () => readdirSync(join(publicDir, 'uploads')).sort(),
    storedBytes: (url) => readFileSync(path(url)),
    isStored: (url) => existsSync(path(url)),
    async close() {
      await server.close();
      rmSync(publicDir, { recursive: true, force: true });
    },
  };
}

export interface UploadPart {
  name: string;
  bytes: Uint8Array;
  /** What the client claims; the server must not trust it. */
  type?: string;
}

export interface UploadAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/** `POST /api/upload` (or `path`) with `files` parts and extra fields, as a browser form sends. */
export async function upload(
  server: TestServer,
  files: UploadPart[],
  fields: Record<string, string | string[]> = {},
  path = '/api/upload',
): Promise<UploadAnswer> {
  const form = new FormData();
  for (const file of files)
    form.append(
      'files',
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) form.append(key, v);
  const response = await fetch(server.url + path, { method: 'POST', body: form, headers: server.authHeaders });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

export const png = (width: number, height: number, color = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

export const jpeg = (width: number, height: number, orientation?: number) => {
  const image = sharp({ create: { width, height, channels: 3, background: '#cc6633' } }).jpeg();
  return (orientation ? image.withMetadata({ orientation }) : image).toBuffer();
};

/** A JPEG of random pixels: large and slow to decode, as real photos are. */
export const noisyJpeg = (width: number, height: number) => {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 4) raw.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
};

/** A small valid PDF. */
export const pdf = () =>
  Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );

export const dimensionsOf = async (bytes: Buffer) => {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width, height: meta.height };
};
