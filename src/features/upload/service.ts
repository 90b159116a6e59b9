/**
 * The media library: stores uploads through the provider, generates image formats, writes the
 * `files` rows through the document service and links files to documents.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type {
  CallerOptions,
  Document,
  DocumentService,
  FindManyResult,
  LinkPermission,
  LinkRequest,
  StoredFileRow,
  TypeDocuments,
} from '../../core/documents/service.js';
import { ForbiddenError, NotFoundError } from '../../core/errors.js';
import { FILE_UID } from '../../core/schema/model.js';
import type { UploadConfig } from './config.js';
import { detectType, hashFor, sanitizeName } from './detect.js';
import { generateFormats, imageDimensions } from './formats.js';
import type { ProviderFile, UploadProvider } from './providers/index.js';

/** A file part already streamed to a temporary file. */
export interface ReceivedFile {
  path: string;
  clientName: string;
  sizeInBytes: number;
}

export interface FileInfo {
  name?: string;
  alternativeText?: string | null;
  caption?: string | null;
  focalPoint?: { x: number; y: number } | null;
}

interface FormatEntry {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: null;
  width: number;
  height: number;
  size: number;
  sizeInBytes: number;
  url: string;
}

type Query = Record<string, unknown>;

const kilobytes = (bytes: number) => Math.round((bytes / 1000) * 100) / 100;

/** What a stored upload consists of in storage: the original and its formats. */
interface StoredObjects {
  columns: Record<string, unknown>;
  objects: ProviderFile[];
}

export class MediaLibrary {
  /** The file documents (`plugin::upload.file`). */
  private readonly files: TypeDocuments;

  constructor(
    private readonly documents: DocumentService,
    private readonly config: UploadConfig,
    private readonly provider: UploadProvider,
    private readonly log: (error: unknown, message: string) => void,
  ) {
    this.files = documents.of(FILE_UID);
  }

  /**
   * Stores uploads (and links them when `link` is given); answers the new media objects in order.
   * `mayLink` refuses (before anything is stored) a link into a type the uploader may not update;
   * without it (project code) every link is allowed.
   */
  async upload(
    files: ReceivedFile[],
    infos: FileInfo[],
    link?: LinkRequest,
    mayLink: LinkPermission = async () => undefined,
    caller?: CallerOptions,
  ): Promise<Document[]> {
    const rows = this.documents.files;
    const target = link ? await rows.linkTarget(link, mayLink) : undefined;
    const types = await Promise.all(files.map((file) => detectType(file.path, file.clientName)));
    if (target)
      types.forEach((type, index) => rows.assertLinkable(target, sanitizeName(files[index]!.clientName), type.mime));

    const created: Document[] = [];
    try {
      for (const [index, file] of files.entries()) {
        const info = infos[index] ?? {};
        const name = sanitizeName(info.name ?? file.clientName);
        const stored = await this.store(file, name, types[index]!);
        try {
          const data = {
            name,
            alternativeText: info.alternativeText ?? null,
            caption: info.caption ?? null,
            focalPoint: info.focalPoint ?? null,
            ...stored.columns,
          };
          created.push(await this.files.create({ data }, caller));
        } catch (error) {
          await this.removeObjects(stored.objects);
          throw error;
        }
      }
      if (target)
        await rows.link(
          target,
          created.map((file) => file.id as number),
        );
    } catch (error) {
      // All or nothing: files stored before the failure are removed again.
      for (const file of created)
        await this.delete(file.id as number, caller).catch((e: unknown) => this.log(e, 'upload rollback failed'));
      throw error;
    }
    return created;
  }

  /** `POST /upload?id=`: new info, and with a file the stored bytes replaced (new hash and url). */
  async update(id: number, info: FileInfo, file?: ReceivedFile, caller?: CallerOptions): Promise<Document> {
    const row = await this.row(id);
    const data: Record<string, unknown> = {};
    if (info.name !== undefined) data.name = sanitizeName(info.name);
    if (info.alternativeText !== undefined) data.alternativeText = info.alternativeText;
    if (info.caption !== undefined) data.caption = info.caption;
    // As Strapi: a null focal point keeps the current one.
    if (info.focalPoint !== undefined && info.focalPoint !== null) data.focalPoint = info.focalPoint;
    let replaced: StoredObjects | undefined;
    if (file) {
      replaced = await this.store(
        file,
        (data.name as string | undefined) ?? sanitizeName(file.clientName),
        await detectType(file.path, file.clientName),
      );
      Object.assign(data, replaced.columns);
    }
    let document: Document;
    try {
      document = await this.files.update({ documentId: row.documentId, data }, caller);
    } catch (error) {
      if (replaced) await this.removeObjects(replaced.objects);
      throw error;
    }
    if (replaced) await this.removeObjects(objectsOf(row));
    return document;
  }

  async list(query: Query): Promise<Document[]> {
    return (await this.page(query)).results;
  }

  /**
   * A page of files and its pagination (the admin's list: Strapi's `findPage`); with
   * `caller.createdBy`, only the files those administrators uploaded.
   */
  async page(query: Query, caller?: CallerOptions): Promise<FindManyResult> {
    return this.files.findMany(query, caller);
  }

  /**
   * One file; with `caller.createdBy` (an administrator's "is creator"), a file somebody else
   * uploaded is a 403.
   */
  async findOne(id: number, query: Query = {}, caller?: CallerOptions): Promise<Document> {
    const row = await this.row(id);
    const document = await this.files.findVersion({ ...query, documentId: row.documentId }, caller);
    if (!document) {
      if (caller?.createdBy !== undefined) throw new ForbiddenError('Forbidden');
      throw new NotFoundError(`No file with id ${id}`);
    }
    return document;
  }

  /**
   * Deletes the row and every link to it, then the stored original and formats; answers the file.
   * `caller` names the administrator (media.delete in the audit log) when there is one.
   */
  async delete(id: number, caller?: CallerOptions): Promise<Document> {
    const row = await this.row(id);
    const document = await this.findOne(id);
    await this.documents.files.delete(id, caller);
    await this.removeObjects(objectsOf(row));
    return document;
  }

  private async row(id: number): Promise<StoredFileRow> {
    const row = Number.isSafeInteger(id) && id > 0 ? await this.documents.files.row(id) : null;
    if (!row) throw new NotFoundError(`No file with id ${id}`);
    return row;
  }

  /** Puts the original and its formats into storage; answers the row's columns. */
  private async store(file: ReceivedFile, name: string, type: { mime: string; ext: string }): Promise<StoredObjects> {
    const hash = hashFor(name, randomBytes(5).toString('hex'));
    const dimensions = await imageDimensions(file.path, type.mime);
    const original: ProviderFile = {
      name,
      hash,
      ext: type.ext,
      mime: type.mime,
      size: kilobytes(file.sizeInBytes),
      sizeInBytes: file.sizeInBytes,
      width: dimensions?.width ?? null,
      height: dimensions?.height ?? null,
      path: null,
      getStream: () => createReadStream(file.path),
    };
    original.stream = original.getStream!();
    const objects: ProviderFile[] = [];
    try {
      await (this.provider.uploadStream ?? this.provider.upload).call(this.provider, original);
      objects.push(original);
      const formats: Record<string, FormatEntry> = {};
      if (dimensions) {
        const generated = await generateFormats(file.path, type.mime, dimensions, {
          breakpoints: this.config.breakpoints,
          responsive: this.config.responsiveDimensions,
        });
        for (const format of generated) {
          const object: ProviderFile = {
            name: `${format.key}_${name}`,
            hash: `${format.key}_${hash}`,
            ext: type.ext,
            mime: type.mime,
            size: kilobytes(format.buffer.length),
            sizeInBytes: format.buffer.length,
            width: format.width,
            height: format.height,
            path: null,
            buffer: format.buffer,
          };
          await this.provider.upload(object);
          objects.push(object);
          formats[format.key] = {
            name: object.name,
            hash: object.hash,
            ext: object.ext,
            mime: object.mime,
            path: null,
            width: format.width,
            height: format.height,
            size: object.size,
            sizeInBytes: object.sizeInBytes,
            url: object.url!,
          };
        }
      }
      return {
        objects,
        columns: {
          hash,
          ext: type.ext,
          mime: type.mime,
          size: original.size,
          width: original.width,
          height: original.height,
          formats: Object.keys(formats).length ? formats : null,
          url: original.url!,
          previewUrl: null,
          provider: this.config.provider,
          provider_metadata: original.provider_metadata ?? null,
          folderPath: '/',
        },
      };
    } catch (error) {
      original.stream?.destroy();
      await this.removeObjects(objects);
      throw error;
    }
  }

  /** Storage failures after the database is consistent are logged, not answered. */
  private async removeObjects(objects: ProviderFile[]): Promise<void> {
    for (const object of objects) {
      await this.provider
        .delete(object)
        .catch((error: unknown) => this.log(error, `could not delete ${object.hash}${object.ext} from storage`));
    }
  }
}

/** The storage objects of a stored row: the original and each format. */
function objectsOf(row: StoredFileRow): ProviderFile[] {
  const base = { name: '', size: 0, sizeInBytes: 0, mime: row.mime };
  const objects: ProviderFile[] = [
    {
      ...base,
      hash: row.hash,
      ext: row.ext ?? '',
      url: row.url,
      provider_metadata: row.provider_metadata as ProviderFile['provider_metadata'],
    },
  ];
  const formats =
    row.formats && typeof row.formats === 'object' ? (row.formats as Record<string, Partial<FormatEntry>>) : {};
  for (const format of Object.values(formats)) {
    if (typeof format?.hash === 'string')
      objects.push({ ...base, hash: format.hash, ext: format.ext ?? row.ext ?? '', url: format.url });
  }
  return objects;
}
