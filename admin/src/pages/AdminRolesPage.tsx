import { Alert, Badge, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SUPER_ADMIN_CODE } from '../admin-permissions.ts';
import { ReadOnlyNote, useRights } from '../access.tsx';
import { api } from '../api.ts';
import { ActionsTable, DeleteButton } from '../components/ActionsTable.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';

/** An administrators' role as `GET /admin/roles` answers it. */
export interface AdminRole {
  id: number;
  name: string;
  code: string;
  description: string | null;
  usersCount?: number;
}

/** The administrators' roles (`enabled`: false for an administrator whose roles may not read them). */
export function useAdminRoles(enabled = true) {
  return useQuery({
    queryKey: ['admin-roles'],
    queryFn: async () => (await api<{ data: AdminRole[] }>('/admin/roles')).data,
    enabled,
  });
}

const users = (count = 0) => `${count} ${count === 1 ? 'user' : 'users'}`;

/**
 * The administrators' roles (Strapi's Settings › Administration panel › Roles): listed with their
 * number of administrators, opened to edit (the Super Admin's to read), created, deleted (asks
 * first; the API's refusal shows as it words it).
 */
export function AdminRolesPage() {
  const queryClient = useQueryClient();
  const rights = useRights('/manage/admin-roles');
  const roles = useAdminRoles();
  const [deleting, setDeleting] = useState<AdminRole | null>(null);
  const remove = useMutation({
    mutationFn: (role: AdminRole) => api(`/admin/roles/${role.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, role) => {
      notifications.show({ color: 'green', message: `${role.name} deleted` });
      void queryClient.invalidateQueries({ queryKey: ['admin-roles'] });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });
  const editable = rights.update;

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1}>Roles</Title>
          <Text c="dimmed">What the administrators of each role may do in this panel.</Text>
        </div>
        {rights.create && (
          <Button component={Link} to="/manage/admin-roles/create">
            Add new role
          </Button>
        )}
      </Group>
      {rights.readOnly && <ReadOnlyNote what="the roles" />}
      {roles.error && <Alert color="red">{roles.error.message}</Alert>}
      {roles.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <ActionsTable
          label="Administrator roles"
          minWidth={600}
          head={
            <>
              <Table.Th>Name</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th>Users</Table.Th>
            </>
          }
          rows={roles.data}
          rowKey={(role) => role.id}
          cells={(role) => (
            <>
              <Table.Td>
                <Group gap="xs">
                  <Link to={`/manage/admin-roles/${role.id}`}>{role.name}</Link>
                  {role.code === SUPER_ADMIN_CODE && (
                    <Badge variant="light" color="gray">
                      read-only
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{role.description}</Table.Td>
              <Table.Td>{users(role.usersCount)}</Table.Td>
            </>
          )}
          actions={(role) => {
            const fixed = role.code === SUPER_ADMIN_CODE || !editable;
            return (
              <>
                <Button
                  component={Link}
                  to={`/manage/admin-roles/${role.id}`}
                  variant="subtle"
                  size="xs"
                  aria-label={`${fixed ? 'View' : 'Edit'} ${role.name}`}
                >
                  {fixed ? 'View' : 'Edit'}
                </Button>
                {role.code !== SUPER_ADMIN_CODE && rights.delete && (
                  <DeleteButton name={role.name} onClick={() => setDeleting(role)} />
                )}
              </>
            );
          }}
        />
      )}
      <ConfirmDialog
        subject={deleting}
        title="Delete this role?"
        onClose={() => setDeleting(null)}
        onConfirm={(subject) => remove.mutate(subject)}
      >
        {deleting?.name} and its permissions are deleted.
        {deleting?.usersCount ? ` It has ${users(deleting.usersCount)}: a role in use cannot be deleted.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
