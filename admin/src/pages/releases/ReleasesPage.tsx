import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useAccess } from '../../access.tsx';
import { RELEASE_STATUS_COLORS, RELEASES, useReleases, zonedLabel, type ReleaseTab } from '../../releases.ts';
import { ReleaseModal } from './ReleaseModal.tsx';

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
      {creating && <ReleaseModal onClose={() => setCreating(false)} />}
    </Stack>
  );
}
