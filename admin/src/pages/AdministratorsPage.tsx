import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, session } from '../api.ts';
import { showFormError } from '../form-errors.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';

interface Administrator {
  id: number;
  email: string;
  createdAt: string | null;
}

const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');

/** The people who log in to this panel: listed, created, deleted (never oneself, never the last); one's own password changed. */
export function AdministratorsPage() {
  const queryClient = useQueryClient();
  const admins = useQuery({
    queryKey: ['administrators'],
    queryFn: async () => (await api<{ data: Administrator[] }>('/admin/administrators')).data,
  });
  const me = useQuery({
    queryKey: ['administrators', 'me'],
    queryFn: async () => (await api<{ data: Administrator }>('/admin/administrators/me')).data,
    staleTime: Infinity,
  });
  const [deleting, setDeleting] = useState<Administrator | null>(null);
  const form = useForm({ initialValues: { email: '', password: '' } });

  const create = useMutation({
    mutationFn: (values: typeof form.values) =>
      api<{ data: Administrator }>('/admin/administrators', { method: 'POST', body: values }),
    onSuccess: ({ data }) => {
      notifications.show({ color: 'green', message: `${data.email} can now log in` });
      form.reset();
      void queryClient.invalidateQueries({ queryKey: ['administrators'] });
    },
    onError: (error) => showFormError(error, ['email', 'password'], form.setFieldError, 'Not created'),
  });
  const remove = useMutation({
    mutationFn: (admin: Administrator) => api(`/admin/administrators/${admin.id}`, { method: 'DELETE' }),
    onSuccess: (_answer, admin) => {
      notifications.show({ color: 'green', message: `${admin.email} deleted` });
      void queryClient.invalidateQueries({ queryKey: ['administrators'] });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });
  const only = (admins.data?.length ?? 0) <= 1;

  return (
    <Stack>
      <Title order={1}>Administrators</Title>
      <Text c="dimmed">The people who log in to this panel.</Text>
      <Paper withBorder p="lg" component="section" aria-label="Create an administrator">
        <form onSubmit={form.onSubmit((values) => create.mutate(values))}>
          <Stack>
            <Title order={2} size="h4">
              Create an administrator
            </Title>
            <Group align="flex-start" grow>
              <TextInput label="Email" type="email" required autoComplete="off" {...form.getInputProps('email')} />
              <PasswordInput
                label="Password"
                required
                description="8 to 72 characters"
                autoComplete="new-password"
                {...form.getInputProps('password')}
              />
            </Group>
            <Group>
              <Button type="submit" loading={create.isPending}>
                Create administrator
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {admins.error && <Alert color="red">{admins.error.message}</Alert>}
      {admins.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <Table.ScrollContainer minWidth={500}>
          <Table striped aria-label="Administrators">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {admins.data?.map((admin) => {
                const self = admin.id === me.data?.id;
                return (
                  <Table.Tr key={admin.id}>
                    <Table.Td>
                      {admin.email} {self && <Badge variant="light">You</Badge>}
                    </Table.Td>
                    <Table.Td>{when(admin.createdAt)}</Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        <Button
                          variant="subtle"
                          color="red"
                          size="xs"
                          aria-label={`Delete ${admin.email}`}
                          disabled={self || only}
                          title={
                            self ? 'You cannot delete yourself' : only ? 'The last administrator stays' : undefined
                          }
                          onClick={() => setDeleting(admin)}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <OwnPassword />
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

function OwnPassword() {
  const form = useForm({
    initialValues: { currentPassword: '', password: '', confirmation: '' },
    validate: { confirmation: (value, values) => (value === values.password ? null : 'The passwords differ') },
  });
  const change = useMutation({
    mutationFn: ({ currentPassword, password }: typeof form.values) =>
      api<{ data: { token: string } }>('/admin/administrators/me/password', {
        method: 'PUT',
        body: { currentPassword, password },
      }),
    onSuccess: ({ data }) => {
      // Every earlier token of this administrator is refused now: this tab goes on with the new one.
      session.set(data.token);
      notifications.show({ color: 'green', message: 'Your password is changed; your other sessions have ended' });
      form.reset();
    },
    onError: (error) => showFormError(error, ['currentPassword', 'password'], form.setFieldError, 'Not changed'),
  });
  return (
    <Paper withBorder p="lg" component="section" aria-label="Change your password">
      <form onSubmit={form.onSubmit((values) => change.mutate(values))}>
        <Stack>
          <Title order={2} size="h4">
            Change your password
          </Title>
          <Group align="flex-start" grow>
            <PasswordInput
              label="Current password"
              required
              autoComplete="current-password"
              {...form.getInputProps('currentPassword')}
            />
            <PasswordInput
              label="New password"
              required
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Confirm the new password"
              required
              autoComplete="new-password"
              {...form.getInputProps('confirmation')}
            />
          </Group>
          <Group>
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
