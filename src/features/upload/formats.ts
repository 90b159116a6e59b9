import type { Sharp, SharpOptions } from 'sharp';

type SharpFactory = (input: string, options?: SharpOptions) => Sharp;
let sharpModule: Promise<SharpFactory> | undefined;
/**
 * sharp (libvips) is loaded on the first image, not at start-up: a node that serves no uploads
 * does not pay its memory. Its operation cache is off: each image is resized once.
 */
const loadSharp = (): Promise<SharpFactory> =>
  (sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp as SharpFactory;
  }));

/** Types sharp resizes; SVG, animated or exotic formats are kept as uploaded. */
const RESIZABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);
const THUMBNAIL = { width: 245, height: 156 };

export interface Dimensions {
  width: number;
  height: number;
}

export interface GeneratedFormat {
  /** `thumbnail`, `small`, ... */
  key: string;
  buffer: Buffer;
  width: number;
  height: number;
}

/** At most this many images are decoded at once, so a burst of uploads leaves CPU for other requests. */
const MAX_CONCURRENT = 1;
let running = 0;
const waiting: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Width and height as displayed (EXIF orientation applied), or null when not an image sharp reads. */
export async function imageDimensions(path: string, mime: string): Promise<Dimensions | null> {
  if (!RESIZABLE.has(mime) && mime !== 'image/svg+xml') return null;
  try {
    const sharp = await loadSharp();
    const meta = await sharp(path).metadata();
    if (!meta.width || !meta.height) return null;
    const swap = (meta.orientation ?? 1) >= 5;
    return swap ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  } catch {
    return null;
  }
}

/**
 * The thumbnail (fits 245x156) and each breakpoint smaller than the original (fits bp x bp), in
 * the original's format, oriented. sharp works on libuv's pool: the event loop stays free. An image
 * sharp cannot decode (truncated, corrupt) gets no formats: it is still a file.
 */
export async function generateFormats(
  path: string,
  mime: string,
  size: Dimensions,
  options: { breakpoints: Record<string, number>; responsive: boolean },
): Promise<GeneratedFormat[]> {
  if (!RESIZABLE.has(mime)) return [];
  const targets: { key: string; width: number; height: number }[] = [];
  if (size.width > THUMBNAIL.width || size.height > THUMBNAIL.height) targets.push({ key: 'thumbnail', ...THUMBNAIL });
  if (options.responsive) {
    for (const [key, bp] of Object.entries(options.breakpoints)) {
      if (bp < size.width || bp < size.height) targets.push({ key, width: bp, height: bp });
    }
  }
  const sharp = await loadSharp();
  return limited(async () => {
    const formats: GeneratedFormat[] = [];
    try {
      for (const target of targets) {
        const { data, info } = await sharp(path, { failOn: 'error' })
          .rotate()
          .resize({ width: target.width, height: target.height, fit: 'inside', withoutEnlargement: true })
          .toBuffer({ resolveWithObject: true });
        formats.push({ key: target.key, buffer: data, width: info.width, height: info.height });
      }
    } catch {
      return [];
    }
    return formats;
  });
}
