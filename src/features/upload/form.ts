/**
 * The multipart form of `POST /api/upload`: file parts streamed to a temporary folder, `fileInfo`
 * validated, `ref`/`refId`/`field` read. A JSON body (info updates) is read as the same fields.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { LinkRequest } from '../../core/documents/service.js';
import { ApplicationError, PayloadTooLargeError, ValidationError, VellumError } from '../../core/errors.js';
import type { UploadConfig } from './config.js';
import type { FileInfo, ReceivedFile } from './service.js';

const fileInfoSchema = z.object({
  name: z.string().min(1).max(255).optional(),
  alternativeText: z.string().nullable().optional(),
  caption: z.string().nullable().optional(),
  // Strapi's image focal point, in percent of the width and height.
  focalPoint: z
    .object({ x: z.coerce.number().min(0).max(100), y: z.coerce.number().min(0).max(100) })
    .strict()
    .nullable()
    .optional(),
});

function parseFileInfo(raw: unknown, index: number): FileInfo {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ValidationError('fileInfo must be JSON', {
        errors: [{ path: ['fileInfo', index], message: 'fileInfo must be JSON', name: 'ValidationError', value: raw }],
      });
    }
  }
  const parsed = fileInfoSchema.safeParse(value ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => ({
      path: ['fileInfo', index, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      message: `${['fileInfo', ...issue.path.map(String)].join('.')}: ${issue.message}`,
      name: 'ValidationError',
    }));
    throw ValidationError.fromFieldErrors(errors);
  }
  return parsed.data;
}

/** `fileInfo` per file: one JSON field holding an array, or one field per file. */
export function fileInfos(values: unknown[]): FileInfo[] {
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

export interface ParsedForm {
  files: ReceivedFile[];
  fields: Map<string, unknown[]>;
}

type FormLimits = Pick<UploadConfig, 'sizeLimit' | 'requestSizeLimit' | 'fieldsSizeLimit'>;

/**
 * Streams every file part to a temporary folder (never to memory). A file over `sizeLimit`, files
 * over `requestSizeLimit` together, or fields over `fieldsSizeLimit` together are a 413.
 */
export async function readForm(request: FastifyRequest, dir: string, limits: FormLimits): Promise<ParsedForm> {
  const form: ParsedForm = { files: [], fields: new Map() };
  if (!request.isMultipart()) {
    const body = request.body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const [key, value] of Object.entries(body)) form.fields.set(key, [value]);
    }
    return form;
  }
  try {
    await readParts(request, dir, limits, form);
  } catch (error) {
    // Cut off (the request timeout) or gone: nobody is left to answer, and it is not the server's failure.
    if (request.raw.socket?.destroyed && !(error instanceof VellumError))
      throw new ApplicationError('The connection closed before the body arrived');
    throw asFormError(error);
  }
  return form;
}

/**
 * Busboy's complaints about a malformed body (no boundary, truncated data) are the client's: 400.
 * The plugin's own errors (limits: 413) keep their status; system errors (disk) stay server errors.
 */
function asFormError(error: unknown): unknown {
  if (error instanceof VellumError) return error;
  const e = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof e?.statusCode === 'number') return error;
  if (typeof e?.code === 'string' && /^E[A-Z]+$/.test(e.code)) return error;
  return new ValidationError(`Malformed multipart body: ${String(e?.message ?? error)}`);
}

async function readParts(request: FastifyRequest, dir: string, limits: FormLimits, form: ParsedForm): Promise<void> {
  const fileSize = Math.min(limits.sizeLimit, limits.requestSizeLimit);
  const parts = request.parts({ limits: { fileSize, files: 100, fields: 100, fieldSize: limits.fieldsSizeLimit } });
  // What the request carried so far: files are counted as they stream, so the limit holds before
  // they are stored. Past it, the rest of the request is read and dropped, then answered with a 413
  // (closing the connection early would leave the client with a reset, not an answer).
  let filesTotal = 0;
  let fieldsTotal = 0;
  let tooLarge = false;
  for await (const part of parts) {
    if (part.type === 'file') {
      if (part.fieldname !== 'files' && !part.fieldname.startsWith('files')) {
        part.file.resume();
        throw new ValidationError(`Unexpected file field ${JSON.stringify(part.fieldname)}: send files as "files"`);
      }
      if (tooLarge) {
        for await (const _chunk of part.file) continue;
        continue;
      }
      const path = join(dir, String(form.files.length));
      const out = createWriteStream(path);
      const written = finished(out);
      written.catch(() => undefined);
      let size = 0;
      try {
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          filesTotal += chunk.length;
          tooLarge ||= filesTotal > limits.requestSizeLimit;
          if (tooLarge) continue;
          size += chunk.length;
          if (!out.write(chunk)) await once(out, 'drain');
        }
      } catch (error) {
        out.destroy();
        throw error;
      }
      out.end();
      await written;
      if (!tooLarge) form.files.push({ path, clientName: part.filename, sizeInBytes: size });
    } else {
      fieldsTotal +=
        Buffer.byteLength(part.fieldname) + (typeof part.value === 'string' ? Buffer.byteLength(part.value) : 0);
      if (fieldsTotal > limits.fieldsSizeLimit) continue;
      const list = form.fields.get(part.fieldname) ?? [];
      list.push(part.value);
      form.fields.set(part.fieldname, list);
    }
  }
  if (tooLarge) throw filesTooLarge(limits.requestSizeLimit);
  if (fieldsTotal > limits.fieldsSizeLimit) {
    throw new PayloadTooLargeError(
      `The form fields of this request exceed ${limits.fieldsSizeLimit} bytes together (server.bodyLimit)`,
      { limit: limits.fieldsSizeLimit },
    );
  }
}

/** Strapi answers `FileTooBig` when a request's files exceed formidable's maxFileSize together. */
const filesTooLarge = (limit: number) =>
  new PayloadTooLargeError(
    `FileTooBig: the files of this request exceed ${limit} bytes together (strapi::body formidable.maxFileSize)`,
    { limit },
  );

const single = (form: ParsedForm, key: string): string | undefined => {
  const value = form.fields.get(key)?.[0];
  return value === undefined || value === '' ? undefined : String(value);
};

export function linkRequest(form: ParsedForm): LinkRequest | undefined {
  const ref = single(form, 'ref');
  const refId = single(form, 'refId');
  const field = single(form, 'field');
  if (ref === undefined && refId === undefined && field === undefined) return undefined;
  if (ref === undefined || refId === undefined || field === undefined) {
    throw new ValidationError('ref, refId and field go together: send all three to link the upload');
  }
  return { ref, refId, field };
}
