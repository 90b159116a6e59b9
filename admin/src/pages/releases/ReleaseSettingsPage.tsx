import { Alert, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ReadOnlyNote, useRights } from '../../access.tsx';
import { api } from '../../api.ts';
import { SettingsForm } from '../../components/SettingsForm.tsx';
import { timeZones, useReleaseSettings } from '../../releases.ts';

/**
 * The releases' settings (Strapi's Settings > Releases): the default time zone the New release
 * dialog starts with (none: the browser's). Read-only, without Save, for a role without
 * `plugin::content-releases.settings.update`.
 */
export function ReleaseSettingsPage() {
  const queryClient = useQueryClient();
  const { update: editable } = useRights('/manage/releases');
  const settings = useReleaseSettings();
  // undefined: as stored.
  const [zone, setZone] = useState<string | null | undefined>(undefined);
  const shown = zone === undefined ? (settings.data?.defaultTimezone ?? null) : zone;
  const save = useMutation({
    mutationFn: (defaultTimezone: string | null) =>
      api('/content-releases/settings', { method: 'PUT', body: { defaultTimezone } }),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: 'Releases settings saved' });
      await queryClient.invalidateQueries({ queryKey: ['releases', 'settings'] });
      setZone(undefined);
    },
  });
  if (settings.isPending) return <Loader aria-label="Loading" />;
  if (settings.error) return <Alert color="red">{settings.error.message}</Alert>;
  return (
    <Stack>
      <Title order={1}>Releases</Title>
      <Text c="dimmed">The time zone a new scheduled release starts with.</Text>
      {!editable && <ReadOnlyNote what="the releases settings" />}
      <SettingsForm
        label="Releases settings"
        editable={editable}
        problem={save.error?.message}
        saving={save.isPending}
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(shown);
        }}
      >
        <Select
          label="Default time zone"
          description="None: the browser's time zone"
          placeholder="None"
          searchable
          clearable
          data={timeZones()}
          value={shown}
          onChange={(value) => setZone(value)}
        />
      </SettingsForm>
    </Stack>
  );
}
