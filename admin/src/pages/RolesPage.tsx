import { Alert, Button, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api.ts';
import { ActionsTable, DeleteButton } from '../components/ActionsTable.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ReadOnlyNote, useRights } from '../access.tsx';

export interface Role {
  id: number;
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  nb_users: number;
}

/** Strapi's panel keeps these two: Public answers requests without credentials, Authenticated is the default role. */
export const BUILT_IN = ['public', 'authenticated'];

/** The content API's roles (`enabled`: false for an administrator whose roles may not read them). */
export function useRoles(enabled = true) {
  return useQuery({
    queryKey: ['roles'],
    queryFn: async () => (await api<{ roles: Role[] }>('/admin/users-permissions/roles')).roles,
    enabled,
  });
}

/**
 * The content API's roles: listed with their number of users, opened to edit (to view without
 * `roles.update`), created, deleted (asks first), each with its action.
 */
export function RolesPage() {
  const rights = useRights('/manage/roles');
  const queryClient = useQueryClient();
  const roles = useRoles();
  const [deleting, setDeleting] = useState<Role | null>(null);
  const remove = useMutation({
    mutationFn: (role: Role) => api(`/admin/users-permissions/roles/${role.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, role) => {
      notifications.show({ color: 'green', message: `${role.name} deleted` });
      void queryClient.invalidateQueries({ queryKey: ['roles'] });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <div>
          <Title order={1}>Roles</Title>
          <Text c="dimmed">What each role may do on the content API. A request without credentials is Public's.</Text>
        </div>
        {rights.create && (
          <Button component={Link} to="/manage/roles/create">
            Create new role
          </Button>
        )}
      </Group>
      {rights.readOnly && <ReadOnlyNote what="the roles" />}
      {roles.error && <Alert color="red">{roles.error.message}</Alert>}
      {roles.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <ActionsTable
          label="Roles"
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
                <Link to={`/manage/roles/${role.id}`}>{role.name}</Link>
              </Table.Td>
              <Table.Td>{role.description}</Table.Td>
              <Table.Td>{role.nb_users}</Table.Td>
            </>
          )}
          actions={(role) => (
            <>
              <Button
                component={Link}
                to={`/manage/roles/${role.id}`}
                variant="subtle"
                size="xs"
                aria-label={`${rights.update ? 'Edit' : 'View'} ${role.name}`}
              >
                {rights.update ? 'Edit' : 'View'}
              </Button>
              {!BUILT_IN.includes(role.type) && rights.delete && (
                <DeleteButton name={role.name} onClick={() => setDeleting(role)} />
              )}
            </>
          )}
        />
      )}
      <ConfirmDialog
        subject={deleting}
        title="Delete this role?"
        onClose={() => setDeleting(null)}
        onConfirm={(subject) => remove.mutate(subject)}
      >
        {deleting?.name} is deleted; its {deleting?.nb_users ?? 0}{' '}
        {deleting?.nb_users === 1 ? 'user moves' : 'users move'} to Public.
      </ConfirmDialog>
    </Stack>
  );
}
