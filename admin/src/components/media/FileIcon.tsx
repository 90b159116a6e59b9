import { Center, Image, Text } from '@mantine/core';
import { kindOf, thumbnailUrl, type FileKind, type MediaFile } from '../../media.ts';

/** Simple outlined glyphs per kind (the panel carries no icon library). */
const PATHS: Record<FileKind, string> = {
  image: 'M4 5h16v14H4z M4 16l5-5 4 4 3-3 4 4 M15 9.5a1.5 1.5 0 1 0 0.01 0',
  video: 'M3 6h13v12H3z M16 10l5-3v10l-5-3',
  audio: 'M9 18V6l10-2v12 M9 18a3 3 0 1 1-6 0a3 3 0 0 1 6 0 M19 16a3 3 0 1 1-6 0a3 3 0 0 1 6 0',
  file: 'M6 3h8l5 5v13H6z M14 3v5h5',
};

export function FileIcon({ kind, size = 40 }: { kind: FileKind; size?: number }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[kind]} />
    </svg>
  );
}

/** A file's small preview: its thumbnail for an image, the kind's icon and extension otherwise. */
export function FilePreview({ file, height = 120 }: { file: MediaFile; height?: number }) {
  const kind = kindOf(file);
  if (kind === 'image')
    return (
      <Image
        src={thumbnailUrl(file)}
        alt={file.alternativeText ?? file.name}
        h={height}
        fit="contain"
        bg="gray.1"
        radius="sm"
        loading="lazy"
      />
    );
  return (
    <Center
      h={height}
      bg="gray.1"
      c="gray.7"
      style={{ borderRadius: 'var(--mantine-radius-sm)', flexDirection: 'column' }}
    >
      <FileIcon kind={kind} />
      <Text size="xs" fw={700} tt="uppercase">
        {(file.ext ?? '').replace(/^\./, '') || kind}
      </Text>
    </Center>
  );
}
