import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';

export interface DetectedType {
  mime: string;
  /** With the dot; the stored file's extension always matches the detected type. */
  ext: string;
}

/** Text extensions kept as uploaded when the content is plain text (served as text, never as HTML). */
const TEXT_EXTENSIONS = new Set(['.txt', '.csv', '.md', '.json', '.log', '.tsv', '.yml', '.yaml']);
const TEXT_MIMES: Record<string, string> = {
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.tsv': 'text/tab-separated-values',
};

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const isSvg = (head: string) =>
  /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(head);

function isText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  return !head.toString('utf8').includes('\uFFFD');
}

/**
 * The type of a stored upload from its bytes, never from what the client said: magic numbers
 * (file-type), then SVG and plain text by content; anything else is an octet stream.
 */
export async function detectType(path: string, clientName: string): Promise<DetectedType> {
  // Loaded on the first upload, not at start-up.
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(path);
  const head = await readHead(path, 4096);
  // file-type names an SVG with an XML prolog plain XML.
  if ((!detected || detected.ext === 'xml') && isSvg(head.toString('utf8')))
    return { mime: 'image/svg+xml', ext: '.svg' };
  if (detected) return { mime: detected.mime, ext: `.${detected.ext}` };
  if (head.length > 0 && isText(head)) {
    const ext = extname(clientName).toLowerCase();
    if (TEXT_EXTENSIONS.has(ext)) return { mime: TEXT_MIMES[ext] ?? 'text/plain', ext };
    return { mime: 'text/plain', ext: '.txt' };
  }
  return { mime: 'application/octet-stream', ext: '.bin' };
}

/** The displayed name: the last path segment, no control characters, at most 255 characters. */
export function sanitizeName(raw: string | undefined): string {
  const last = basename((raw ?? '').replace(/\\/g, '/'));
  const clean = last
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/^\.+/, '')
    .trim();
  return (clean || 'file').slice(0, 255);
}

/** The storage key's stem: a slug of the name plus a random suffix, so nothing is ever overwritten. */
export function hashFor(name: string, random: string): string {
  const stem = basename(name, extname(name))
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return `${stem || 'file'}_${random}`;
}
