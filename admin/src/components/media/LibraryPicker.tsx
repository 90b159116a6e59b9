import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useRights } from '../../access.tsx';
import {
  DEFAULT_STATE,
  fetchLibrary,
  libraryQuery,
  type LibraryState,
  type MediaFile,
  type MediaKind,
} from '../../media.ts';
import { LibraryControls, LibraryPagination } from './LibraryControls.tsx';
import { MediaBrowser } from './MediaBrowser.tsx';
import { UploadZone } from './UploadZone.tsx';

const ACCEPT_OF_KIND: Partial<Record<MediaKind, string>> = { images: 'image/*', videos: 'video/*', audio: 'audio/*' };

/**
 * The media library's own views (search, kind, sort, grid or list, pages, uploads with progress),
 * to pick from: files uploaded here are picked at once. It hands over the API's files, whole.
 */
export function LibraryPicker({
  opened,
  onClose,
  onPick,
  multiple,
  chosen,
  kinds,
  title = 'Media library',
}: {
  opened: boolean;
  onClose: () => void;
  onPick: (files: MediaFile[]) => void;
  multiple: boolean;
  chosen: ReadonlySet<number>;
  kinds: MediaKind[];
  title?: string;
}) {
  const mayUpload = useRights('/media').create;
  const [state, setState] = useState<LibraryState>({ ...DEFAULT_STATE, pageSize: 12 });
  const [q] = useDebouncedValue(state.q, 200);
  const [picked, setPicked] = useState<MediaFile[]>([]);
  const query = libraryQuery({ ...state, q }, kinds);
  const files = useQuery({
    queryKey: ['media', 'list', query],
    queryFn: () => fetchLibrary(query),
    enabled: opened,
    placeholderData: keepPreviousData,
  });
  const pick = (file: MediaFile) =>
    setPicked((current) => (multiple ? [...current.filter((f) => f.id !== file.id), file] : [file]));
  const toggle = (file: MediaFile) =>
    picked.some((f) => f.id === file.id) ? setPicked((current) => current.filter((f) => f.id !== file.id)) : pick(file);
  // Only the kinds the field takes; all of them when it says nothing or takes any file.
  const accept =
    kinds.length === 0 || kinds.includes('files')
      ? undefined
      : kinds.map((kind) => ACCEPT_OF_KIND[kind]).filter((type) => type !== undefined);
  const shown = (files.data?.results ?? []).filter((file) => !chosen.has(file.id));
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="80rem">
      <Stack>
        {mayUpload && <UploadZone accept={accept} multiple={multiple} onUploaded={pick} />}
        <LibraryControls
          state={state}
          onChange={(changes) => setState((current) => ({ ...current, ...changes }))}
          kinds={kinds.length ? kinds : undefined}
        />
        {shown.length > 0 && (
          <MediaBrowser
            files={shown}
            view={state.view}
            label="Files to choose from"
            selected={new Set(picked.map((f) => f.id))}
            onActivate={toggle}
          />
        )}
        {files.data && shown.length === 0 && (
          <Text c="dimmed">
            No files
            {state.q ? ` match “${state.q}”` : mayUpload ? ' to choose here yet: upload one' : ' to choose here yet'}.
          </Text>
        )}
        <LibraryPagination
          state={state}
          pageCount={files.data?.pagination.pageCount ?? 1}
          onChange={(changes) => setState((current) => ({ ...current, ...changes }))}
        />
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
