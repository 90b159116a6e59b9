import { ActionIcon, Button, FileButton, Group, Image, Input, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { uploadFiles } from '../api.ts';
import { mediaItem, type MediaItem } from '../fields.ts';
import { DEFAULT_STATE, fetchLibrary, libraryQuery, type LibraryState, type MediaKind } from '../media.ts';
import { LibraryControls, LibraryPagination } from './media/LibraryControls.tsx';
import { MediaBrowser } from './media/MediaBrowser.tsx';
import { UploadZone } from './media/UploadZone.tsx';
import { valueAt, type FieldProps } from './FieldInput.tsx';

const isImage = (file: MediaItem) => file.mime.startsWith('image/');

function Thumbnail({ file }: { file: MediaItem }) {
  return isImage(file) ? (
    <Image src={file.url} alt={file.alternativeText ?? file.name} h={96} fit="contain" bg="gray.1" radius="sm" />
  ) : (
    <Text size="xs" h={96} bg="gray.1" p="xs" style={{ overflow: 'hidden' }}>
      {file.mime}
    </Text>
  );
}

/** Strapi's `allowedTypes` of a media attribute as the library's kinds. */
const KIND_OF_ALLOWED: Record<string, MediaKind> = { images: 'images', videos: 'videos', audios: 'audio', files: 'files' };
const ACCEPT_OF_KIND: Partial<Record<MediaKind, string>> = { images: 'image/*', videos: 'video/*', audio: 'audio/*' };

/**
 * The media library's own views (search, kind, sort, grid or list, pages, uploads with progress),
 * to pick from: files uploaded here are picked at once.
 */
function LibraryPicker({ opened, onClose, onPick, multiple, chosen, kinds }: { opened: boolean; onClose: () => void; onPick: (files: MediaItem[]) => void; multiple: boolean; chosen: Set<number>; kinds: MediaKind[] }) {
  const [state, setState] = useState<LibraryState>({ ...DEFAULT_STATE, pageSize: 12 });
  const [q] = useDebouncedValue(state.q, 200);
  const [picked, setPicked] = useState<MediaItem[]>([]);
  const query = libraryQuery({ ...state, q }, kinds);
  const files = useQuery({ queryKey: ['media', 'list', query], queryFn: () => fetchLibrary(query), enabled: opened, placeholderData: keepPreviousData });
  const pick = (file: MediaItem) => setPicked((current) => (multiple ? [...current.filter((f) => f.id !== file.id), file] : [file]));
  const toggle = (file: MediaItem) => (picked.some((f) => f.id === file.id) ? setPicked((current) => current.filter((f) => f.id !== file.id)) : pick(file));
  // Only the kinds the field takes; all of them when it says nothing or takes any file.
  const accept = kinds.length === 0 || kinds.includes('files') ? undefined : kinds.map((kind) => ACCEPT_OF_KIND[kind]).filter((type) => type !== undefined);
  const shown = (files.data?.results ?? []).filter((file) => !chosen.has(file.id));
  return (
    <Modal opened={opened} onClose={onClose} title="Media library" size="80rem">
      <Stack>
        <UploadZone accept={accept} multiple={multiple} onUploaded={(file) => pick(mediaItem(file as unknown as Record<string, unknown>))} />
        <LibraryControls state={state} onChange={(changes) => setState((current) => ({ ...current, ...changes }))} kinds={kinds.length ? kinds : undefined} />
        {shown.length > 0 && <MediaBrowser files={shown} view={state.view} label="Files to choose from" selected={new Set(picked.map((f) => f.id))} onActivate={(file) => toggle(mediaItem(file as unknown as Record<string, unknown>))} />}
        {files.data && shown.length === 0 && <Text c="dimmed">No files{state.q ? ` match “${state.q}”` : ' to choose here yet: upload one'}.</Text>}
        <LibraryPagination state={state} pageCount={files.data?.pagination.pageCount ?? 1} onChange={(changes) => setState((current) => ({ ...current, ...changes }))} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={picked.length === 0}
            onClick={() => {
              onPick(picked);
              setPicked([]);
              onClose();
            }}
          >
            Choose {picked.length > 1 ? `${picked.length} files` : 'file'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A media attribute: its files (removable), picked from the media library or uploaded on the spot. */
export function MediaField({ attribute, form, path = attribute.name }: FieldProps) {
  const files = (valueAt(form, path) as MediaItem[] | undefined) ?? [];
  const [opened, { open, close }] = useDisclosure(false);
  const [uploading, setUploading] = useState(false);
  const queryClient = useQueryClient();
  const multiple = attribute.multiple === true;
  const set = (next: MediaItem[]) => form.setFieldValue(path, multiple ? next : next.slice(-1));
  const upload = async (chosen: File[] | File | null) => {
    const list = Array.isArray(chosen) ? chosen : chosen ? [chosen] : [];
    if (list.length === 0) return;
    setUploading(true);
    try {
      const stored = (await uploadFiles<Record<string, unknown>>(list)).map(mediaItem);
      set([...files, ...stored]);
      await queryClient.invalidateQueries({ queryKey: ['media'] });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Upload failed', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setUploading(false);
    }
  };
  const error = form.getInputProps(path).error as string | undefined;
  return (
    <Input.Wrapper label={attribute.name} withAsterisk={attribute.required} error={error} description={multiple ? 'Files' : 'One file'}>
      <Stack gap="xs" mt={4}>
        {files.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 4 }} component="ul" aria-label={attribute.name} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {files.map((file, index) => (
              <Paper key={`${file.id}-${index}`} withBorder p={4} component="li" aria-label={file.name}>
                <Thumbnail file={file} />
                <Group justify="space-between" wrap="nowrap" gap={4}>
                  <Text size="xs" truncate>
                    {file.name}
                  </Text>
                  <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove ${file.name}`} onClick={() => set(files.filter((_, i) => i !== index))}>
                    ✕
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        )}
        <Group gap="xs">
          <Button variant="light" size="xs" onClick={open}>
            Choose from the media library
          </Button>
          <FileButton onChange={(chosen) => void upload(chosen)} multiple={multiple} accept={attribute.allowedTypes?.length === 1 && attribute.allowedTypes[0] === 'images' ? 'image/*' : undefined}>
            {(props) => (
              <Button {...props} variant="light" size="xs" loading={uploading} aria-label={`Upload to ${attribute.name}`}>
                Upload
              </Button>
            )}
          </FileButton>
        </Group>
      </Stack>
      <LibraryPicker
        opened={opened}
        onClose={close}
        multiple={multiple}
        chosen={new Set(files.map((file) => file.id))}
        kinds={(attribute.allowedTypes ?? []).map((type) => KIND_OF_ALLOWED[type]).filter((kind) => kind !== undefined)}
        onPick={(picked) => set(multiple ? [...files, ...picked] : picked)}
      />
    </Input.Wrapper>
  );
}
