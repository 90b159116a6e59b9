import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAccess } from '../../access.tsx';
import { api, ApiError } from '../../api.ts';
import {
  RELEASE_STATUS_COLORS,
  RELEASES,
  timeZones,
  useReleases,
  zonedLabel,
  zonedToUtc,
  type ReleaseTab,
  type ReleaseWithCount,
} from '../../releases.ts';

/** The new release's form: a name, and when scheduled a date, a time and the zone they are read in. */
function NewReleaseModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scheduled, setScheduled] = useState(false);
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const zones = timeZones();
  const [zone, setZone] = useState(zones[0]!);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const at = scheduled ? zonedToUtc(date, time, zone) : null;
    if (scheduled && !at) return setError('Choose a date and a time');
    setBusy(true);
    try {
      const created = await api<{ data: ReleaseWithCount }>('/content-releases', {
        method: 'POST',
        body: { name, scheduledAt: at ? at.toISOString() : null, timezone: at ? zone : null },
      });
      await queryClient.invalidateQueries({ queryKey: ['releases'] });
      onClose();
      navigate(`/releases/${created.data.id}`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="New release">
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
              Continue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ReleaseList({ tab }: { tab: ReleaseTab }) {
  const releases = useReleases(tab);
  if (releases.isPending) return <Loader size="sm" aria-label="Loading" />;
  if (releases.error) return <Alert color="red">{releases.error.message}</Alert>;
  if (releases.data.data.length === 0)
    return <Text c="dimmed">{tab === 'pending' ? 'No pending releases' : 'No releases published yet'}</Text>;
  return (
    <Table verticalSpacing="xs" aria-label={tab === 'pending' ? 'Pending releases' : 'Done releases'}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Entries</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>{tab === 'pending' ? 'Scheduled' : 'Released'}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {releases.data.data.map((release) => (
          <Table.Tr key={release.id}>
            <Table.Td>
              <Anchor component={Link} to={`/releases/${release.id}`}>
                {release.name}
              </Anchor>
            </Table.Td>
            <Table.Td>{release.actions.meta.count}</Table.Td>
            <Table.Td>
              <Badge color={RELEASE_STATUS_COLORS[release.status]} variant="light">
                {release.status}
              </Badge>
            </Table.Td>
            <Table.Td>
              <Text size="sm" c="dimmed">
                {tab === 'done'
                  ? release.releasedAt && zonedLabel(release.releasedAt, null)
                  : release.scheduledAt
                    ? zonedLabel(release.scheduledAt, release.timezone)
                    : 'Not scheduled'}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Releases: the pending ones and those done, and a new release. */
export function ReleasesPage() {
  const access = useAccess();
  const [tab, setTab] = useState<ReleaseTab>('pending');
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Releases
        </Title>
        {access.can(RELEASES.create) && <Button onClick={() => setCreating(true)}>New release</Button>}
      </Group>
      <Tabs value={tab} onChange={(value) => setTab((value as ReleaseTab | null) ?? 'pending')}>
        <Tabs.List>
          <Tabs.Tab value="pending">Pending</Tabs.Tab>
          <Tabs.Tab value="done">Done</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="pending" pt="md">
          <ReleaseList tab="pending" />
        </Tabs.Panel>
        <Tabs.Panel value="done" pt="md">
          <ReleaseList tab="done" />
        </Tabs.Panel>
      </Tabs>
      <NewReleaseModal opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
