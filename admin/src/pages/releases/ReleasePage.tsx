import { Alert, Anchor, Badge, Button, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useAccess } from '../../access.tsx';
import { api, ApiError } from '../../api.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ReleaseModal } from './ReleaseModal.tsx';
import {
  entryLabel,
  RELEASE_STATUS_COLORS,
  RELEASES,
  useRelease,
  useReleaseActions,
  zonedLabel,
  type ListedReleaseAction,
} from '../../releases.ts';

/** Where an action's entry is edited in the panel. */
const editorPath = (action: ListedReleaseAction) =>
  `/content/${action.contentType.uid}/${encodeURIComponent(action.entryDocumentId ?? '')}${
    action.locale ? `?locale=${encodeURIComponent(action.locale.code)}` : ''
  }`;

/** Whether the entry can be published, and when not why (the publish rules' own words). */
function Validity({ action }: { action: ListedReleaseAction }) {
  if (action.isEntryValid)
    return (
      <Badge color="green" variant="light">
        Ready to {action.type}
      </Badge>
    );
  const reasons = action.problem?.errors.length
    ? action.problem.errors.map((error) => `${error.path.join('.')}: ${error.message}`)
    : [action.problem?.message ?? 'Not valid'];
  return (
    <Stack gap={2}>
      <Badge color="red" variant="light">
        Not ready to publish
      </Badge>
      {reasons.map((reason) => (
        <Text key={reason} size="xs" c="red" data-part="reason">
          {reason}
        </Text>
      ))}
    </Stack>
  );
}

/** A release: its entries grouped by content-type with their validity, and Publish. */
export function ReleasePage() {
  const { id = '' } = useParams();
  const access = useAccess();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const release = useRelease(id);
  const actions = useReleaseActions(id);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [editing, setEditing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['release', id] });
  // Listing the actions checks their entries again: the release's status follows. Its first read may
  // still be under way from before that check; React Query would hand back that read rather than
  // start another (it only cancels a refetch of data already shown), so it is cancelled first.
  useEffect(() => {
    if (!actions.dataUpdatedAt) return;
    const key = { queryKey: ['release', id], exact: true };
    void queryClient.cancelQueries(key).then(() => queryClient.invalidateQueries(key));
  }, [actions.dataUpdatedAt, id, queryClient]);
  const run = async (fn: () => Promise<unknown>) => {
    setError(null);
    setBusy(true);
    try {
      await fn();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
      await refresh();
      await queryClient.invalidateQueries({ queryKey: ['releases'] });
    }
  };
  if (release.isPending) return <Loader aria-label="Loading" />;
  if (release.error) return <Alert color="red">{release.error.message}</Alert>;
  const data = release.data;
  const pending = data.releasedAt === null;
  const publish = () => run(() => api(`/content-releases/${data.id}/publish`, { method: 'POST' }));
  const remove = (action: ListedReleaseAction) =>
    run(() => api(`/content-releases/${data.id}/actions/${action.id}`, { method: 'DELETE' }));
  const deleteRelease = async () => {
    await run(() => api(`/content-releases/${data.id}`, { method: 'DELETE' }));
    navigate('/releases');
  };
  return (
    <Stack>
      <Anchor component={Link} to="/releases" size="sm">
        Releases
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1} size="h2">
            {data.name}
          </Title>
          <Group gap="xs">
            <Badge color={RELEASE_STATUS_COLORS[data.status]} variant="light" aria-label={`Status: ${data.status}`}>
              {data.status}
            </Badge>
            <Text size="sm" c="dimmed">
              {data.actions.meta.count} {data.actions.meta.count === 1 ? 'entry' : 'entries'}
              {data.releasedAt
                ? ` · released ${zonedLabel(data.releasedAt, null)}`
                : data.scheduledAt
                  ? ` · scheduled ${zonedLabel(data.scheduledAt, data.timezone)}`
                  : ''}
            </Text>
          </Group>
        </Stack>
        {pending && (
          <Group>
            {access.can(RELEASES.update) && (
              <Button variant="default" onClick={() => setEditing(true)} disabled={busy}>
                Edit
              </Button>
            )}
            {access.can(RELEASES.delete) && (
              <Button variant="light" color="red" onClick={() => setConfirmDelete(true)} disabled={busy}>
                Delete
              </Button>
            )}
            {access.can(RELEASES.publish) && (
              <Button
                onClick={() => void publish()}
                loading={busy}
                disabled={data.status !== 'ready' && data.status !== 'failed'}
              >
                {data.scheduledAt ? 'Release now' : 'Publish'}
              </Button>
            )}
          </Group>
        )}
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      {data.status === 'failed' && data.failureReason && (
        <Alert color="red" title="The last publication failed: nothing was published">
          {data.failureReason}
        </Alert>
      )}
      {actions.isPending && <Loader size="sm" aria-label="Loading" />}
      {actions.error && <Alert color="red">{actions.error.message}</Alert>}
      {actions.data && Object.keys(actions.data.data).length === 0 && (
        <Text c="dimmed">No entries yet: add them from an entry's edit view (Add to release).</Text>
      )}
      {actions.data &&
        Object.entries(actions.data.data).map(([group, items]) => (
          <Paper key={group} withBorder p="md" component="section" aria-label={group}>
            <Title order={2} size="h4" mb="sm">
              {group}
            </Title>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Entry</Table.Th>
                  <Table.Th>Locale</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Validity</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((action) => (
                  <Table.Tr key={action.id}>
                    <Table.Td>
                      <Anchor component={Link} to={editorPath(action)}>
                        {entryLabel(action)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{action.locale?.name ?? '-'}</Table.Td>
                    <Table.Td>{action.type === 'publish' ? 'Publish' : 'Unpublish'}</Table.Td>
                    <Table.Td>{pending ? <Validity action={action} /> : null}</Table.Td>
                    <Table.Td>
                      {pending && access.can(RELEASES.deleteAction) && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => void remove(action)}
                          disabled={busy}
                          aria-label={`Remove ${entryLabel(action)} from the release`}
                        >
                          Remove
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        ))}
      {editing && <ReleaseModal release={data} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        subject={confirmDelete || null}
        title="Delete this release?"
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => void deleteRelease()}
      >
        The release and its list of entries are deleted; the entries themselves stay as they are.
      </ConfirmDialog>
    </Stack>
  );
}
