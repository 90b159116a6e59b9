/**
 * The media library as the panel reads it: a file's fields, the list's state (view, page, search,
 * kind, sort) turned into the admin API's query, and uploads one file per request with their
 * progress (XMLHttpRequest: fetch reports no upload progress).
 */
import { ApiError, api, queryString, session } from './api.ts';

export interface MediaFormat {
  name?: string;
  url: string;
  width: number;
  height: number;
  size: number;
  mime?: string;
}

export interface MediaFile {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  width: number | null;
  height: number | null;
  formats: Record<string, MediaFormat> | null;
  ext: string | null;
  mime: string;
  /** Kilobytes, as Strapi stores it. */
  size: number;
  url: string;
  createdAt: string;
  updatedAt: string;
}

export interface MediaPage {
  results: MediaFile[];
  pagination: { page: number; pageSize: number; pageCount: number; total: number };
}

export const KINDS = [
  { value: '', label: 'All kinds' },
  { value: 'images', label: 'Images' },
  { value: 'videos', label: 'Videos' },
  { value: 'audio', label: 'Audio' },
  { value: 'files', label: 'Files' },
] as const;
export type MediaKind = (typeof KINDS)[number]['value'];

export const SORTS = [
  { value: 'createdAt:desc', label: 'Newest first' },
  { value: 'createdAt:asc', label: 'Oldest first' },
  { value: 'name:asc', label: 'Name (A to Z)' },
  { value: 'name:desc', label: 'Name (Z to A)' },
  { value: 'updatedAt:desc', label: 'Last updated' },
] as const;

/** What a library view shows: in the URL on the media library's screen, in memory in a picker. */
export interface LibraryState {
  view: 'grid' | 'list';
  page: number;
  pageSize: number;
  q: string;
  kind: MediaKind;
  sort: string;
}

export const DEFAULT_STATE: LibraryState = {
  view: 'grid',
  page: 1,
  pageSize: 24,
  q: '',
  kind: '',
  sort: 'createdAt:desc',
};
export const PAGE_SIZES = ['12', '24', '48', '96'];

const PREFIX: Record<Exclude<MediaKind, '' | 'files'>, string> = {
  images: 'image/',
  videos: 'video/',
  audio: 'audio/',
};

/** The filters of a kind: a MIME prefix, or (files) none of the others. */
function kindFilter(kind: MediaKind): Record<string, unknown> | undefined {
  if (kind === '') return undefined;
  if (kind === 'files') return { $and: Object.values(PREFIX).map((prefix) => ({ mime: { $notContains: prefix } })) };
  return { mime: { $startsWith: PREFIX[kind] } };
}

export function libraryQuery(
  state: Pick<LibraryState, 'page' | 'pageSize' | 'q' | 'kind' | 'sort'>,
  only?: MediaKind[],
): Record<string, unknown> {
  const filters = [state.q ? { name: { $containsi: state.q } } : undefined, kindFilter(state.kind)];
  // A media field that takes some kinds only shows those.
  if (only && only.length > 0 && !state.kind) filters.push({ $or: only.map(kindFilter) });
  const present = filters.filter((filter) => filter !== undefined);
  // The id breaks ties (files uploaded together share their second).
  return {
    pagination: { page: state.page, pageSize: state.pageSize },
    sort: [state.sort, 'id:desc'],
    filters: present.length ? { $and: present } : undefined,
  };
}

export const fetchLibrary = (query: Record<string, unknown>) =>
  api<MediaPage>(`/admin/upload/files${queryString(query)}`);

export type FileKind = 'image' | 'video' | 'audio' | 'file';
export const kindOf = (file: { mime: string }): FileKind =>
  file.mime.startsWith('image/')
    ? 'image'
    : file.mime.startsWith('video/')
      ? 'video'
      : file.mime.startsWith('audio/')
        ? 'audio'
        : 'file';

/** A size in kilobytes (as stored) for people: "812 B", "14.2 KB", "3.1 MB". */
export function formatSize(kilobytes: number): string {
  const bytes = kilobytes * 1000;
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The file's smallest image fit for a thumbnail. */
export const thumbnailUrl = (file: MediaFile): string =>
  file.formats?.thumbnail?.url ?? file.formats?.small?.url ?? file.url;

/** An absolute URL (the local provider stores paths). */
export const absoluteUrl = (url: string): string => new URL(url, window.location.origin).href;

export interface UploadHandle {
  done: Promise<MediaFile>;
  abort: () => void;
}

/**
 * One file to `POST /admin/upload`, reporting the share of its bytes sent (0 to 1). The server's
 * refusal (too large: 413) rejects with its message.
 */
export function uploadWithProgress(file: File, onProgress: (share: number) => void): UploadHandle {
  const request = new XMLHttpRequest();
  const done = new Promise<MediaFile>((resolve, reject) => {
    request.open('POST', '/admin/upload');
    request.setRequestHeader('accept', 'application/json');
    if (session.token) request.setRequestHeader('authorization', `Bearer ${session.token}`);
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's page): answered by the status below.
      }
      if (request.status >= 200 && request.status < 300 && Array.isArray(body) && body.length > 0)
        return resolve(body[0] as MediaFile);
      const message =
        (body as { error?: { message?: string } } | null)?.error?.message ?? `The server answered ${request.status}`;
      // The server's size limit is its own (upload.config.sizeLimit): say plainly which rule refused the file.
      reject(new ApiError(request.status, request.status === 413 ? `Too large for this server: ${message}` : message));
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'The connection failed')));
    request.addEventListener('abort', () => reject(new ApiError(0, 'Cancelled')));
    const form = new FormData();
    form.append('files', file, file.name);
    request.send(form);
  });
  return { done, abort: () => request.abort() };
}

/** `POST /admin/upload?id=`: a file's name, alternative text and caption. */
export const updateFileInfo = (
  id: number,
  fileInfo: { name: string; alternativeText: string | null; caption: string | null },
) => api<MediaFile>(`/admin/upload?id=${id}`, { method: 'POST', body: { fileInfo } });

export const deleteFile = (id: number) => api<MediaFile>(`/admin/upload/files/${id}`, { method: 'DELETE' });
