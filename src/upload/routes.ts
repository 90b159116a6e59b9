/**
 * The upload plugin's content API (Strapi's routes): `POST /api/upload` (multipart; `?id=` updates
 * a file), `GET /api/upload/files`, `GET|DELETE /api/upload/files/:id`, plus `/uploads/...` for the
 * local provider. Answers are bare (no envelope), errors use the envelope.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DocumentService } from '../documents/service.js';
import type { LinkRequest } from '../documents/operations/files.js';
import { ValidationError } from '../errors.js';
import type { AccessControl } from '../rest/access.js';
import type { VellumConfig } from '../config/load.js';
import { resolveUploadConfig } from './config.js';
import { MediaLibrary, type FileInfo, type ReceivedFile } from './service.js';
import { loadProvider } from './providers/index.js';

const UID = 'plugin::upload.content-api';

export interface UploadRoutesOptions {
  documents: DocumentService;
  access: AccessControl;
  config: VellumConfig;
}

const fileInfoSchema = z.object({
  name: z.string().min(1).max(255).optional(),
  alternativeText: z.string().nullable().optional(),
  caption: z.string().nullable().optional(),
});

function parseFileInfo(raw: unknown, index: number): FileInfo {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ValidationError('fileInfo must be JSON', { errors: [{ path: ['fileInfo', index], message: 'fileInfo must be JSON', name: 'ValidationError', value: raw }] });
    }
  }
  const parsed = fileInfoSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      path: ['fileInfo', index, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      message: `fileInfo.${issue.path.join('.')}: ${issue.message}`,
      name: 'ValidationError',
    }));
    throw ValidationError.fromFieldErrors(errors);
  }
  return parsed.data;
}

/** `fileInfo` per file: one JSON field holding an array, or one field per file. */
function fileInfos(values: unknown[]): FileInfo[] {
  if (values.length === 1 && typeof values[0] === 'string' && values[0].trim().startsWith('[')) {
    const list = (() => {
      try {
        return JSON.parse(values[0] as string) as unknown;
      } catch {
        throw new ValidationError('fileInfo must be JSON');
      }
    })();
    if (!Array.isArray(list)) throw new ValidationError('fileInfo must be an object or an array of objects');
    return list.map(parseFileInfo);
  }
  return values.map(parseFileInfo);
}

interface ParsedForm {
  files: ReceivedFile[];
  fields: Map<string, unknown[]>;
}

/** Streams every file part to a temporary folder (never to memory); `files` over the limit is a 413. */
async function readForm(request: FastifyRequest, dir: string, sizeLimit: number): Promise<ParsedForm> {
  const form: ParsedForm = { files: [], fields: new Map() };
  if (!request.isMultipart()) {
    const body = request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const [key, value] of Object.entries(body)) form.fields.set(key, [value]);
    }
    return form;
  }
  const parts = request.parts({ limits: { fileSize: sizeLimit, files: 100, fields: 100, fieldSize: 1024 * 1024 } });
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'files' && !part.fieldname.startsWith('files')) {
        part.file.resume();
        throw new ValidationError(`Unexpected file field ${JSON.stringify(part.fieldname)}: send files as "files"`);
      }
      const path = join(dir, String(form.files.length));
      let size = 0;
      part.file.on('data', (chunk: Buffer) => (size += chunk.length));
      await pipeline(part.file, createWriteStream(path));
      form.files.push({ path, clientName: part.filename, sizeInBytes: size });
    } else {
      const list = form.fields.get(part.fieldname) ?? [];
      list.push(part.value);
      form.fields.set(part.fieldname, list);
    }
  }
  return form;
}

const single = (form: ParsedForm, key: string): string | undefined => {
  const value = form.fields.get(key)?.[0];
  return value === undefined || value === '' ? undefined : String(value);
};

function linkRequest(form: ParsedForm): LinkRequest | undefined {
  const ref = single(form, 'ref');
  const refId = single(form, 'refId');
  const field = single(form, 'field');
  if (ref === undefined && refId === undefined && field === undefined) return undefined;
  if (ref === undefined || refId === undefined || field === undefined) {
    throw new ValidationError('ref, refId and field go together: send all three to link the upload');
  }
  return { ref, refId, field };
}

const fileId = (raw: string | undefined): number => {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw new ValidationError(`Invalid file id ${JSON.stringify(raw)}`);
  return Number(raw);
};

/** Headers for stored files: never sniffed; scriptable types cannot run on the API's origin. */
function storageHeaders(reply: FastifyReply | { setHeader(name: string, value: string): void }, path: string): void {
  const set = (name: string, value: string) =>
    'setHeader' in reply ? reply.setHeader(name, value) : (reply as FastifyReply).header(name, value);
  set('X-Content-Type-Options', 'nosniff');
  // Stored names are unique per upload and never reused.
  set('Cache-Control', 'public, max-age=31536000, immutable');
  if (/\.(svg|xml|xhtml|html?)$/i.test(path)) {
    set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (!/\.svg$/i.test(path)) set('Content-Disposition', 'attachment');
  }
}

export async function registerUploadRoutes(app: FastifyInstance, options: UploadRoutesOptions): Promise<MediaLibrary> {
  const { access } = options;
  const config = resolveUploadConfig(options.config);
  const prefix = options.config.api.rest.prefix;
  const provider = await loadProvider(config, options.config.projectDir);
  const library = new MediaLibrary(options.documents, config, provider, (error, message) => app.log.error({ err: error }, message));

  if (config.provider === 'local') {
    const root = join(config.publicDir, 'uploads');
    await mkdir(root, { recursive: true });
    await app.register(fastifyStatic, {
      root,
      prefix: '/uploads/',
      decorateReply: false,
      index: false,
      list: false,
      dotfiles: 'deny',
      cacheControl: false,
      setHeaders: (res, path) => storageHeaders(res, path),
    });
  }

  await app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true, limits: { fileSize: config.sizeLimit } });

    scope.post(`${prefix}/upload`, async (request, reply) => {
      await access.authorize(request.headers, { uid: UID, action: 'upload' });
      const id = (request.query as Record<string, unknown>).id;
      // The temporary folder is gone before the answer leaves.
      const dir = await mkdtemp(join(tmpdir(), 'vellum-upload-'));
      let answer: unknown;
      try {
        const form = await readForm(request, dir, config.sizeLimit);
        const infos = fileInfos(form.fields.get('fileInfo') ?? []);
        if (id !== undefined) {
          if (form.files.length > 1) throw new ValidationError('Only one file can replace a file');
          answer = await library.update(fileId(String(id)), infos[0] ?? {}, form.files[0]);
        } else {
          if (form.files.length === 0) throw new ValidationError('Files are empty');
          if (infos.length > form.files.length) throw new ValidationError('More fileInfo entries than files');
          answer = await library.upload(form.files, infos, linkRequest(form));
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      return reply.status(id === undefined ? 201 : 200).send(answer);
    });

    scope.get(`${prefix}/upload/files`, async (request) => {
      await access.authorize(request.headers, { uid: UID, action: 'find' });
      return library.list(request.query as Record<string, unknown>);
    });

    scope.get<{ Params: { id: string } }>(`${prefix}/upload/files/:id`, async (request) => {
      await access.authorize(request.headers, { uid: UID, action: 'findOne' });
      return library.findOne(fileId(request.params.id), request.query as Record<string, unknown>);
    });

    scope.delete<{ Params: { id: string } }>(`${prefix}/upload/files/:id`, async (request) => {
      await access.authorize(request.headers, { uid: UID, action: 'destroy' });
      return library.delete(fileId(request.params.id));
    });
  });
  return library;
}
