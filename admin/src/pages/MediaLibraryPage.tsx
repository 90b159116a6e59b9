import { currentParams } from '../url-params.ts';
import { Alert, Loader, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { ReadOnlyNote, useRights } from '../access.tsx';
import { FileDetails } from '../components/media/FileDetails.tsx';
import { LibraryControls, LibraryPagination } from '../components/media/LibraryControls.tsx';
import { MediaBrowser } from '../components/media/MediaBrowser.tsx';
import { UploadZone } from '../components/media/UploadZone.tsx';
import {
  DEFAULT_STATE,
  fetchLibrary,
  KINDS,
  libraryQuery,
  SORTS,
  type LibraryState,
  type MediaKind,
} from '../media.ts';

/** The library's state from the URL: what is not there is the default (and leaves the URL). */
function stateOf(params: URLSearchParams): LibraryState {
  const number = (key: string, fallback: number) => {
    const value = Number(params.get(key));
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  const kind = params.get('kind') ?? '';
  const sort = params.get('sort') ?? '';
  return {
    view: params.get('view') === 'list' ? 'list' : 'grid',
    page: number('page', 1),
    pageSize: Math.min(number('pageSize', DEFAULT_STATE.pageSize), 100),
    q: params.get('q') ?? '',
    kind: KINDS.some((k) => k.value === kind) ? (kind as MediaKind) : '',
    sort: SORTS.some((s) => s.value === sort) ? sort : DEFAULT_STATE.sort,
  };
}

/**
 * The media library (`/admin/media`): files in a grid or a list, paginated, searched by name and
 * filtered by kind on the server; uploads with progress; a file's details in a drawer. The view,
 * page, search, filters and the open file are in the URL: a reload or a shared link shows the same.
 * Uploads need `assets.create`; a file's Save and Delete `assets.update`; its Copy and Open
 * `assets.copy-link` and `assets.download`.
 */
export function MediaLibraryPage() {
  const rights = useRights('/media');
  const [params, setParams] = useSearchParams();
  const state = stateOf(params);
  const [q] = useDebouncedValue(state.q, 250);
  const openFile = Number(params.get('file')) || null;

  const update = (changes: Partial<LibraryState> & { file?: number | null }) => {
    const next = currentParams();
    for (const [key, value] of Object.entries(changes)) {
      const fallback = key === 'file' ? null : DEFAULT_STATE[key as keyof LibraryState];
      if (value === null || value === '' || value === fallback) next.delete(key);
      else next.set(key, String(value));
    }
    setParams(next, { replace: true });
  };

  const query = libraryQuery({ ...state, q });
  const files = useQuery({
    queryKey: ['media', 'list', query],
    queryFn: () => fetchLibrary(query),
    placeholderData: keepPreviousData,
  });
  const total = files.data?.pagination.total ?? 0;

  return (
    <Stack>
      <div>
        <Title order={1}>Media library</Title>
        <Text c="dimmed">{files.data ? `${total} ${total === 1 ? 'file' : 'files'} found` : ' '}</Text>
      </div>
      {rights.readOnly && <ReadOnlyNote what="the media library" />}
      {rights.create && <UploadZone />}
      <LibraryControls state={state} onChange={update} />
      {files.error && <Alert color="red">{files.error.message}</Alert>}
      {files.isPending ? (
        <Loader aria-label="Loading" />
      ) : files.data && files.data.results.length > 0 ? (
        <MediaBrowser
          files={files.data.results}
          view={state.view}
          onActivate={(file) => update({ file: file.id })}
          label="Files"
        />
      ) : (
        <Text p="md">
          {state.q || state.kind
            ? 'No files match these filters.'
            : rights.create
              ? 'No files yet: upload some above.'
              : 'No files yet.'}
        </Text>
      )}
      <LibraryPagination state={state} pageCount={files.data?.pagination.pageCount ?? 1} onChange={update} />
      <FileDetails fileId={openFile} onClose={() => update({ file: null })} onDeleted={() => update({ file: null })} />
    </Stack>
  );
}
