import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Input,
  Loader,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { NotAllowed, ReadOnlyFieldset, ReadOnlyNote, useRights } from '../access.tsx';
import { api, ApiError } from '../api.ts';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { duration, EVENT_GROUPS, fieldMessages, headerRows, headersOf, type HeaderRow } from '../settings.ts';
import { useDeliveries, useWebhook, webhookPath, type Delivery, type Webhook } from '../webhooks.ts';

interface Values {
  name: string;
  url: string;
  headers: HeaderRow[];
  events: string[];
  isEnabled: boolean;
  secret: string;
}

const empty: Values = { name: '', url: '', headers: [{ key: '', value: '' }], events: [], isEnabled: true, secret: '' };
const when = (value: string | null) => (value ? new Date(value).toLocaleString() : '—');
const STATE_COLORS: Record<Delivery['state'], string> = {
  delivered: 'green',
  failed: 'red',
  cancelled: 'gray',
  pending: 'yellow',
  sending: 'blue',
};

/**
 * A webhook created or edited (name, URL, headers, events), triggered, and its delivery log; read
 * (settings and log) without Save or Trigger by a role without `webhooks.update`.
 */
export function WebhookPage() {
  const { id } = useParams<{ id: string }>();
  const isNew = id === undefined;
  const rights = useRights('/manage/webhooks');
  const editable = isNew ? rights.create : rights.update;
  const webhook = useWebhook(id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const form = useForm<Values>({ initialValues: empty });

  useEffect(() => {
    if (!webhook.data) return;
    const { name, url, headers, events, isEnabled } = webhook.data;
    const values = { name, url, headers: headerRows(headers), events, isEnabled, secret: '' };
    form.setValues(values);
    form.resetDirty(values);
    // Once per webhook read: the form is the editor's afterwards.
  }, [webhook.data]);

  const { leaving, prompt: leavePrompt } = useUnsavedChanges({
    dirty: () => form.isDirty(),
    message: 'This webhook has changes that are not saved.',
  });

  const save = useMutation({
    mutationFn: (values: Values) => {
      // The secret is never read back: left empty, the stored one stays.
      const body = {
        name: values.name,
        url: values.url,
        headers: headersOf(values.headers),
        events: values.events,
        isEnabled: values.isEnabled,
        ...(values.secret ? { secret: values.secret } : {}),
      };
      return api<{ data: Webhook }>(isNew ? '/admin/webhooks' : webhookPath(id), {
        method: isNew ? 'POST' : 'PUT',
        body,
      });
    },
    onSuccess: ({ data }, values) => {
      setProblem(undefined);
      form.resetDirty(values);
      notifications.show({ color: 'green', message: `${data.name} saved` });
      void queryClient.invalidateQueries({ queryKey: ['webhooks'] });
      if (isNew) leaving.current = true;
      if (isNew) navigate(`/manage/webhooks/${data.id}`, { replace: true });
    },
    onError: (error) => {
      const { fields, general } =
        error instanceof ApiError ? fieldMessages(error) : { fields: {}, general: error.message };
      form.setErrors(fields);
      setProblem(general);
    },
  });

  if (isNew && !rights.create) return <NotAllowed />;
  if (!isNew && webhook.isPending) return <Loader aria-label="Loading" />;
  if (!isNew && webhook.error) return <Alert color="red">{webhook.error.message}</Alert>;

  const headerError = form.errors.headers;
  return (
    <Stack>
      <Anchor component={Link} to="/manage/webhooks" size="sm">
        ← Webhooks
      </Anchor>
      <Title order={1}>{isNew ? 'Create a webhook' : (webhook.data?.name ?? 'Webhook')}</Title>
      {!editable && <ReadOnlyNote what="this webhook" />}
      <Paper withBorder p="lg" component="section" aria-label="Webhook settings">
        <form
          onSubmit={form.onSubmit((values) => {
            if (editable) save.mutate(values);
          })}
          noValidate
        >
          <ReadOnlyFieldset readOnly={!editable}>
            <Stack>
              {problem && (
                <Alert color="red" title="Not saved">
                  {problem}
                </Alert>
              )}
              <Group align="flex-start" grow>
                <TextInput label="Name" required {...form.getInputProps('name')} />
                <TextInput
                  label="URL"
                  required
                  type="url"
                  placeholder="https://example.com/hooks/vellum"
                  {...form.getInputProps('url')}
                />
              </Group>
              <Switch label="Enabled" {...form.getInputProps('isEnabled', { type: 'checkbox' })} />
              <Fieldset legend="Headers" variant="unstyled">
                <Stack gap="xs">
                  {form.values.headers.map((_row, index) => (
                    <Group key={index} align="flex-end" wrap="nowrap">
                      <TextInput
                        label={`Header name ${index + 1}`}
                        placeholder="Authorization"
                        style={{ flex: 1 }}
                        {...form.getInputProps(`headers.${index}.key`)}
                      />
                      <TextInput
                        label={`Header value ${index + 1}`}
                        style={{ flex: 2 }}
                        {...form.getInputProps(`headers.${index}.value`)}
                      />
                      {editable && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          size="lg"
                          mb={2}
                          aria-label={`Remove header ${index + 1}`}
                          onClick={() => form.removeListItem('headers', index)}
                        >
                          ×
                        </ActionIcon>
                      )}
                    </Group>
                  ))}
                  {typeof headerError === 'string' || typeof headerError === 'number' ? (
                    <Input.Error>{headerError}</Input.Error>
                  ) : null}
                  {editable && (
                    <Group>
                      <Button
                        variant="default"
                        size="xs"
                        onClick={() => form.insertListItem('headers', { key: '', value: '' })}
                      >
                        Add a header
                      </Button>
                    </Group>
                  )}
                </Stack>
              </Fieldset>
              {editable && (
                <PasswordInput
                  label="Signing secret"
                  description={
                    isNew
                      ? 'Optional: each call carries an X-Vellum-Signature header made with it'
                      : 'Never shown back; left empty, the stored one is kept'
                  }
                  autoComplete="new-password"
                  {...form.getInputProps('secret')}
                />
              )}
              <Checkbox.Group
                label="Events"
                description="The changes that call this webhook"
                {...form.getInputProps('events')}
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
                  {EVENT_GROUPS.map((group) => (
                    <Fieldset key={group.label} legend={group.label}>
                      <Stack gap="xs">
                        {group.events.map((event) => (
                          <Checkbox
                            key={event.value}
                            value={event.value}
                            label={event.label}
                            aria-label={`${group.label} ${event.label.toLowerCase()} (${event.value})`}
                          />
                        ))}
                      </Stack>
                    </Fieldset>
                  ))}
                </SimpleGrid>
              </Checkbox.Group>
              {editable && (
                <Group>
                  <Button type="submit" loading={save.isPending}>
                    Save
                  </Button>
                </Group>
              )}
            </Stack>
          </ReadOnlyFieldset>
        </form>
      </Paper>
      {leavePrompt}
      {!isNew && id && <TriggerAndLog id={id} mayTrigger={rights.update} />}
    </Stack>
  );
}

/**
 * "Trigger": a test call now (`trigger-test`, not logged; `webhooks.update`'s), its answer shown;
 * then the delivery log.
 */
function TriggerAndLog({ id, mayTrigger }: { id: string; mayTrigger: boolean }) {
  const deliveries = useDeliveries(id);
  const trigger = useMutation({
    mutationFn: async () =>
      (await api<{ data: { statusCode: number; message?: string } }>(`${webhookPath(id)}/trigger`, { method: 'POST' }))
        .data,
    onError: (error) => notifications.show({ color: 'red', title: 'Not triggered', message: error.message }),
  });
  const result = trigger.data;
  const ok = result !== undefined && result.statusCode >= 200 && result.statusCode < 300;
  return (
    <>
      {mayTrigger && (
        <Paper withBorder p="lg" component="section" aria-label="Test this webhook">
          <Stack>
            <Title order={2} size="h4">
              Test this webhook
            </Title>
            <Text c="dimmed" size="sm">
              Calls the URL now with a <code>trigger-test</code> event (the saved settings; not in the log).
            </Text>
            <Group>
              <Button variant="default" onClick={() => trigger.mutate()} loading={trigger.isPending}>
                Trigger
              </Button>
            </Group>
            {/* A live region from the start: screen readers announce the result when it comes. */}
            <div role="status" aria-label="Trigger result">
              {result && (
                <Alert color={ok ? 'green' : 'red'} title={ok ? 'Delivered' : 'Not delivered'}>
                  {result.statusCode ? `The receiver answered ${result.statusCode}` : 'No answer'}
                  {result.message ? `: ${result.message}` : '.'}
                </Alert>
              )}
            </div>
          </Stack>
        </Paper>
      )}
      <Stack component="section" aria-label="Deliveries">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Deliveries
          </Title>
          <Button variant="subtle" size="xs" onClick={() => void deliveries.refetch()} loading={deliveries.isFetching}>
            Refresh deliveries
          </Button>
        </Group>
        {deliveries.error && <Alert color="red">{deliveries.error.message}</Alert>}
        <Table.ScrollContainer minWidth={900}>
          <Table striped aria-label="Delivery log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>About</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Response code</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Duration</Table.Th>
                <Table.Th>Error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data?.data.map((delivery) => (
                <Table.Tr key={delivery.id}>
                  <Table.Td>{delivery.event}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{delivery.key}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge color={STATE_COLORS[delivery.state]} variant="light" style={{ minWidth: 'max-content' }}>
                      {delivery.state}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{delivery.statusCode ?? '—'}</Table.Td>
                  <Table.Td>{when(delivery.lastAttemptAt ?? delivery.createdAt)}</Table.Td>
                  <Table.Td>{delivery.attempts}</Table.Td>
                  <Table.Td>{duration(delivery.duration)}</Table.Td>
                  <Table.Td>{delivery.lastError ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {deliveries.data?.data.length === 0 && <Text p="md">No deliveries yet.</Text>}
          {deliveries.data && deliveries.data.meta.pagination.total > deliveries.data.data.length && (
            <Text c="dimmed" size="sm" p="xs">
              The {deliveries.data.data.length} newest of {deliveries.data.meta.pagination.total}.
            </Text>
          )}
          {deliveries.isPending && <Loader aria-label="Loading deliveries" />}
        </Table.ScrollContainer>
      </Stack>
    </>
  );
}
