import { useParamsUpdate } from '../url-params.ts';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Pagination,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { api, queryString } from '../api.ts';
import { showFormError } from '../form-errors.ts';
import { useRoles } from './RolesPage.tsx';
import { ActionsTable, DeleteButton, EditButton } from '../components/ActionsTable.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { SortableHeader } from '../components/SortableHeader.tsx';
import { ReadOnlyNote, useAccess, useRights } from '../access.tsx';

interface User {
  id: number;
  username: string;
  email: string;
  confirmed: boolean;
  blocked: boolean;
  role: { id: number; name: string; type: string } | null;
}

interface UserList {
  data: User[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

const PAGE_SIZES = ['10', '25', '50', '100'];

/**
 * The people who log in to the content API (plugin::users-permissions.user): a page at a time,
 * searched on the server by username or email; created, edited, blocked, deleted.
 */
export function UsersPage() {
  const rights = useRights('/manage/users');
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const page = Number(params.get('page') ?? '1') || 1;
  const pageSize = params.get('pageSize') ?? '10';
  const search = params.get('q') ?? '';
  const sort = params.get('sort') ?? 'username:asc';
  const [debounced] = useDebouncedValue(search, 250);
  const update = useParamsUpdate();
  const query = { page, pageSize, search: debounced, sort };
  const users = useQuery({
    queryKey: ['users', query],
    queryFn: () => api<UserList>(`/admin/users-permissions/users${queryString(query)}`),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const [deleting, setDeleting] = useState<User | null>(null);
  const refresh = () =>
    queryClient
      .invalidateQueries({ queryKey: ['users'] })
      .then(() => queryClient.invalidateQueries({ queryKey: ['roles'] }));

  const block = useMutation({
    mutationFn: (user: User) =>
      api(`/admin/users-permissions/users/${user.id}`, { method: 'PUT', body: { blocked: !user.blocked } }),
    onSuccess: (_answer, user) => {
      notifications.show({ color: 'green', message: `${user.username} ${user.blocked ? 'unblocked' : 'blocked'}` });
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not changed', message: error.message }),
  });
  const remove = useMutation({
    mutationFn: (user: User) => api(`/admin/users-permissions/users/${user.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, user) => {
      notifications.show({ color: 'green', message: `${user.username} deleted` });
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });
  const total = users.data?.meta.pagination.total ?? 0;
  const header = (name: string, label: string) => (
    <SortableHeader name={name} label={label} sort={sort} onSort={(next) => update({ sort: next, page: null })} />
  );

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1}>Users</Title>
          <Text c="dimmed">{users.data ? `${total} ${total === 1 ? 'user' : 'users'} found` : ' '}</Text>
        </div>
        {rights.create && <Button onClick={() => setEditing('new')}>Create new user</Button>}
      </Group>
      <Group align="flex-end">
        <TextInput
          label="Search users"
          placeholder="Username or email"
          value={search}
          onChange={(event) => update({ q: event.currentTarget.value, page: null })}
          w={320}
        />
      </Group>
      {rights.readOnly && <ReadOnlyNote what="the users" />}
      {users.error && <Alert color="red">{users.error.message}</Alert>}
      {users.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <ActionsTable
          label="Users"
          minWidth={800}
          head={
            <>
              {header('username', 'Username')}
              {header('email', 'Email')}
              <Table.Th>Role</Table.Th>
              <Table.Th>Status</Table.Th>
            </>
          }
          rows={users.data?.data}
          rowKey={(user) => user.id}
          cells={(user) => (
            <>
              <Table.Td>{user.username}</Table.Td>
              <Table.Td>{user.email}</Table.Td>
              <Table.Td>{user.role?.name ?? '—'}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {user.blocked && <Badge color="red">Blocked</Badge>}
                  {!user.confirmed && <Badge color="gray">Unconfirmed</Badge>}
                  {!user.blocked && user.confirmed && <Badge color="green">Active</Badge>}
                </Group>
              </Table.Td>
            </>
          )}
          actions={(user) => (
            <>
              {rights.update && <EditButton name={user.username} onClick={() => setEditing(user)} />}
              {rights.update && (
                <Button
                  variant="subtle"
                  size="xs"
                  color={user.blocked ? 'green' : 'orange'}
                  aria-label={`${user.blocked ? 'Unblock' : 'Block'} ${user.username}`}
                  onClick={() => block.mutate(user)}
                >
                  {user.blocked ? 'Unblock' : 'Block'}
                </Button>
              )}
              {rights.delete && <DeleteButton name={user.username} onClick={() => setDeleting(user)} />}
            </>
          )}
        >
          {users.data?.data.length === 0 && <Text p="md">No users found.</Text>}
        </ActionsTable>
      )}
      <Group justify="space-between">
        <NativeSelect
          label="Users per page"
          data={PAGE_SIZES}
          value={pageSize}
          onChange={(event) => update({ pageSize: event.currentTarget.value, page: null })}
          w={140}
        />
        <Pagination
          total={users.data?.meta.pagination.pageCount ?? 0}
          value={page}
          onChange={(next) => update({ page: String(next) })}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      </Group>
      {editing !== null && (
        <UserModal
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
          }}
        />
      )}
      <ConfirmDialog
        subject={deleting}
        title="Delete this user?"
        onClose={() => setDeleting(null)}
        onConfirm={(subject) => remove.mutate(subject)}
      >
        {deleting?.username} can no longer log in; their account is removed.
      </ConfirmDialog>
    </Stack>
  );
}

const FIELDS = ['username', 'email', 'password', 'role', 'confirmed', 'blocked'];

/** A user's form: a new one (password required) or an existing one (an empty password keeps it). */
function UserModal({ user, onClose, onSaved }: { user: User | null; onClose: () => void; onSaved: () => void }) {
  // The roles to choose from need `roles.read`: without it, the role stays as it is.
  const mayReadRoles = useAccess().can('plugin::users-permissions.roles.read');
  const roles = useRoles(mayReadRoles);
  const form = useForm({
    initialValues: {
      username: user?.username ?? '',
      email: user?.email ?? '',
      password: '',
      role: user?.role ? String(user.role.id) : '',
      confirmed: user?.confirmed ?? true,
      blocked: user?.blocked ?? false,
    },
  });
  const save = useMutation({
    mutationFn: (values: typeof form.values) => {
      const body: Record<string, unknown> = {
        username: values.username,
        email: values.email,
        confirmed: values.confirmed,
        blocked: values.blocked,
      };
      if (values.password) body.password = values.password;
      if (values.role) body.role = user ? Number(values.role) : values.role;
      return user
        ? api(`/admin/users-permissions/users/${user.id}`, { method: 'PUT', body })
        : api('/admin/users-permissions/users', { method: 'POST', body });
    },
    onSuccess: (_answer, values) => {
      notifications.show({ color: 'green', message: `${values.username} saved` });
      onSaved();
    },
    onError: (error) => showFormError(error, FIELDS, form.setFieldError, 'Not saved'),
  });
  const roleOptions = mayReadRoles
    ? (roles.data ?? []).map((role) => ({ value: String(role.id), label: role.name }))
    : user?.role
      ? [{ value: String(user.role.id), label: user.role.name }]
      : [];

  return (
    <Modal opened onClose={onClose} title={user ? `Edit ${user.username}` : 'Create a user'}>
      <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
        <Stack>
          <TextInput label="Username" required {...form.getInputProps('username')} />
          <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            required={!user}
            description={user ? 'Leave empty to keep the current password' : undefined}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <NativeSelect
            label="Role"
            data={user ? roleOptions : [{ value: '', label: 'The default role' }, ...roleOptions]}
            description={mayReadRoles ? undefined : 'Your roles do not let you read the roles: it stays as it is'}
            disabled={!mayReadRoles}
            {...form.getInputProps('role')}
          />
          <Checkbox label="Confirmed" {...form.getInputProps('confirmed', { type: 'checkbox' })} />
          <Checkbox label="Blocked" {...form.getInputProps('blocked', { type: 'checkbox' })} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {user ? 'Save' : 'Create user'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
