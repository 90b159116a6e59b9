import { currentParams } from '../url-params.ts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Pagination,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue, useLocalStorage } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { api, queryString } from '../api.ts';
import { contentPath, statusOf, STATUS_COLORS, type Document, type ListAnswer } from '../content.ts';
import { FilterChips } from '../components/ListFilters.tsx';
import { FirstUse } from '../components/FirstUse.tsx';
import { defaultColumns, listableAttribute, mainFieldOf, modelsOf } from '../fields.ts';
import { apiFilters, filterFields, filterParams, filtersFromParams, isFilterParam, type Filter } from '../filters.ts';
import { useSchema, type AttributeDescription, type ContentTypeDescription } from '../schema.ts';
import { LocaleSelect, useLocale, useLocaleCodes } from '../locales.tsx';
import { useAccess } from '../access.tsx';
import { columnLabel, useViewConfiguration } from '../view-configuration.ts';
import { BulkActionBar } from '../components/BulkActionBar.tsx';
import { useDuplicate } from '../components/Duplicate.tsx';
import type { BulkKind } from '../list-tools.ts';

const PAGE_SIZES = ['10', '25', '50', '100'];

// The list's dropdowns load when first pressed (components/FirstUse.tsx): with Mantine's popover
// and floating-ui they were ~25 KB of brotli of the first screen (bench/admin-scale.ts).
const loadFilterButton = () => import('../components/FilterButton.tsx');
const FilterButton = lazy(loadFilterButton);
const loadColumnsPicker = () => import('../components/ColumnsPicker.tsx');
const ColumnsPicker = lazy(loadColumnsPicker);
const loadRowMenu = () => import('../components/RowMenu.tsx');
const RowMenu = lazy(loadRowMenu);

/** The list's status filter: Strapi's choices, each a publication cohort of the drafts listed. */
const STATUS_FILTERS = [
  { value: '', label: 'Any status', cohort: undefined },
  { value: 'draft', label: 'Draft (never published)', cohort: 'never-published' },
  { value: 'published', label: 'Published (all)', cohort: 'has-published-version' },
  { value: 'published-modified', label: 'Published (modified)', cohort: 'modified' },
  { value: 'published-unmodified', label: 'Published (unmodified)', cohort: 'unmodified' },
];

/** A cell's text: a to-one relation's document by its main field, a to-many one's count. */
function cell(value: unknown, main?: () => string | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.count === 'number') return String(record.count);
    const field = main?.();
    return String((field && record[field]) ?? record.documentId ?? '');
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/**
 * A collection type's documents, paginated, sorted, searched and filtered on the server: the page,
 * sort, search and filters live in the URL (a reload or a link shows the same list), the columns
 * in local storage.
 */
export function ListView({ type }: { type: ContentTypeDescription }) {
  const [params, setParams] = useSearchParams();
  const access = useAccess();
  const codes = useLocaleCodes();
  // The locales the administrator may read this type in (all of them for most).
  const readable = codes && access.locales(['read'], type.uid, codes);
  const [locale, setLocale] = useLocale(type, readable);
  const localeQuery = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  const page = Number(params.get('page') ?? '1') || 1;
  // The type's configured view ("Configure the view"): its columns, their labels, its default sort and page size.
  const view = useViewConfiguration(type.uid);
  const settings = view.data?.settings;
  const pageSize = params.get('pageSize') ?? String(settings?.pageSize ?? 10);
  const configuredSort =
    settings?.defaultSortBy && settings.defaultSortBy !== 'id'
      ? `${settings.defaultSortBy}:${String(settings.defaultSortOrder ?? 'ASC').toLowerCase()}`
      : undefined;
  const sort = params.get('sort') ?? configuredSort ?? `${type.mainField ?? 'updatedAt'}:asc`;
  const search = params.get('q') ?? '';
  const [debouncedSearch] = useDebouncedValue(search, 250);
  const schema = useSchema();
  // Fields the administrator may not read are neither columns nor filters (the API leaves them out).
  const visible = (name: string) =>
    !type.attributes.some((attribute) => attribute.name === name) ||
    access.fieldMode(type.uid, name, false) !== 'hidden';
  const fields = useMemo(
    () => (schema.data ? filterFields(type, modelsOf(schema.data)).filter((field) => visible(field.name)) : []),
    [schema.data, type, access],
  );
  const filters = filtersFromParams(params, fields);
  const listable = type.attributes.filter(
    (attribute) => (listableAttribute(attribute) || attribute.type === 'relation') && visible(attribute.name),
  );
  const columnNames = ['id', ...listable.map((attribute) => attribute.name), 'createdAt', 'updatedAt'];
  // This browser's choice of columns, kept while the configured ones stay as they were.
  const configured = view.data?.layouts.list.filter((name) => columnNames.includes(name));
  const basis = (configured ?? []).join(',');
  const [local, setLocal] = useLocalStorage<{ basis: string; columns: string[] } | null>({
    key: `vellum-columns:${type.uid}`,
    defaultValue: null,
  });
  const columns =
    local && local.basis === basis
      ? local.columns
      : configured?.length
        ? configured
        : defaultColumns(type.attributes, type.mainField);
  const setColumns = (next: string[]) => setLocal({ basis, columns: next });
  const chosen = columns.filter((name) => columnNames.includes(name));
  // Without any column chosen, the documentId links each row to its edit view.
  const shown = chosen.length ? chosen : ['documentId'];

  const update = (changes: Record<string, string | null>) => {
    const next = currentParams();
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };
  /** New filters replace the URL's; the list goes back to its first page. */
  const setFilters = (next: Filter[]) => {
    const kept = [...currentParams()].filter(([key]) => !isFilterParam(key) && key !== 'page');
    setParams(new URLSearchParams([...kept, ...filterParams(next, fields)]), { replace: true });
  };
  const conditions = [
    ...(debouncedSearch && type.mainField ? [{ [type.mainField]: { $containsi: debouncedSearch } }] : []),
    ...(apiFilters(filters, fields)?.$and ?? []),
  ];

  // Relation columns: a to-one's document by its main field, a to-many's count.
  const relationColumns = listable.filter(
    (attribute) => attribute.type === 'relation' && chosen.includes(attribute.name),
  );
  const mainOf = (name: string) =>
    mainFieldOf(modelsOf(schema.data ?? { contentTypes: [], components: [] }), {
      ...(listable.find((attribute) => attribute.name === name) as AttributeDescription),
      mainField: view.data?.metadatas[name]?.edit.mainField,
    });
  const populate = relationColumns.length
    ? Object.fromEntries(
        relationColumns.map((attribute) => {
          const main = mainOf(attribute.name);
          return [attribute.name, attribute.toMany ? { count: true } : main ? { fields: [main] } : true];
        }),
      )
    : undefined;
  // The status filter (Strapi's `__status`): a publication cohort of the drafts listed, in the URL.
  const status = type.draftAndPublish ? (params.get('status') ?? '') : '';
  const query = {
    locale,
    populate,
    publicationFilter: STATUS_FILTERS.find((option) => option.value === status)?.cohort,
    pagination: { page, pageSize },
    sort,
    filters: conditions.length ? { $and: conditions } : undefined,
  };
  const list = useQuery({
    queryKey: ['list', type.uid, query],
    queryFn: () => api<ListAnswer>(`${contentPath(type)}${queryString(query)}`),
    placeholderData: keepPreviousData,
    // A localized type's list waits for the default locale.
    enabled: (!type.localized || locale !== undefined) && !view.isPending,
  });

  // The rows selected for a bulk action: this page's, cleared when the page's query changes.
  const [selection, setSelection] = useState<{ key: string; ids: string[] }>({ key: '', ids: [] });
  const selectionKey = JSON.stringify(query);
  const selected = selection.key === selectionKey ? selection.ids : [];
  const select = (ids: string[]) => setSelection({ key: selectionKey, ids });
  const pageIds = list.data?.data.map((document: Document) => document.documentId) ?? [];
  const bulkKinds: BulkKind[] = [
    ...(type.draftAndPublish && access.canOn('publish', type.uid, locale)
      ? (['bulkPublish', 'bulkUnpublish'] as const)
      : []),
    ...(access.canOn('delete', type.uid, locale) ? (['bulkDelete'] as const) : []),
  ];
  const mayCopy = access.canOn('create', type.uid, locale);
  const copies = useDuplicate(type.uid, locale);
  const nameOf = (documentId: string) => {
    const document = list.data?.data.find((item: Document) => item.documentId === documentId);
    return cell(type.mainField && document?.[type.mainField]) || documentId;
  };

  // The column that opens a row's edit view: the main field's, else the first.
  const linkIndex = Math.max(shown.indexOf(type.mainField ?? ''), 0);

  const [sortField, sortOrder] = sort.split(':');
  const header = (name: string, label = name) => {
    const active = sortField === name;
    const next = active && sortOrder === 'asc' ? 'desc' : 'asc';
    return (
      <Table.Th key={name} aria-sort={active ? (sortOrder === 'asc' ? 'ascending' : 'descending') : 'none'}>
        <UnstyledButton fw={700} onClick={() => update({ sort: `${name}:${next}`, page: null })}>
          {label} {active ? (sortOrder === 'asc' ? '▲' : '▼') : ''}
        </UnstyledButton>
      </Table.Th>
    );
  };
  const total = list.data?.meta.pagination.total ?? 0;

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1}>{type.displayName}</Title>
          <Text c="dimmed">{list.data ? `${total} ${total === 1 ? 'entry' : 'entries'} found` : ' '}</Text>
        </div>
        {access.can('plugin::content-manager.collection-types.configure-view') && (
          <Button variant="default" component={Link} to={`/content/${type.uid}/configure`}>
            Configure the view
          </Button>
        )}
        {access.canOn('create', type.uid, locale) && (
          <Button component={Link} to={`/content/${type.uid}/create${localeQuery}`}>
            Create new entry
          </Button>
        )}
      </Group>
      <Group align="flex-end">
        {type.localized && <LocaleSelect value={locale} onChange={setLocale} allowed={readable} />}
        {type.mainField && (
          <TextInput
            label="Search"
            placeholder={`Search by ${type.mainField}`}
            value={search}
            onChange={(event) => update({ q: event.currentTarget.value, page: null })}
            w={320}
          />
        )}
        {type.draftAndPublish && (
          <NativeSelect
            label="Status"
            data={STATUS_FILTERS.map(({ value, label }) => ({ value, label }))}
            value={status}
            onChange={(event) => update({ status: event.currentTarget.value || null, page: null })}
            w={220}
          />
        )}
        {fields.length > 0 && (
          <FirstUse
            load={loadFilterButton}
            button={(handlers) => (
              <Button
                variant="default"
                aria-label="Filters"
                aria-expanded={false}
                rightSection={
                  filters.length ? (
                    <Badge size="sm" circle aria-hidden>
                      {filters.length}
                    </Badge>
                  ) : undefined
                }
                {...handlers}
              >
                Filters
              </Button>
            )}
            control={<FilterButton fields={fields} filters={filters} onChange={setFilters} initiallyOpened />}
          />
        )}
        <FirstUse
          load={loadColumnsPicker}
          button={(handlers) => (
            <Button variant="default" {...handlers}>
              Columns
            </Button>
          )}
          control={
            <ColumnsPicker
              columns={listable.map((attribute) => ({
                name: attribute.name,
                label: columnLabel(view.data, attribute.name),
              }))}
              chosen={chosen}
              onChange={setColumns}
              initiallyOpened
            />
          }
        />
      </Group>
      <FilterChips fields={fields} filters={filters} onChange={setFilters} />
      <BulkActionBar
        uid={type.uid}
        locale={locale}
        selected={selected}
        nameOf={nameOf}
        kinds={bulkKinds}
        onDone={() => select([])}
      />
      {list.error && <Alert color="red">{list.error.message}</Alert>}
      {list.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover aria-label={`${type.displayName} entries`}>
            <Table.Thead>
              <Table.Tr>
                {bulkKinds.length > 0 && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select all entries on this page"
                      checked={pageIds.length > 0 && selected.length === pageIds.length}
                      indeterminate={selected.length > 0 && selected.length < pageIds.length}
                      onChange={(event) => select(event.currentTarget.checked ? pageIds : [])}
                    />
                  </Table.Th>
                )}
                {shown.map((name) => header(name, columnLabel(view.data, name)))}
                {type.draftAndPublish && <Table.Th>Status</Table.Th>}
                {header('updatedAt', 'Last update')}
                {mayCopy && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((document: Document) => {
                const status = statusOf(type, list.data.meta.publication[document.documentId]);
                return (
                  <Table.Tr key={document.documentId}>
                    {bulkKinds.length > 0 && (
                      <Table.Td>
                        <Checkbox
                          aria-label={`Select ${nameOf(document.documentId)}`}
                          checked={selected.includes(document.documentId)}
                          onChange={(event) =>
                            select(
                              event.currentTarget.checked
                                ? [...selected, document.documentId]
                                : selected.filter((id) => id !== document.documentId),
                            )
                          }
                        />
                      </Table.Td>
                    )}
                    {shown.map((name, index) => (
                      <Table.Td key={name}>
                        {index === linkIndex ? (
                          <Anchor component={Link} to={`/content/${type.uid}/${document.documentId}${localeQuery}`}>
                            {cell(document[name], () => mainOf(name)) || `(no ${name})`}
                          </Anchor>
                        ) : (
                          cell(document[name], () => mainOf(name))
                        )}
                      </Table.Td>
                    ))}
                    {status && (
                      <Table.Td>
                        <Badge color={STATUS_COLORS[status]} variant="light">
                          {status}
                        </Badge>
                      </Table.Td>
                    )}
                    <Table.Td>{new Date(String(document.updatedAt)).toLocaleString()}</Table.Td>
                    {mayCopy && (
                      <Table.Td w={40}>
                        <FirstUse
                          load={loadRowMenu}
                          button={(handlers) => (
                            <UnstyledButton
                              aria-label={`More actions for ${nameOf(document.documentId)}`}
                              {...handlers}
                            >
                              ⋯
                            </UnstyledButton>
                          )}
                          control={
                            <RowMenu
                              name={nameOf(document.documentId)}
                              onDuplicate={() => void copies.start(document.documentId)}
                              initiallyOpened
                            />
                          }
                        />
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          {list.data?.data.length === 0 && (
            <Text p="md">
              No entries{search ? ` match “${search}”` : filters.length || status ? ' match the filters' : ' yet'}.
            </Text>
          )}
        </Table.ScrollContainer>
      )}
      {copies.dialog}
      <Group justify="space-between">
        <NativeSelect
          label="Entries per page"
          data={PAGE_SIZES}
          value={pageSize}
          onChange={(event) => update({ pageSize: event.currentTarget.value, page: null })}
          w={160}
        />
        <Pagination
          total={list.data?.meta.pagination.pageCount ?? 1}
          value={page}
          onChange={(next) => update({ page: String(next) })}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        />
      </Group>
    </Stack>
  );
}
