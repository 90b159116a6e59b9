import { Button, Group, NativeSelect, Pagination, Select, TextInput } from '@mantine/core';
import { KINDS, PAGE_SIZES, SORTS, type LibraryState, type MediaKind } from '../../media.ts';

export type LibraryChange = (changes: Partial<LibraryState>) => void;

/** Search by name, the kind and sort filters, and the grid/list toggle of a library view. */
export function LibraryControls({
  state,
  onChange,
  kinds = KINDS.map((kind) => kind.value),
}: {
  state: LibraryState;
  onChange: LibraryChange;
  kinds?: MediaKind[];
}) {
  return (
    <Group align="flex-end" justify="space-between">
      <Group align="flex-end">
        <TextInput
          label="Search files"
          placeholder="Search by name"
          value={state.q}
          onChange={(event) => onChange({ q: event.currentTarget.value, page: 1 })}
          w={260}
        />
        <NativeSelect
          label="Kind"
          data={KINDS.filter((kind) => kind.value === '' || kinds.includes(kind.value)).map((kind) =>
            kind.value === '' && kinds.length < KINDS.length - 1 ? { ...kind, label: 'All allowed kinds' } : kind,
          )}
          value={state.kind}
          onChange={(event) => onChange({ kind: event.currentTarget.value as MediaKind, page: 1 })}
        />
        <NativeSelect
          label="Sort by"
          data={[...SORTS]}
          value={state.sort}
          onChange={(event) => onChange({ sort: event.currentTarget.value, page: 1 })}
        />
      </Group>
      <Button.Group aria-label="View">
        {(['grid', 'list'] as const).map((view) => (
          <Button
            key={view}
            variant={state.view === view ? 'filled' : 'default'}
            aria-pressed={state.view === view}
            aria-label={view === 'grid' ? 'Grid view' : 'List view'}
            onClick={() => onChange({ view })}
          >
            {view === 'grid' ? 'Grid' : 'List'}
          </Button>
        ))}
      </Button.Group>
    </Group>
  );
}

/** The page size and the pages of a library view. */
export function LibraryPagination({
  state,
  pageCount,
  onChange,
}: {
  state: LibraryState;
  pageCount: number;
  onChange: LibraryChange;
}) {
  return (
    <Group justify="space-between" align="flex-end">
      <Select
        label="Files per page"
        data={PAGE_SIZES}
        value={String(state.pageSize)}
        onChange={(value) => onChange({ pageSize: Number(value), page: 1 })}
        w={140}
        allowDeselect={false}
      />
      <Pagination
        total={Math.max(pageCount, 1)}
        value={state.page}
        onChange={(page) => onChange({ page })}
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(page) => ({ 'aria-label': `Page ${page}` })}
      />
    </Group>
  );
}
