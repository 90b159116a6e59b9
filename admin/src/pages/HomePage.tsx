import {
  Alert,
  Anchor,
  Badge,
  Group,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useAccess, useMe } from '../access.tsx';
import { STATUS_COLORS } from '../content.ts';
import {
  countShares,
  editPath,
  relativeTime,
  statusLabel,
  titleOf,
  KEY_STATISTICS,
  useDocumentCounts,
  useKeyStatistics,
  useRecentDocuments,
  type RecentAction,
} from '../homepage.ts';
import { useSchema } from '../schema.ts';

const SHARE_COLORS = { Draft: 'gray', Modified: 'orange', Published: 'green' } as const;

/** A widget of the home page: a titled region (a landmark screen readers list by its title). */
function Widget({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** The entries last edited or last published: title (a link to its editor), type, status, when. */
function RecentDocuments({ action, empty }: { action: RecentAction; empty: string }) {
  const recent = useRecentDocuments(action);
  if (recent.isPending) return <Loader size="sm" aria-label="Loading" />;
  if (recent.error) return <Alert color="red">{recent.error.message}</Alert>;
  if (recent.data.length === 0) return <Text c="dimmed">{empty}</Text>;
  const now = new Date();
  return (
    <Table verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Entry</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>{action === 'publish' ? 'Published' : 'Edited'}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {recent.data.map((document) => {
          const status = statusLabel(document.status);
          // When it was edited, or published (Strapi's widget shows the edit in both lists).
          const at = action === 'publish' ? (document.publishedAt ?? document.updatedAt) : document.updatedAt;
          const type =
            document.kind === 'singleType'
              ? `${document.contentTypeDisplayName} (single type)`
              : document.contentTypeDisplayName;
          return (
            <Table.Tr key={`${document.contentTypeUid} ${document.documentId} ${document.locale ?? ''}`}>
              <Table.Td maw={0} w="100%">
                <Anchor
                  component={Link}
                  to={editPath(document)}
                  title={titleOf(document)}
                  truncate="end"
                  display="block"
                >
                  {titleOf(document)}
                </Anchor>
                <Text size="xs" c="dimmed" truncate="end" data-part="type">
                  {document.locale ? `${type} · ${document.locale}` : type}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {status ? (
                  <Badge color={STATUS_COLORS[status]} variant="light" miw="max-content">
                    {status}
                  </Badge>
                ) : (
                  <Text c="dimmed" aria-label="No status">
                    -
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm" c="dimmed" title={new Date(at).toLocaleString()}>
                  {relativeTime(at, now)}
                </Text>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

/** How many entries are drafts, modified, published: a bar of their shares and its legend. */
function EntryCounts() {
  const counts = useDocumentCounts();
  if (counts.isPending) return <Loader size="sm" aria-label="Loading" />;
  if (counts.error) return <Alert color="red">{counts.error.message}</Alert>;
  const { total, shares } = countShares(counts.data);
  if (total === 0) return <Text c="dimmed">No entries yet</Text>;
  return (
    <Stack gap="sm">
      <Text size="xl" fw={700}>
        {total} {total === 1 ? 'entry' : 'entries'}
      </Text>
      <Progress.Root size="lg" aria-hidden>
        {shares.map((share) => (
          <Progress.Section key={share.label} value={share.percent} color={SHARE_COLORS[share.label]} />
        ))}
      </Progress.Root>
      <Group
        gap="lg"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Entries by status"
      >
        {shares.map((share) => (
          <Group key={share.label} gap={6} component="li">
            <Badge color={SHARE_COLORS[share.label]} variant="light">
              {share.label}
            </Badge>
            <Text size="sm">{share.count}</Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

/**
 * The project's counts, as Strapi's "Project statistics" widget (a Super Admin's): the entries by
 * status added up, then the key statistics, a label and a number each.
 */
function ProjectStatistics() {
  const statistics = useKeyStatistics();
  const counts = useDocumentCounts();
  if (statistics.isPending || counts.isPending) return <Loader size="sm" aria-label="Loading" />;
  if (statistics.error || counts.error) return <Alert color="red">{(statistics.error ?? counts.error)!.message}</Alert>;
  const entries = countShares(counts.data).total;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" m={0}>
      <div>
        <Text component="dt" size="sm" c="dimmed">
          Entries
        </Text>
        <Text component="dd" size="xl" fw={700} m={0} data-statistic="entries">
          {entries}
        </Text>
      </div>
      {KEY_STATISTICS.map(([key, label]) => (
        <div key={key}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" size="xl" fw={700} m={0} data-statistic={key}>
            {statistics.data[key] ?? '-'}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/**
 * The home page, as Strapi 5's: a greeting, then the entries last edited and last published
 * (each a link to its editor, with its type, status and time) and the entries by status, among
 * what the administrator's roles let them read, and the project's counts.
 */
export function HomePage() {
  const schema = useSchema();
  const access = useAccess();
  const me = useMe();
  const name = me?.firstname || me?.email || '';
  const greeting = (
    <div>
      <Title order={1}>{name ? `Hello ${name}` : 'Hello'}</Title>
      <Text c="dimmed">Welcome to your administration panel</Text>
    </div>
  );
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const types = schema.data?.contentTypes ?? [];
  if (types.length === 0)
    return (
      <Stack>
        {greeting}
        <Text>
          This project has no content-types yet: make them in the{' '}
          <Anchor component={Link} to="/content-type-builder">
            Content-Type Builder
          </Anchor>{' '}
          (under <code>vellum develop</code>), or add schema files under src/api/.
        </Text>
      </Stack>
    );
  if (!types.some((type) => access.canOn('read', type.uid)))
    return (
      <Stack>
        {greeting}
        <Text>Your roles let you read none of this project's content-types.</Text>
      </Stack>
    );
  return (
    <Stack gap="lg">
      {greeting}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Widget title="Last edited entries">
          <RecentDocuments action="update" empty="No edited entries" />
        </Widget>
        <Widget title="Last published entries">
          <RecentDocuments action="publish" empty="No published entries" />
        </Widget>
        <Widget title="Entries">
          <EntryCounts />
        </Widget>
        {access.superAdmin && (
          <Widget title="Project statistics">
            <ProjectStatistics />
          </Widget>
        )}
      </SimpleGrid>
    </Stack>
  );
}
