import { Alert, Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, ApiError } from '../../api.ts';
import { useAccess } from '../../access.tsx';
import {
  RELEASES,
  timeZones,
  useReleaseSettings,
  zonedParts,
  zonedToUtc,
  type ReleaseWithCount,
} from '../../releases.ts';

/**
 * A release's form, new (`release` undefined: opens the release once made) or edited: a name, and
 * when scheduled a date, a time (to the second) and the zone they are read in, sent as the UTC
 * instant with the zone's name. A new release's zone is the releases' default time zone (their
 * settings, when the administrator may read them), else the browser's.
 */
export function ReleaseModal({ release, onClose }: { release?: ReleaseWithCount; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const settings = useReleaseSettings(useAccess().can(RELEASES.settingsRead) && !release);
  const zones = timeZones(release?.timezone ?? settings.data?.defaultTimezone);
  const initial = release?.scheduledAt ? zonedParts(release.scheduledAt, zones[0]!) : { date: '', time: '' };
  const [name, setName] = useState(release?.name ?? '');
  const [scheduled, setScheduled] = useState(Boolean(release?.scheduledAt));
  const [date, setDate] = useState(initial.date);
  const [time, setTime] = useState(initial.time);
  // null: the first of `zones` (the default may arrive after the dialog opens).
  const [chosen, setZone] = useState<string | null>(null);
  const zone = chosen ?? zones[0]!;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const at = scheduled ? zonedToUtc(date, time, zone) : null;
    if (scheduled && !at) return setError('Choose a date and a time');
    setBusy(true);
    try {
      const body = { name, scheduledAt: at ? at.toISOString() : null, timezone: at ? zone : null };
      const saved = await api<{ data: ReleaseWithCount }>(
        release ? `/content-releases/${release.id}` : '/content-releases',
        {
          method: release ? 'PUT' : 'POST',
          body,
        },
      );
      await queryClient.invalidateQueries({ queryKey: ['releases'] });
      await queryClient.invalidateQueries({ queryKey: ['release', String(saved.data.id)] });
      onClose();
      if (!release) navigate(`/releases/${saved.data.id}`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={release ? 'Edit release' : 'New release'}>
      <form onSubmit={(event) => void submit(event)}>
        <Stack>
          {error && <Alert color="red">{error}</Alert>}
          <TextInput label="Name" required value={name} onChange={(event) => setName(event.currentTarget.value)} />
          <Checkbox
            label="Schedule release"
            checked={scheduled}
            onChange={(event) => setScheduled(event.currentTarget.checked)}
          />
          {scheduled && (
            <>
              <Group grow>
                <TextInput
                  type="date"
                  label="Date"
                  required
                  value={date}
                  onChange={(event) => setDate(event.currentTarget.value)}
                />
                <TextInput
                  type="time"
                  label="Time"
                  required
                  step={1}
                  value={time}
                  onChange={(event) => setTime(event.currentTarget.value)}
                />
              </Group>
              <Select
                label="Time zone"
                searchable
                data={zones}
                value={zone}
                onChange={(value) => value && setZone(value)}
                allowDeselect={false}
              />
            </>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {release ? 'Save' : 'Continue'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
