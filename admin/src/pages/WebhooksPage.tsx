import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { api } from '../api.ts';
import { useWebhooks, webhookPath, type Webhook } from '../webhooks.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ReadOnlyNote, useRights } from '../access.tsx';

/**
 * Webhooks: listed (name, URL, enabled, events), enabled or disabled in place, deleted one or
 * several at once (asks first); each change with its action (the switch read-only without update).
 */
export function WebhooksPage() {
  const rights = useRights('/manage/webhooks');
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [deleting, setDeleting] = useState<Webhook[] | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['webhooks'] });

  const toggle = useMutation({
    mutationFn: ({ webhook, isEnabled }: { webhook: Webhook; isEnabled: boolean }) =>
      api<{ data: Webhook }>(webhookPath(webhook.id), { method: 'PUT', body: { isEnabled } }),
    onSuccess: ({ data }) => {
      notifications.show({ color: 'green', message: `${data.name} ${data.isEnabled ? 'enabled' : 'disabled'}` });
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not changed', message: error.message }),
  });
  const remove = useMutation({
    mutationFn: (webhooks: Webhook[]) =>
      webhooks.length === 1
        ? api(webhookPath(webhooks[0]!.id), { method: 'DELETE' })
        : api('/admin/webhooks/batch-delete', { method: 'POST', body: { ids: webhooks.map((webhook) => webhook.id) } }),
    onSuccess: (_answer, webhooks) => {
      notifications.show({
        color: 'green',
        message: webhooks.length === 1 ? `${webhooks[0]!.name} deleted` : `${webhooks.length} webhooks deleted`,
      });
      setSelected((ids) => ids.filter((id) => !webhooks.some((webhook) => webhook.id === id)));
      void refresh();
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Webhooks</Title>
        <Group>
          {rights.delete && selected.length > 0 && (
            <Button
              variant="light"
              color="red"
              onClick={() => setDeleting((webhooks.data ?? []).filter((webhook) => selected.includes(webhook.id)))}
            >
              Delete selected ({selected.length})
            </Button>
          )}
          {rights.create && (
            <Button component={Link} to="/manage/webhooks/create">
              Create new webhook
            </Button>
          )}
        </Group>
      </Group>
      <Text c="dimmed">
        URLs called when entries or media files change: the event and the entry are posted as JSON, retried until the
        receiver answers a 2xx.
      </Text>
      {rights.readOnly && <ReadOnlyNote what="the webhooks" />}
      {webhooks.error && <Alert color="red">{webhooks.error.message}</Alert>}
      {webhooks.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped aria-label="Webhooks">
            <Table.Thead>
              <Table.Tr>
                {rights.delete && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Select all webhooks"
                      checked={(webhooks.data?.length ?? 0) > 0 && selected.length === webhooks.data?.length}
                      indeterminate={selected.length > 0 && selected.length < (webhooks.data?.length ?? 0)}
                      onChange={(event) =>
                        setSelected(
                          event.currentTarget.checked ? (webhooks.data ?? []).map((webhook) => webhook.id) : [],
                        )
                      }
                    />
                  </Table.Th>
                )}
                <Table.Th>Name</Table.Th>
                <Table.Th>URL</Table.Th>
                <Table.Th>Events</Table.Th>
                <Table.Th>Enabled</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {webhooks.data?.map((webhook) => (
                <Table.Tr key={webhook.id}>
                  {rights.delete && (
                    <Table.Td>
                      <Checkbox
                        aria-label={`Select ${webhook.name}`}
                        checked={selected.includes(webhook.id)}
                        onChange={(event) => {
                          const checked = event.currentTarget.checked;
                          setSelected((ids) =>
                            checked ? [...ids, webhook.id] : ids.filter((id) => id !== webhook.id),
                          );
                        }}
                      />
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Link to={`/manage/webhooks/${webhook.id}`}>{webhook.name}</Link>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{webhook.url}</Table.Td>
                  <Table.Td>{webhook.events.join(', ') || '—'}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${webhook.name} enabled`}
                      checked={webhook.isEnabled}
                      disabled={!rights.update || (toggle.isPending && toggle.variables?.webhook.id === webhook.id)}
                      onChange={(event) => toggle.mutate({ webhook, isEnabled: event.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td>
                    {rights.delete && (
                      <Button
                        variant="subtle"
                        color="red"
                        size="xs"
                        aria-label={`Delete ${webhook.name}`}
                        onClick={() => setDeleting([webhook])}
                      >
                        Delete
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {webhooks.data?.length === 0 && <Text p="md">No webhooks yet.</Text>}
        </Table.ScrollContainer>
      )}
      <ConfirmDialog
        subject={deleting}
        title={deleting?.length === 1 ? 'Delete this webhook?' : `Delete ${deleting?.length ?? 0} webhooks?`}
        onClose={() => setDeleting(null)}
        onConfirm={(subject) => remove.mutate(subject)}
      >
        {deleting?.map((webhook) => webhook.name).join(', ')}: no longer called; the deliveries not yet sent are
        dropped.
      </ConfirmDialog>
    </Stack>
  );
}
