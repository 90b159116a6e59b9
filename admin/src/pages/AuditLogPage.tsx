import {
  Alert,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  ACTIONS,
  actionLabel,
  countLabel,
  subjectOf,
  useAuditCount,
  useAuditLog,
  useAuditSettings,
  useAuditUsers,
  type AuditFilters,
  type AuditLogEntry,
} from '../audit.ts';
import { useSchema } from '../schema.ts';
import { currentParams } from '../url-params.ts';

const PAGE_SIZES = ['10', '25', '50', '100'];
const FILTER_KEYS = ['user', 'action', 'type', 'from', 'to'] as const;
/** The built-in types whose changes are recorded beside the project's. */
const BUILT_IN_TYPES: Record<string, string> = {
  'plugin::users-permissions.user': 'User (content API)',
  'plugin::users-permissions.role': 'Role (content API)',
  'plugin::upload.file': 'Media file',
};

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }) + ' UTC';

/**
 * The audit log: every administrator's change, newest first, filtered by person, action,
 * content-type and dates (kept in the URL), a page at a time by cursor (older and newer: each page
 * costs the same however long the log), an entry's details in a dialog.
 */
export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filters: AuditFilters = Object.fromEntries(
    FILTER_KEYS.flatMap((key) => (params.get(key) ? [[key, params.get(key)!]] : [])),
  );
  const pageSize = Number(params.get('pageSize') ?? '25') || 25;
  /** The cursors of the pages before this one: empty on the newest page. */
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const [open, setOpen] = useState<AuditLogEntry | null>(null);
  const entries = useAuditLog(filters, pageSize, cursor);
  const count = useAuditCount(filters);
  const users = useAuditUsers();
  const settings = useAuditSettings();
  const schema = useSchema();
  const typeNames = new Map<string, string>([
    ...(schema.data?.contentTypes ?? []).map((type) => [type.uid, type.displayName] as const),
    ...Object.entries(BUILT_IN_TYPES),
  ]);
  const update = (changes: Record<string, string | null>) => {
    const next = currentParams();
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
    // Other filters, other pages: back to the newest.
    setCursors([]);
  };
  const next = entries.data?.pagination.next ?? null;

  return (
    <Stack>
      <div>
        <Title order={1}>Audit log</Title>
        <Text c="dimmed">
          Every administrator&apos;s change, newest first
          {settings.data ? `, kept ${settings.data.retentionDays} days` : ''}.
        </Text>
      </div>
      <Group align="flex-end" wrap="wrap">
        <NativeSelect
          label="Person"
          value={filters.user ?? ''}
          onChange={(event) => update({ user: event.currentTarget.value })}
          data={[
            { value: '', label: 'Anyone' },
            ...(users.data ?? []).map((user) => ({
              value: String(user.id),
              label:
                user.displayName && user.displayName !== user.email
                  ? `${user.displayName} (${user.email})`
                  : (user.email ?? `#${user.id}`),
            })),
          ]}
          w={260}
        />
        <NativeSelect
          label="Action"
          value={filters.action ?? ''}
          onChange={(event) => update({ action: event.currentTarget.value })}
          data={[
            { value: '', label: 'Any action' },
            ...Object.entries(ACTIONS).map(([value, label]) => ({ value, label })),
          ]}
          w={220}
        />
        <NativeSelect
          label="Content-type"
          value={filters.type ?? ''}
          onChange={(event) => update({ type: event.currentTarget.value })}
          data={[
            { value: '', label: 'Any content-type' },
            ...[...typeNames].map(([value, label]) => ({ value, label })),
          ]}
          w={220}
        />
        <TextInput
          type="date"
          label="From"
          value={filters.from ?? ''}
          onChange={(event) => update({ from: event.currentTarget.value })}
          w={160}
        />
        <TextInput
          type="date"
          label="To"
          value={filters.to ?? ''}
          onChange={(event) => update({ to: event.currentTarget.value })}
          w={160}
        />
        {FILTER_KEYS.some((key) => filters[key]) && (
          <Button variant="subtle" onClick={() => update(Object.fromEntries(FILTER_KEYS.map((key) => [key, null])))}>
            Clear filters
          </Button>
        )}
      </Group>
      <Text c="dimmed" aria-live="polite" data-testid="audit-count">
        {count.data ? countLabel(count.data.total, count.data.totalCapped) : ' '}
      </Text>
      {entries.error && <Alert color="red">{entries.error.message}</Alert>}
      {entries.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label="Audit log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Person</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Changed fields</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.data?.results.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>
                    <UnstyledButton
                      td="underline"
                      aria-label={`Details of ${actionLabel(entry.action)} at ${dateTime(entry.date)}`}
                      onClick={() => setOpen(entry)}
                    >
                      {dateTime(entry.date)}
                    </UnstyledButton>
                  </Table.Td>
                  <Table.Td>{actionLabel(entry.action)}</Table.Td>
                  <Table.Td>
                    {entry.user ? (entry.user.displayName ?? entry.user.email) : 'Vellum (a command)'}
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {subjectOf(entry, (uid) => typeNames.get(uid))}
                  </Table.Td>
                  <Table.Td>{entry.payload.changedFields?.join(', ') || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {entries.data?.results.length === 0 && <Text p="md">No entries.</Text>}
        </Table.ScrollContainer>
      )}
      <Group justify="space-between">
        <NativeSelect
          label="Entries per page"
          data={PAGE_SIZES}
          value={String(pageSize)}
          onChange={(event) => update({ pageSize: event.currentTarget.value })}
          w={140}
        />
        <Group>
          <Button variant="default" disabled={cursors.length === 0} onClick={() => setCursors([])}>
            Newest
          </Button>
          <Button
            variant="default"
            disabled={cursors.length === 0}
            onClick={() => setCursors((stack) => stack.slice(0, -1))}
          >
            Newer
          </Button>
          <Button
            variant="default"
            disabled={!next || entries.isPlaceholderData}
            onClick={() => next && setCursors((stack) => [...stack, next])}
          >
            Older
          </Button>
        </Group>
      </Group>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        title={open ? actionLabel(open.action) : ''}
        size="lg"
      >
        {open && (
          <Stack gap="xs">
            <Text>
              <b>When:</b> {dateTime(open.date)}
            </Text>
            <Text>
              <b>Who:</b>{' '}
              {open.user
                ? `${open.user.displayName ?? ''} <${open.user.email ?? ''}> (#${open.user.id})`
                : 'Vellum (a command)'}
            </Text>
            <Text>
              <b>Action:</b> <Code>{open.action}</Code>
            </Text>
            <Text>
              <b>About:</b> {subjectOf(open, (uid) => typeNames.get(uid))}
            </Text>
            {open.payload.changedFields && (
              <Text>
                <b>Changed fields:</b> {open.payload.changedFields.join(', ') || 'none'}
              </Text>
            )}
            {open.payload.details && <Code block>{JSON.stringify(open.payload.details, null, 2)}</Code>}
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
