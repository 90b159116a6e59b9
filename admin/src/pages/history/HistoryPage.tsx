/**
 * The "Content history" screen of a document (docs/history.md), opened from its edit view: its
 * versions (when, who, status), the selected version's fields beside the current document's with
 * the changed ones marked, and Restore (after a confirmation), which makes the version the
 * document's draft and names the relations whose targets were deleted since.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { NotAllowed, useAccess } from '../../access.tsx';
import { api, queryString } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { contentPath, STATUS_COLORS, type DocumentAnswer } from '../../content.ts';
import { modelsOf, populateFor } from '../../fields.ts';
import { useSchema, type ContentTypeDescription, type SchemaDescription } from '../../schema.ts';
import { authorOf, differs, restoreVersion, shown, statusLabel, useVersions, type HistoryVersion } from './history.ts';

/** Strapi's FIELDS_TO_IGNORE: what a version neither shows nor restores. */
const IGNORED = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);

export function HistoryPage() {
  const { uid, documentId } = useParams();
  const schema = useSchema();
  const access = useAccess();
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const type = schema.data?.contentTypes.find((candidate) => candidate.uid === uid);
  if (!type) return <Alert color="red">{schema.error?.message ?? `No content-type ${uid}`}</Alert>;
  if (!access.canOn('read', type.uid)) return <NotAllowed />;
  return <History type={type} documentId={documentId} schema={schema.data!} />;
}

function History({
  type,
  documentId,
  schema,
}: {
  type: ContentTypeDescription;
  documentId: string | undefined;
  schema: SchemaDescription;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const access = useAccess();
  const queryClient = useQueryClient();
  const locale = new URLSearchParams(location.search).get('locale') ?? undefined;
  const localeQuery = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  const editor =
    type.kind === 'singleType'
      ? `/content/${type.uid}${localeQuery}`
      : `/content/${type.uid}/${documentId}${localeQuery}`;
  const versions = useVersions(type.uid, documentId, locale);
  const models = modelsOf(schema);
  const current = useQuery({
    queryKey: ['document', type.uid, documentId ?? null, locale ?? null, 'history'],
    queryFn: () =>
      api<DocumentAnswer>(
        `${contentPath(type, documentId)}${queryString({ populate: populateFor(type.attributes, models), locale })}`,
      ),
  });
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState<HistoryVersion | null>(null);
  const [restoring, setRestoring] = useState(false);
  if (versions.isPending || current.isPending) return <Loader aria-label="Loading" />;
  if (versions.error) return <Alert color="red">{versions.error.message}</Alert>;
  const list = versions.data.data;
  const selected = list.find((version) => version.id === selectedId) ?? list[0];
  const document: Record<string, unknown> = current.data?.data ?? {};
  const canRestore = access.canOn('update', type.uid, locale);
  const mainField = (target: string | undefined) => {
    const model = target ? schema.contentTypes.find((candidate) => candidate.uid === target) : undefined;
    const field = model?.mainField;
    return (item: Record<string, unknown>) =>
      field && item[field] !== undefined && item[field] !== null
        ? String(item[field])
        : String(item.documentId ?? item.id);
  };
  const fields = type.attributes.filter((attribute) => !IGNORED.has(attribute.name));

  const restore = async (version: HistoryVersion) => {
    setRestoring(true);
    try {
      const answer = await restoreVersion(version);
      const missing = answer.meta.missingRelations;
      notifications.show({
        color: missing.length ? 'yellow' : 'green',
        message: missing.length
          ? `Version restored as a draft. Left out, deleted since: ${missing.map((item) => `${item.attribute} ${item.documentId}`).join(', ')}`
          : 'Version restored as a draft',
        autoClose: missing.length ? false : 4000,
      });
      await queryClient.invalidateQueries({ queryKey: ['document', type.uid] });
      await queryClient.invalidateQueries({ queryKey: ['history', type.uid] });
      await navigate(editor);
    } catch (error) {
      notifications.show({ color: 'red', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setRestoring(false);
    }
  };

  return (
    <Stack>
      <div>
        <Anchor component={Link} to={editor} size="sm">
          ← Back to the entry
        </Anchor>
        <Title order={1}>Content history</Title>
        <Text c="dimmed" size="sm">
          {type.displayName}
          {locale ? ` · ${locale}` : ''} · {versions.data.meta.pagination.total} versions
        </Text>
      </div>
      {list.length === 0 ? (
        <Text c="dimmed">No versions yet: every save of this entry will make one.</Text>
      ) : (
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Paper withBorder p="md" component="section" aria-label="Selected version">
              <Group justify="space-between" mb="sm">
                <div>
                  <Text fw={600}>{new Date(selected!.createdAt).toLocaleString()}</Text>
                  <Text size="sm" c="dimmed">
                    {authorOf(selected!)}
                  </Text>
                </div>
                {canRestore && (
                  <Button onClick={() => setConfirming(selected!)} loading={restoring}>
                    Restore
                  </Button>
                )}
              </Group>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>This version</Table.Th>
                    <Table.Th>Current</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {fields.map((attribute) => {
                    const then = selected!.data[attribute.name];
                    const now = document[attribute.name];
                    const changed = differs(attribute.type, then, now);
                    const name = mainField(attribute.target);
                    return (
                      <Table.Tr
                        key={attribute.name}
                        data-changed={changed || undefined}
                        bg={changed ? 'var(--mantine-color-yellow-light)' : undefined}
                      >
                        <Table.Td>
                          <Group gap={6}>
                            <Text size="sm" fw={500}>
                              {attribute.name}
                            </Text>
                            {changed && (
                              <Badge size="xs" color="yellow" variant="filled">
                                Changed
                              </Badge>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td style={{ wordBreak: 'break-word' }}>{shown(then, name)}</Table.Td>
                        <Table.Td style={{ wordBreak: 'break-word' }}>{shown(now, name)}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
              {Object.keys(selected!.meta.unknownAttributes.removed).length > 0 && (
                <Text size="sm" c="dimmed" mt="sm">
                  Fields since removed from the type (not restored):{' '}
                  {Object.keys(selected!.meta.unknownAttributes.removed).join(', ')}
                </Text>
              )}
            </Paper>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Paper withBorder p="xs" component="nav" aria-label="Versions">
              <Stack gap={4}>
                {list.map((version) => {
                  const label = statusLabel(version.status);
                  const active = version.id === selected!.id;
                  return (
                    <UnstyledButton
                      key={version.id}
                      onClick={() => setSelectedId(version.id)}
                      aria-current={active || undefined}
                      p="xs"
                      bg={active ? 'var(--mantine-color-blue-light)' : undefined}
                      style={{ borderRadius: 4 }}
                    >
                      <Group justify="space-between" wrap="nowrap">
                        <div>
                          <Text size="sm" fw={active ? 600 : 400}>
                            {new Date(version.createdAt).toLocaleString()}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {authorOf(version)}
                          </Text>
                        </div>
                        {type.draftAndPublish && (
                          <Badge size="sm" variant="light" color={STATUS_COLORS[label]}>
                            {label}
                          </Badge>
                        )}
                      </Group>
                    </UnstyledButton>
                  );
                })}
              </Stack>
            </Paper>
          </Grid.Col>
        </Grid>
      )}
      <ConfirmDialog
        subject={confirming}
        title="Restore this version?"
        confirmLabel="Yes, restore"
        onClose={() => setConfirming(null)}
        onConfirm={(version) => void restore(version)}
      >
        The entry&apos;s draft takes this version&apos;s values; its current draft stays in the history. Relations to
        entries deleted since are left out.
      </ConfirmDialog>
    </Stack>
  );
}
