import { Alert, Loader, NativeSelect, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ReadOnlyNote, useRights } from '../access.tsx';
import { api } from '../api.ts';
import { SettingsForm } from '../components/SettingsForm.tsx';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { settingOf } from '../settings.ts';

import type { AdvancedSettingsValue as Advanced } from '../../../src/features/users-permissions/contract.ts';
interface Role {
  id: number;
  name: string;
  type: string;
}

const KEYS = [
  'unique_email',
  'allow_register',
  'email_confirmation',
  'email_reset_password',
  'email_confirmation_redirection',
  'default_role',
] as const;
const PATH = '/admin/users-permissions/advanced';

/**
 * The users-permissions advanced settings (registration, email confirmation, redirects, the default
 * role); read-only, without Save, for a role without `advanced-settings.update`.
 */
export function AdvancedSettingsPage() {
  const queryClient = useQueryClient();
  const { update: editable } = useRights('/manage/users-permissions/advanced');
  const advanced = useQuery({
    queryKey: ['users-permissions', 'advanced'],
    queryFn: () => api<{ settings: Advanced; roles: Role[] }>(PATH),
  });
  const [problem, setProblem] = useState<string | undefined>();
  const form = useForm({
    initialValues: {
      unique_email: true,
      allow_register: true,
      email_confirmation: false,
      email_reset_password: '',
      email_confirmation_redirection: '',
      default_role: '',
    },
  });

  useEffect(() => {
    if (!advanced.data) return;
    const { settings } = advanced.data;
    const values = {
      ...settings,
      email_reset_password: settings.email_reset_password ?? '',
      email_confirmation_redirection: settings.email_confirmation_redirection ?? '',
    };
    form.setValues(values);
    form.resetDirty(values);
  }, [advanced.data]);

  const { prompt: leavePrompt } = useUnsavedChanges({
    dirty: () => form.isDirty(),
    message: 'The advanced settings have changes that are not saved.',
  });

  const save = useMutation({
    // Empty URLs clear the setting (null).
    mutationFn: (values: typeof form.values) =>
      api(PATH, {
        method: 'PUT',
        body: {
          ...values,
          email_reset_password: values.email_reset_password.trim() || null,
          email_confirmation_redirection: values.email_confirmation_redirection.trim() || null,
        },
      }),
    onSuccess: (_answer, values) => {
      setProblem(undefined);
      form.resetDirty(values);
      notifications.show({ color: 'green', message: 'Advanced settings saved' });
      void queryClient.invalidateQueries({ queryKey: ['users-permissions', 'advanced'] });
    },
    onError: (error) => {
      const key = settingOf(error.message, KEYS);
      if (key) form.setFieldError(key, error.message);
      else setProblem(error.message);
    },
  });

  if (advanced.isPending) return <Loader aria-label="Loading" />;
  if (advanced.error) return <Alert color="red">{advanced.error.message}</Alert>;
  return (
    <Stack>
      <Title order={1}>Advanced settings</Title>
      <Text c="dimmed">
        How the users of the content API sign up and confirm their email address (users & permissions).
      </Text>
      {!editable && <ReadOnlyNote what="the advanced settings" />}
      <SettingsForm
        label="Advanced settings"
        editable={editable}
        problem={problem}
        saving={save.isPending}
        onSubmit={form.onSubmit((values) => save.mutate(values))}
      >
        <Stack>
          <NativeSelect
            label="Default role for authenticated users"
            description="The role given to a user who signs up"
            data={advanced.data.roles.map((role) => ({ value: role.type, label: role.name }))}
            {...form.getInputProps('default_role')}
          />
          <Switch
            label="One account per email address"
            description="Stored for Strapi's clients: Vellum keeps emails unique in any case"
            {...form.getInputProps('unique_email', { type: 'checkbox' })}
          />
          <Switch
            label="Enable sign-ups"
            description="Off: POST /api/auth/local/register is refused"
            {...form.getInputProps('allow_register', { type: 'checkbox' })}
          />
          <Switch
            label="Enable email confirmation"
            description="A new user confirms their email address before logging in"
            {...form.getInputProps('email_confirmation', { type: 'checkbox' })}
          />
          <TextInput
            label="Reset password page"
            description="The frontend's page the reset email links to"
            placeholder="https://example.com/reset-password"
            {...form.getInputProps('email_reset_password')}
          />
          <TextInput
            label="Redirection URL"
            description="Where a confirmed email address lands"
            placeholder="https://example.com/email-confirmed"
            {...form.getInputProps('email_confirmation_redirection')}
          />
        </Stack>
      </SettingsForm>
      {leavePrompt}
    </Stack>
  );
}
