import { Badge, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshAccess, useMe, type AdminUser } from '../access.tsx';
import { api, session } from '../api.ts';
import { showFormError } from '../form-errors.ts';

/** The administrator's own account: names and email (`PUT /admin/users/me`), roles shown, password changed. */
export function ProfilePage() {
  const me = useMe();
  return (
    <Stack>
      <Title order={1}>Profile</Title>
      <Group gap="xs">
        <Text c="dimmed">Your roles:</Text>
        {me?.roles.map((role) => (
          <Badge key={role.id} variant="light">
            {role.name}
          </Badge>
        ))}
      </Group>
      {me && <OwnDetails me={me} />}
      <OwnPassword />
    </Stack>
  );
}

function OwnDetails({ me }: { me: AdminUser }) {
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { firstname: me.firstname ?? '', lastname: me.lastname ?? '', email: me.email },
  });
  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      api<{ data: AdminUser }>('/admin/users/me', {
        method: 'PUT',
        body: { ...values, lastname: values.lastname || null },
      }),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Your profile is saved' });
      void refreshAccess(queryClient);
    },
    onError: (error) => showFormError(error, ['firstname', 'lastname', 'email'], form.setFieldError, 'Not saved'),
  });
  return (
    <Paper withBorder p="lg" component="section" aria-label="Your details">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
        <Stack>
          <Title order={2} size="h4">
            Your details
          </Title>
          <Group align="flex-start" grow>
            <TextInput label="First name" required {...form.getInputProps('firstname')} />
            <TextInput label="Last name" {...form.getInputProps('lastname')} />
            <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
          </Group>
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save details
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
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
