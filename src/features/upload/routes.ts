/**
 * The upload plugin's content API (Strapi's routes): `POST /api/upload` (multipart; `?id=` updates
 * a file), `GET /api/upload/files`, `GET|DELETE /api/upload/files/:id`, plus `/uploads/...` for the
 * local provider. Answers are bare (no envelope), errors use the envelope. The same routes serve
 * the admin panel under `/admin/upload`, where the list is a page: `{ results, pagination }`.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CallerOptions, DocumentService } from '../../core/documents/service.js';
import { ValidationError } from '../../core/errors.js';
import type { AccessControl } from '../../api/access.js';
import type { VellumConfig } from '../../core/config/load.js';
import type { ContentType } from '../../core/schema/model.js';
import { resolveUploadConfig } from './config.js';
import { fileInfos, linkRequest, readForm } from './form.js';
import { MediaLibrary } from './service.js';
import { loadProvider } from './providers/index.js';

const UID = 'plugin::upload.content-api';

export interface UploadRoutesOptions {
  documents: DocumentService;
  access: AccessControl;
  config: VellumConfig;
}

/** The upload routes registered, and the admin panel's to register (with the admin API's first request). */
export interface UploadRoutes {
  library: MediaLibrary;
  /**
   * The admin panel's media library: the same routes under `/admin/upload`, for whoever `admin`
   * lets through (an administrator: it throws UnauthorizedError otherwise).
   */
  registerAdmin(app: FastifyInstance, admin: (request: FastifyRequest) => Promise<MediaAdministrator>): Promise<void>;
}

/** The administrator behind an admin request, and whose files their role reaches. */
export interface MediaAdministrator {
  id: number;
  /** Under "is creator" on `plugin::upload.read`: the administrators whose files they see. */
  readsFilesOf?: number[];
  /** Likewise on `plugin::upload.assets.update`: whose files they replace, edit and delete. */
  changesFilesOf?: number[];
}

/**
 * The upload API's answers carry `isUrlSigned`, as Strapi's do: whether `url` was signed by a
 * private provider (never, here). Media objects populated in documents do not carry it.
 */
function withUrlSigned<T>(answer: T): T {
  const mark = (file: unknown) => (file && typeof file === 'object' ? { ...file, isUrlSigned: false } : file);
  return (Array.isArray(answer) ? answer.map(mark) : mark(answer)) as T;
}

const fileId = (raw: string | undefined): number => {
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) throw new ValidationError(`Invalid file id ${JSON.stringify(raw)}`);
  return Number(raw);
};

/**
 * The admin's list query: the content API's parameters, and Strapi's admin `page` and `pageSize`
 * at the top level (as its media library sends them) read as `pagination`.
 */
function adminListQuery(raw: Record<string, unknown>): Record<string, unknown> {
  const { page, pageSize, ...rest } = raw;
  if (page === undefined && pageSize === undefined) return raw;
  const pagination =
    typeof rest.pagination === 'object' && rest.pagination !== null ? (rest.pagination as Record<string, unknown>) : {};
  return {
    ...rest,
    pagination: {
      ...pagination,
      ...(page === undefined ? {} : { page }),
      ...(pageSize === undefined ? {} : { pageSize }),
    },
  };
}

/**
 * What a browser may show inline from the API's origin: media that cannot run script. Anything
 * else under /uploads (an imported `.shtml`, `.xht`, `.xsl`, `.mml`, `.svgz`, whatever route put it
 * there) is downloaded, never rendered; SVG is shown, sandboxed.
 */
const INLINE =
  /\.(png|jpe?g|gif|webp|avif|bmp|ico|tiff?|heic|heif|mp4|m4v|webm|ogv|mov|mp3|m4a|aac|wav|flac|ogg|oga|opus|pdf|txt|csv|json|woff2?|ttf|otf)$/i;

/** Headers for stored files: never sniffed; nothing stored runs script on the API's origin. */
function storageHeaders(reply: FastifyReply, path: string): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  // Stored names are unique per upload and never reused.
  reply.header('Cache-Control', 'public, max-age=31536000, immutable');
  // Every file is sandboxed: a document opened from /uploads has no origin to act on.
  reply.header(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox",
  );
  if (!INLINE.test(path) && !/\.svg$/i.test(path)) reply.header('Content-Disposition', 'attachment');
}

export async function registerUploadRoutes(app: FastifyInstance, options: UploadRoutesOptions): Promise<UploadRoutes> {
  const { access } = options;
  const config = resolveUploadConfig(options.config);
  const prefix = options.config.api.rest.prefix;
  const provider = await loadProvider(config, options.config.projectDir);
  const library = new MediaLibrary(options.documents, config, provider, (error, message) =>
    app.log.error({ err: error }, message),
  );

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
      setHeaders: storageHeaders,
    });
  }

  // The administrator of each admin request: their writes are theirs (creator fields, audit log),
  // their role's "is creator" limits the files they reach.
  const administrators = new WeakMap<FastifyRequest, MediaAdministrator>();
  const callerOf = (request: FastifyRequest): CallerOptions | undefined => {
    const admin = administrators.get(request);
    return admin === undefined ? undefined : { actor: admin.id };
  };
  /** Reads: only the files of `readsFilesOf` when the role says so. */
  const readerOf = (request: FastifyRequest): CallerOptions | undefined => {
    const readsFilesOf = administrators.get(request)?.readsFilesOf;
    return readsFilesOf === undefined ? undefined : { createdBy: readsFilesOf };
  };
  /** A 403 for a file the administrator's role may not change (another's, under "is creator"). */
  const checkChange = async (request: FastifyRequest, id: number) => {
    const changesFilesOf = administrators.get(request)?.changesFilesOf;
    if (changesFilesOf !== undefined) await library.findOne(id, {}, { createdBy: changesFilesOf });
  };

  /** The upload routes under `base` in a scope of their own (multipart's), each asking `allow` first (the permission's uid: the upload plugin's unless named). */
  const register = (
    on: FastifyInstance,
    base: string,
    allow: (request: FastifyRequest, action: string, uid?: string) => Promise<void>,
    paged = false,
  ) =>
    on.register(async (scope) => {
      await scope.register(multipart, {
        throwFileSizeLimit: true,
        limits: { fileSize: Math.min(config.sizeLimit, config.requestSizeLimit) },
      });
      routes(scope, base, allow, paged);
    });

  const routes = (
    scope: FastifyInstance,
    base: string,
    allow: (request: FastifyRequest, action: string, uid?: string) => Promise<void>,
    paged = false,
  ) => {
    scope.post(`${base}/upload`, async (request, reply) => {
      const id = (request.query as Record<string, unknown>).id;
      // Replacing a file's bytes or info is `update`, a grant apart from `upload` (Strapi: `upload`).
      await allow(request, id === undefined ? 'upload' : 'update');
      // The temporary folder is gone before the answer leaves.
      const dir = await mkdtemp(join(tmpdir(), 'vellum-upload-'));
      let answer: unknown;
      try {
        const form = await readForm(request, dir, config);
        const infos = fileInfos(form.fields.get('fileInfo') ?? []);
        if (id !== undefined) {
          if (form.files.length > 1) throw new ValidationError('Only one file can replace a file');
          await checkChange(request, fileId(String(id)));
          answer = await library.update(fileId(String(id)), infos[0] ?? {}, form.files[0], callerOf(request));
        } else {
          if (form.files.length === 0) throw new ValidationError('Files are empty');
          if (infos.length > form.files.length) throw new ValidationError('More fileInfo entries than files');
          // Linking into a document is editing it: `update` on its content-type.
          const mayLink = async (type: ContentType) => void (await allow(request, 'update', type.uid));
          answer = await library.upload(form.files, infos, linkRequest(form), mayLink, callerOf(request));
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
      return reply.status(id === undefined ? 201 : 200).send(withUrlSigned(answer));
    });

    scope.get(`${base}/upload/files`, async (request) => {
      await allow(request, 'find');
      const query = request.query as Record<string, unknown>;
      // The admin's list is a page with its count, as Strapi's admin answers it; the content API's a bare array.
      if (!paged) return withUrlSigned(await library.list(query));
      const { results, pagination } = await library.page(adminListQuery(query), readerOf(request));
      return { results: withUrlSigned(results), pagination };
    });

    scope.get<{ Params: { id: string } }>(`${base}/upload/files/:id`, async (request) => {
      await allow(request, 'findOne');
      return withUrlSigned(
        await library.findOne(fileId(request.params.id), request.query as Record<string, unknown>, readerOf(request)),
      );
    });

    scope.delete<{ Params: { id: string } }>(`${base}/upload/files/:id`, async (request) => {
      await allow(request, 'destroy');
      await checkChange(request, fileId(request.params.id));
      return withUrlSigned(await library.delete(fileId(request.params.id), callerOf(request)));
    });
  };
  await register(
    app,
    prefix,
    async (request, action, uid = UID) => void (await access.authorize(request.headers, { uid, action })),
  );
  return {
    library,
    registerAdmin: async (on, admin) => {
      await register(on, '/admin', async (request) => void administrators.set(request, await admin(request)), true);
    },
  };
}
