import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api.ts';
import { PermissionsMatrix, usePermissionTree } from '../components/PermissionsMatrix.tsx';
import { showFormError } from '../form-errors.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ReadOnlyNote, useAccess, useRights } from '../access.tsx';

interface Token {
  id: number;
  name: string;
  description: string | null;
  type: string;
  permissions: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

const DAY = 86_400_000;
const DURATIONS = [
  { value: '', label: 'Unlimited' },
  { value: String(7 * DAY), label: '7 days' },
  { value: String(30 * DAY), label: '30 days' },
  { value: String(90 * DAY), label: '90 days' },
];
const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

/** API tokens: created (their key shown once), listed, revoked; each with its action. */
export function ApiTokensPage() {
  const rights = useRights('/manage/api-tokens');
  // The screen opens with `api-tokens.access` too; the list needs `api-tokens.read`.
  const mayList = useAccess().can('admin::api-tokens.read');
  const queryClient = useQueryClient();
  const tokens = useQuery({
    queryKey: ['api-tokens'],
    queryFn: async () => (await api<{ data: Token[] }>('/admin/api-tokens')).data,
    enabled: mayList,
  });
  const [revoking, setRevoking] = useState<Token | null>(null);
  const [key, setKey] = useState<{ name: string; accessKey: string } | null>(null);
  const form = useForm({ initialValues: { name: '', description: '', type: 'read-only', lifespan: '' } });
  // A custom token's actions: the same matrix as a role's (content-types × actions).
  const [granted, setGranted] = useState<Set<string>>(new Set());
  const tree = usePermissionTree();

  const create = useMutation({
    mutationFn: (values: typeof form.values) =>
      api<{ data: Token & { accessKey: string } }>('/admin/api-tokens', {
        method: 'POST',
        body: {
          name: values.name,
          description: values.description || null,
          type: values.type,
          lifespan: values.lifespan ? Number(values.lifespan) : null,
          ...(values.type === 'custom' ? { permissions: [...granted] } : {}),
        },
      }),
    onSuccess: ({ data }) => {
      setKey({ name: data.name, accessKey: data.accessKey });
      form.reset();
      setGranted(new Set());
      void queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
    },
    onError: (error) => showFormError(error, ['name', 'description', 'lifespan'], form.setFieldError, 'Not created'),
  });
  const revoke = useMutation({
    mutationFn: (token: Token) => api(`/admin/api-tokens/${token.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, token) => {
      notifications.show({ color: 'green', message: `${token.name} revoked` });
      void queryClient.invalidateQueries({ queryKey: ['api-tokens'] });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not revoked', message: error.message }),
  });

  return (
    <Stack>
      <Title order={1}>API tokens</Title>
      <Text c="dimmed">
        Keys for applications that read or write the content API. A key is shown once, when it is created.
      </Text>
      {rights.readOnly && <ReadOnlyNote what="the API tokens" />}
      {rights.create && (
        <Paper withBorder p="lg" component="section" aria-label="Create an API token">
          <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
            <Stack>
              <Title order={2} size="h4">
                Create an API token
              </Title>
              <Group align="flex-start" grow>
                <TextInput label="Name" required {...form.getInputProps('name')} />
                <NativeSelect
                  label="Token type"
                  data={[
                    { value: 'read-only', label: 'Read-only' },
                    { value: 'full-access', label: 'Full access' },
                    { value: 'custom', label: 'Custom' },
                  ]}
                  {...form.getInputProps('type')}
                />
                <NativeSelect label="Token duration" data={DURATIONS} {...form.getInputProps('lifespan')} />
              </Group>
              <Textarea label="Description" autosize {...form.getInputProps('description')} />
              {form.values.type === 'custom' && (
                <Stack gap="xs">
                  <Title order={3} size="h5">
                    Permissions
                  </Title>
                  {tree.error && <Alert color="red">{tree.error.message}</Alert>}
                  {tree.data ? (
                    <PermissionsMatrix
                      tree={tree.data}
                      value={granted}
                      onChange={setGranted}
                      label="Token permissions"
                    />
                  ) : (
                    <Loader aria-label="Loading" />
                  )}
                </Stack>
              )}
              <Group>
                <Button type="submit" loading={create.isPending}>
                  Create token
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
      {tokens.error && <Alert color="red">{tokens.error.message}</Alert>}
      {!mayList ? (
        <Text>Your roles do not let you list the API tokens.</Text>
      ) : tokens.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <Table.ScrollContainer minWidth={700}>
          <Table striped aria-label="API tokens">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Description</Table.Th>
                <Table.Th>Expires</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.data?.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.name}</Table.Td>
                  <Table.Td>
                    {token.type === 'custom'
                      ? `custom (${token.permissions.length} ${token.permissions.length === 1 ? 'action' : 'actions'})`
                      : token.type}
                  </Table.Td>
                  <Table.Td>{token.description}</Table.Td>
                  <Table.Td>{token.expiresAt ? when(token.expiresAt) : 'Never'}</Table.Td>
                  <Table.Td>{when(token.lastUsedAt)}</Table.Td>
                  <Table.Td>{when(token.createdAt)}</Table.Td>
                  <Table.Td>
                    {rights.delete && (
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        aria-label={`Revoke ${token.name}`}
                        onClick={() => setRevoking(token)}
                      >
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {tokens.data?.length === 0 && <Text p="md">No API tokens yet.</Text>}
        </Table.ScrollContainer>
      )}
      <Modal opened={key !== null} onClose={() => setKey(null)} title={`${key?.name ?? ''}: copy its key now`}>
        <Stack>
          <Text>This key is shown once. Keep it where the application reads its secrets.</Text>
          <Code block aria-label="Access key" data-testid="access-key">
            {key?.accessKey}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={key?.accessKey ?? ''}>
              {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy the key'}</Button>}
            </CopyButton>
            <Button variant="default" onClick={() => setKey(null)}>
              Done
            </Button>
          </Group>
        </Stack>
      </Modal>
      <ConfirmDialog
        subject={revoking}
        title="Revoke this token?"
        confirmLabel="Yes, revoke"
        onClose={() => setRevoking(null)}
        onConfirm={(subject) => revoke.mutate(subject)}
      >
        Applications using {revoking?.name} lose their access at once.
      </ConfirmDialog>
    </Stack>
  );
}
