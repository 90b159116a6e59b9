import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '../api.ts';
import { NotAllowed, useAccess } from '../access.tsx';
import { listableAttribute } from '../fields.ts';
import { useSchema } from '../schema.ts';
import { saveViewConfiguration, useViewConfiguration, type ViewConfiguration } from '../view-configuration.ts';

const PAGE_SIZES = ['10', '20', '50', '100'];

/**
 * "Configure the view" of a type (Strapi's list and edit view settings in one screen): the list's
 * columns, their order and labels, its page size and default sort; each field's label,
 * description and placeholder, and the field that names a relation's documents. Stored on the
 * server (the type's content-manager configuration): every administrator's list and edit views follow it.
 */
export function ConfigureViewPage() {
  const { uid = '' } = useParams();
  const schema = useSchema();
  const access = useAccess();
  const view = useViewConfiguration(uid);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<ViewConfiguration | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (view.data && !draft) setDraft(structuredClone(view.data));
  }, [view.data]);

  const type = schema.data?.contentTypes.find((candidate) => candidate.uid === uid);
  if (schema.isPending || view.isPending) return <Loader aria-label="Loading" />;
  if (!type) return <Alert color="red">{schema.error?.message ?? `No content-type ${uid}`}</Alert>;
  const action = `plugin::content-manager.${type.kind === 'singleType' ? 'single' : 'collection'}-types.configure-view`;
  if (!access.can(action)) return <NotAllowed />;
  if (view.error || !draft) return <Alert color="red">{view.error?.message ?? 'No configuration'}</Alert>;

  const change = (fn: (next: ViewConfiguration) => void) => {
    const next = structuredClone(draft);
    fn(next);
    setDraft(next);
  };
  const columns = draft.layouts.list;
  const candidates = [
    'id',
    ...type.attributes
      .filter((attribute) => listableAttribute(attribute) || attribute.type === 'relation')
      .map((attribute) => attribute.name),
    'createdAt',
    'updatedAt',
  ].filter((name) => !columns.includes(name) && draft.metadatas[name]);
  const move = (index: number, by: number) =>
    change((next) => {
      const list = next.layouts.list;
      const [moved] = list.splice(index, 1);
      list.splice(index + by, 0, moved!);
    });
  const targetFields = (target: string | undefined) =>
    (schema.data?.contentTypes.find((candidate) => candidate.uid === target)?.attributes ?? [])
      .filter((attribute) => listableAttribute(attribute))
      .map((attribute) => attribute.name);
  const fields = draft.layouts.edit.flat().map((field) => field.name);

  const save = async () => {
    setSaving(true);
    setErrors([]);
    try {
      const saved = await saveViewConfiguration(uid, draft);
      queryClient.setQueryData(['view-configuration', uid], saved);
      setDraft(structuredClone(saved));
      notifications.show({ color: 'green', message: 'View configured' });
    } catch (error) {
      const listed = error instanceof ApiError ? error.details.errors : undefined;
      setErrors(Array.isArray(listed) ? listed.map(String) : [error instanceof Error ? error.message : String(error)]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack>
      <div>
        <Anchor component={Link} to={`/content/${uid}`} size="sm">
          ← Back to {type.displayName}
        </Anchor>
        <Title order={1}>Configure the view</Title>
        <Text c="dimmed">{type.displayName}: what its list and edit views show, for every administrator.</Text>
      </div>
      {errors.length > 0 && (
        <Alert color="red" title="Not saved">
          {errors.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </Alert>
      )}
      <Paper withBorder p="lg">
        <Title order={2} size="h4" mb="sm">
          List
        </Title>
        <Group mb="md">
          <Select
            label="Entries per page"
            data={PAGE_SIZES}
            value={String(draft.settings.pageSize ?? 10)}
            onChange={(value) => change((next) => void (next.settings.pageSize = Number(value)))}
            allowDeselect={false}
            w={160}
          />
          <Select
            label="Default sort"
            data={Object.keys(draft.metadatas).filter((name) => draft.metadatas[name]?.list.sortable)}
            value={String(draft.settings.defaultSortBy ?? '')}
            onChange={(value) => value && change((next) => void (next.settings.defaultSortBy = value))}
            allowDeselect={false}
            w={200}
          />
          <Select
            label="Sort order"
            data={['ASC', 'DESC']}
            value={String(draft.settings.defaultSortOrder ?? 'ASC')}
            onChange={(value) => value && change((next) => void (next.settings.defaultSortOrder = value))}
            allowDeselect={false}
            w={120}
          />
        </Group>
        <Table aria-label="Columns">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Column</Table.Th>
              <Table.Th>Label</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {columns.map((name, index) => (
              <Table.Tr key={name}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={`Label of the ${name} column`}
                    value={draft.metadatas[name]?.list.label ?? name}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      change((next) => void (next.metadatas[name]!.list.label = value));
                    }}
                  />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} justify="flex-end">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${name} up`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      ↑
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Move ${name} down`}
                      disabled={index === columns.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      ↓
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove the ${name} column`}
                      disabled={columns.length === 1}
                      onClick={() => change((next) => void next.layouts.list.splice(index, 1))}
                    >
                      ×
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {candidates.length > 0 && (
          <Select
            mt="sm"
            label="Add a column"
            placeholder="Choose a field"
            data={candidates}
            value={null}
            onChange={(value) => value && change((next) => void next.layouts.list.push(value))}
            w={240}
          />
        )}
      </Paper>
      <Paper withBorder p="lg">
        <Title order={2} size="h4" mb="sm">
          Edit view
        </Title>
        <Stack>
          {fields.map((name) => {
            const attribute = type.attributes.find((candidate) => candidate.name === name);
            const edit = draft.metadatas[name]?.edit ?? {};
            const set = (key: 'label' | 'description' | 'placeholder' | 'mainField', value: string) =>
              change((next) => void (next.metadatas[name]!.edit[key] = value));
            return (
              <Group key={name} align="flex-end" role="group" aria-label={`Field ${name}`}>
                <Text w={140} fw={500}>
                  {name}
                </Text>
                <TextInput
                  label="Label"
                  value={edit.label ?? ''}
                  onChange={(e) => set('label', e.currentTarget.value)}
                />
                <TextInput
                  label="Description"
                  value={edit.description ?? ''}
                  onChange={(e) => set('description', e.currentTarget.value)}
                />
                <TextInput
                  label="Placeholder"
                  value={edit.placeholder ?? ''}
                  onChange={(e) => set('placeholder', e.currentTarget.value)}
                />
                {attribute?.type === 'relation' && (
                  <Select
                    label="Main field"
                    data={[...new Set([...targetFields(attribute.target), 'id'])]}
                    value={edit.mainField ?? 'id'}
                    onChange={(value) => value && set('mainField', value)}
                    allowDeselect={false}
                    w={160}
                  />
                )}
              </Group>
            );
          })}
        </Stack>
      </Paper>
      <Group justify="flex-end">
        <Button onClick={() => void save()} loading={saving}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
