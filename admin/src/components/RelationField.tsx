import { ActionIcon, Group, Input, Paper, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, queryString } from '../api.ts';
import { contentPath, type ListAnswer } from '../content.ts';
import { mainFieldOf, relationItem, type RelationItem } from '../fields.ts';
import { valueAt, type FieldProps } from './FieldInput.tsx';

/**
 * A relation: a searchable picker of the target's documents (searched on the server by its main
 * field), and for a to-many relation the chosen documents in order, each movable and removable.
 */
export function RelationField({ attribute, form, models, path = attribute.name }: FieldProps) {
  const target = models.contentType(attribute.target!);
  const items = (valueAt(form, path) as RelationItem[] | undefined) ?? [];
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  const main = mainFieldOf(models, attribute);
  const query = {
    pagination: { pageSize: 20 },
    sort: main ? `${main}:asc` : undefined,
    fields: main ? [main] : undefined,
    filters: debounced && main ? { [main]: { $containsi: debounced } } : undefined,
  };
  const options = useQuery({
    queryKey: ['relation-options', attribute.target, query],
    queryFn: () => api<ListAnswer>(`${contentPath(target!)}${queryString(query)}`),
    enabled: target?.kind === 'collectionType',
  });
  const found = (options.data?.data ?? []).map((document) => relationItem(models, attribute.target!, document, main));
  const error = form.getInputProps(path).error as string | undefined;
  const set = (next: RelationItem[]) => form.setFieldValue(path, next);

  if (!attribute.toMany) {
    const current = items[0];
    const data = [
      ...(current ? [current] : []),
      ...found.filter((item) => item.documentId !== current?.documentId),
    ].map((item) => ({ value: item.documentId, label: item.label }));
    return (
      <Select
        label={attribute.name}
        withAsterisk={attribute.required}
        placeholder={`Search ${target?.displayName ?? 'documents'}`}
        searchable
        clearable
        data={data}
        value={current?.documentId ?? null}
        onChange={(value) =>
          set(
            value ? [{ documentId: value, label: data.find((option) => option.value === value)?.label ?? value }] : [],
          )
        }
        onSearchChange={setSearch}
        nothingFoundMessage={options.isFetching ? 'Searching' : 'Nothing found'}
        error={error}
      />
    );
  }

  const chosen = new Set(items.map((item) => item.documentId));
  // Drag and drop reorders too (the buttons do it from the keyboard).
  const [dragged, setDragged] = useState<number | null>(null);
  const move = (from: number, to: number) => {
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    set(next);
  };
  return (
    <Input.Wrapper
      label={attribute.name}
      withAsterisk={attribute.required}
      error={error}
      description={target ? `${target.displayName} entries, in order` : undefined}
    >
      <Stack gap="xs" mt={4}>
        {items.length > 0 && (
          <Paper withBorder p={0} component="ol" aria-label={attribute.name} style={{ listStyle: 'none', margin: 0 }}>
            {items.map((item, index) => (
              <Group
                key={item.documentId}
                component="li"
                justify="space-between"
                px="sm"
                py={6}
                wrap="nowrap"
                aria-label={item.label}
                draggable
                onDragStart={() => setDragged(index)}
                onDragOver={(event) => event.preventDefault()}
                onDrop={(event) => {
                  event.preventDefault();
                  if (dragged !== null && dragged !== index) move(dragged, index);
                  setDragged(null);
                }}
                onDragEnd={() => setDragged(null)}
                style={{ cursor: 'grab', opacity: dragged === index ? 0.5 : 1 }}
              >
                <Text size="sm" truncate>
                  <span aria-hidden="true">⠿ </span>
                  {item.label}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Move ${item.label} up`}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    ↑
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={`Move ${item.label} down`}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    ↓
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${item.label}`}
                    onClick={() => set(items.filter((_, i) => i !== index))}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </Group>
            ))}
          </Paper>
        )}
        <Select
          aria-label={`Add to ${attribute.name}`}
          placeholder={`Add ${target?.displayName ?? 'an entry'}`}
          searchable
          data={found
            .filter((item) => !chosen.has(item.documentId))
            .map((item) => ({ value: item.documentId, label: item.label }))}
          value={null}
          searchValue={search}
          onSearchChange={setSearch}
          onChange={(value) => {
            const item = found.find((candidate) => candidate.documentId === value);
            if (item) set([...items, item]);
            setSearch('');
          }}
          nothingFoundMessage={options.isFetching ? 'Searching' : 'Nothing found'}
        />
      </Stack>
    </Input.Wrapper>
  );
}
