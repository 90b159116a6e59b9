import {
  Alert,
  Badge,
  Button,
  CopyButton,
  Group,
  Loader,
  Modal,
  PasswordInput,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import { ReadOnlyFieldset, ReadOnlyNote, useRights } from '../access.tsx';
import { api } from '../api.ts';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { settingOf } from '../settings.ts';
import type { ProviderSettingsValue } from '../../../src/features/users-permissions/contract.ts';

/** A provider as `GET /admin/users-permissions/providers` answers it: the stored settings, and the redirect URI. */
interface Provider extends ProviderSettingsValue {
  /** This server's `/api/connect/<name>/callback`: registered at the provider. */
  redirectUri?: string;
}

const PATH = '/admin/users-permissions/providers';
/** The settings a provider may have, with their labels; a provider shows those it has. */
const TEXT_FIELDS = [
  { key: 'key', label: 'Client ID', secret: false },
  { key: 'secret', label: 'Client secret', secret: true },
  { key: 'subdomain', label: 'Host URI (subdomain)', secret: false },
  { key: 'issuer', label: 'Issuer URL', secret: false },
  { key: 'jwksurl', label: 'JWKS URL', secret: false },
  { key: 'callback', label: 'The redirect URL to your front-end app', secret: false },
] as const;
const KEYS = ['enabled', 'key', 'secret', 'subdomain', 'issuer', 'jwksurl', 'callback', 'scope'] as const;

type Values = { enabled: boolean; scope: string } & Record<(typeof TEXT_FIELDS)[number]['key'], string>;

/**
 * The users-permissions login providers: listed with their state, each edited in a dialog (only
 * viewed, read-only, by a role without `providers.update`).
 */
export function ProvidersPage() {
  const { update: editable } = useRights('/manage/users-permissions/providers');
  const providers = useQuery({
    queryKey: ['users-permissions', 'providers'],
    queryFn: () => api<Record<string, Provider>>(PATH),
  });
  const [editing, setEditing] = useState<string | null>(null);
  // The dialog's form with changes: closing it (Cancel, Escape, ✕) or leaving the page asks first.
  // The form's own answer is asked at the moment of closing (a key pressed right after typing comes before a re-render).
  const [dirty, setDirty] = useState(false);
  const isDirty = useRef(() => false);
  const [confirmClose, setConfirmClose] = useState(false);
  const { prompt: leavePrompt } = useUnsavedChanges({
    dirty: () => editing !== null && (dirty || isDirty.current()),
    message: `Your changes to ${editing ?? 'this provider'} are not saved.`,
  });
  const close = () => {
    setEditing(null);
    setDirty(false);
    isDirty.current = () => false;
    setConfirmClose(false);
  };
  const requestClose = () => (isDirty.current() ? setConfirmClose(true) : close());
  if (providers.isPending) return <Loader aria-label="Loading" />;
  if (providers.error) return <Alert color="red">{providers.error.message}</Alert>;
  const entries = Object.entries(providers.data);
  return (
    <Stack>
      <Title order={1}>Providers</Title>
      <Text c="dimmed">
        How the users of the content API log in: with a password (email), or through another service (GET
        /api/connect/&lt;provider&gt;).
      </Text>
      {!editable && <ReadOnlyNote what="the providers" />}
      <Table.ScrollContainer minWidth={500}>
        <Table striped aria-label="Providers">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Provider</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map(([name, provider]) => (
              <Table.Tr key={name}>
                <Table.Td>{name}</Table.Td>
                <Table.Td>
                  <Badge color={provider.enabled ? 'green' : 'gray'} variant="light">
                    {provider.enabled ? 'Enabled' : 'Disabled'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Button
                    variant="subtle"
                    size="xs"
                    aria-label={`${editable ? 'Edit' : 'View'} ${name}`}
                    onClick={() => setEditing(name)}
                  >
                    {editable ? 'Edit' : 'View'}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={editing !== null}
        onClose={requestClose}
        title={editable ? `Edit ${editing ?? ''}` : (editing ?? '')}
        size="lg"
      >
        {editing && providers.data[editing] && (
          <ProviderForm
            name={editing}
            provider={providers.data[editing]}
            onDone={close}
            onCancel={requestClose}
            onDirty={setDirty}
            isDirty={isDirty}
            editable={editable}
          />
        )}
      </Modal>
      <Modal opened={confirmClose} onClose={() => setConfirmClose(false)} title="Discard your changes?">
        <Text mb="md">Your changes to {editing} are not saved.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirmClose(false)}>
            Keep editing
          </Button>
          <Button color="red" onClick={close}>
            Discard
          </Button>
        </Group>
      </Modal>
      {leavePrompt}
    </Stack>
  );
}

function ProviderForm({
  name,
  provider,
  onDone,
  onCancel,
  onDirty,
  isDirty,
  editable,
}: {
  name: string;
  provider: Provider;
  onDone: () => void;
  onCancel: () => void;
  onDirty: (dirty: boolean) => void;
  isDirty: MutableRefObject<() => boolean>;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const fields = TEXT_FIELDS.filter((field) => provider[field.key] !== undefined);
  const form = useForm<Values>({
    initialValues: {
      enabled: provider.enabled,
      scope: (provider.scope ?? []).join(' '),
      ...(Object.fromEntries(TEXT_FIELDS.map((field) => [field.key, provider[field.key] ?? ''])) as Record<
        (typeof TEXT_FIELDS)[number]['key'],
        string
      >),
    },
  });
  const dirty = form.isDirty();
  useEffect(() => onDirty(dirty), [dirty, onDirty]);
  isDirty.current = () => form.isDirty();
  const save = useMutation({
    mutationFn: (values: Values) => {
      // Only the settings this provider has: the API refuses the others.
      const change: Record<string, unknown> = { enabled: values.enabled };
      for (const field of fields) change[field.key] = values[field.key];
      if (provider.scope !== undefined) change.scope = values.scope.split(/\s+/).filter(Boolean);
      return api(PATH, { method: 'PUT', body: { providers: { [name]: change } } });
    },
    onSuccess: () => {
      notifications.show({ color: 'green', message: `${name} saved` });
      void queryClient.invalidateQueries({ queryKey: ['users-permissions', 'providers'] });
      onDone();
    },
    onError: (error) => {
      const key = settingOf(error.message, KEYS);
      if (key) form.setFieldError(key, error.message);
      else setProblem(error.message);
    },
  });
  return (
    <form
      onSubmit={form.onSubmit((values) => {
        if (editable) save.mutate(values);
      })}
      noValidate
    >
      <Stack>
        {problem && (
          <Alert color="red" title="Not saved">
            {problem}
          </Alert>
        )}
        <ReadOnlyFieldset readOnly={!editable}>
          <Stack>
            <Switch label="Enable" {...form.getInputProps('enabled', { type: 'checkbox' })} />
            {fields.map((field) =>
              field.secret ? (
                <PasswordInput
                  key={field.key}
                  label={field.label}
                  autoComplete="off"
                  {...form.getInputProps(field.key)}
                />
              ) : (
                <TextInput key={field.key} label={field.label} {...form.getInputProps(field.key)} />
              ),
            )}
            {provider.scope !== undefined && (
              <TextInput label="Scope" description="Space-separated" {...form.getInputProps('scope')} />
            )}
          </Stack>
        </ReadOnlyFieldset>
        {provider.redirectUri && (
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              label="The redirect URL to add in your provider's application configurations"
              value={provider.redirectUri}
              readOnly
              style={{ flex: 1 }}
            />
            <CopyButton value={provider.redirectUri}>
              {({ copied, copy }) => (
                <Button
                  variant="default"
                  onClick={copy}
                  aria-label={copied ? 'Copied the redirect URL' : 'Copy the redirect URL'}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {editable ? 'Cancel' : 'Close'}
          </Button>
          {editable && (
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
