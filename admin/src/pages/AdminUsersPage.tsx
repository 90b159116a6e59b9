import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ReadOnlyNote, refreshAccess, useMe, useRights, type AdminUser } from '../access.tsx';
import { api, queryString } from '../api.ts';
import { ActionsTable, DeleteButton, EditButton } from '../components/ActionsTable.tsx';
import { AdminUserModal, InviteModal } from '../components/AdminUserModals.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { SortableHeader } from '../components/SortableHeader.tsx';
import { useParamsUpdate } from '../url-params.ts';

interface AdminUserPage {
  data: {
    results: AdminUser[];
    pagination: { page: number; pageSize: number; pageCount: number; total: number };
  };
}

const PAGE_SIZES = ['10', '25', '50', '100'];

export const fullName = (user: Pick<AdminUser, 'firstname' | 'lastname'>): string =>
  [user.firstname, user.lastname].filter(Boolean).join(' ');

/**
 * The administrators (Strapi's Settings › Administration panel › Users): a page at a time,
 * searched and sorted on the server (`GET /admin/users`), with their roles and whether they are
 * active; invited (the invitation link shown to copy), edited (names, email, active, roles),
 * deleted (asks first; never oneself). Each action shows only with its permission.
 */
export function AdminUsersPage() {
  const queryClient = useQueryClient();
  const rights = useRights('/manage/admin-users');
  const me = useMe();
  const [params] = useSearchParams();
  const update = useParamsUpdate();
  const page = Number(params.get('page') ?? '1') || 1;
  const pageSize = params.get('pageSize') ?? '10';
  const search = params.get('q') ?? '';
  const sort = params.get('sort') ?? 'firstname:asc';
  const [debounced] = useDebouncedValue(search, 250);
  const query = { page, pageSize, _q: debounced, sort };
  const admins = useQuery({
    queryKey: ['admin-users', query],
    queryFn: async () => (await api<AdminUserPage>(`/admin/users${queryString(query)}`)).data,
    placeholderData: keepPreviousData,
  });
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['admin-users'] }),
      queryClient.invalidateQueries({ queryKey: ['admin-roles'] }),
    ]);
  const remove = useMutation({
    mutationFn: (admin: AdminUser) => api(`/admin/users/${admin.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, admin) => {
      notifications.show({ color: 'green', message: `${admin.email} deleted` });
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });
  const header = (name: string, label: string) => (
    <SortableHeader name={name} label={label} sort={sort} onSort={(next) => update({ sort: next, page: null })} />
  );
  const total = admins.data?.pagination.total ?? 0;

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1}>Users</Title>
          <Text c="dimmed">
            The administrators who log in to this panel
            {admins.data ? `: ${total} ${total === 1 ? 'administrator' : 'administrators'}` : ''}.
          </Text>
        </div>
        {rights.create && <Button onClick={() => setInviting(true)}>Invite new user</Button>}
      </Group>
      <TextInput
        label="Search administrators"
        placeholder="Name or email"
        value={search}
        onChange={(event) => update({ q: event.currentTarget.value, page: null })}
        w={320}
      />
      {rights.readOnly && <ReadOnlyNote what="the administrators" />}
      {admins.error && <Alert color="red">{admins.error.message}</Alert>}
      {admins.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <ActionsTable
          label="Administrators"
          minWidth={800}
          head={
            <>
              {header('firstname', 'Name')}
              {header('email', 'Email')}
              <Table.Th>Roles</Table.Th>
              {header('isActive', 'Status')}
            </>
          }
          rows={admins.data?.results}
          rowKey={(admin) => admin.id}
          cells={(admin) => (
            <>
              <Table.Td>
                {fullName(admin) || '—'}{' '}
                {admin.id === me?.id && (
                  <Badge variant="light" ml={4}>
                    You
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{admin.email}</Table.Td>
              <Table.Td>{admin.roles.map((role) => role.name).join(', ')}</Table.Td>
              <Table.Td>
                <Badge color={admin.isActive ? 'green' : 'gray'} variant="light">
                  {admin.isActive ? 'Active' : 'Inactive'}
                </Badge>
              </Table.Td>
            </>
          )}
          actions={(admin) => (
            <>
              {rights.update && <EditButton name={admin.email} onClick={() => setEditing(admin)} />}
              {rights.delete && admin.id !== me?.id && (
                <DeleteButton name={admin.email} onClick={() => setDeleting(admin)} />
              )}
            </>
          )}
        >
          {admins.data?.results.length === 0 && <Text p="md">No administrators found.</Text>}
        </ActionsTable>
      )}
      <Group justify="space-between">
        <NativeSelect
          label="Administrators per page"
          data={PAGE_SIZES}
          value={pageSize}
          onChange={(event) => update({ pageSize: event.currentTarget.value, page: null })}
          w={180}
        />
        <Pagination
          total={admins.data?.pagination.pageCount ?? 0}
          value={page}
          onChange={(next) => update({ page: String(next) })}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
          getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
        />
      </Group>
      {inviting && <InviteModal onClose={() => setInviting(false)} onInvited={() => void refresh()} />}
      {editing && (
        <AdminUserModal
          admin={editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void refresh();
            // One's own roles, or a role one holds, may have changed.
            void refreshAccess(queryClient);
          }}
        />
      )}
      <ConfirmDialog
        subject={deleting}
        title="Delete this administrator?"
        onClose={() => setDeleting(null)}
        onConfirm={(subject) => remove.mutate(subject)}
      >
        {deleting?.email} can no longer log in to this panel.
      </ConfirmDialog>
    </Stack>
  );
}
