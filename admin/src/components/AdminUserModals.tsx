import {
  Alert,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Loader,
  Modal,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useAccess, type AdminUser, type RoleSummary } from '../access.tsx';
import { api } from '../api.ts';
import { showFormError } from '../form-errors.ts';
import { useAdminRoles } from '../pages/AdminRolesPage.tsx';

/**
 * The roles an administrator holds: a checkbox per role (ids as strings), at least one. Listing the
 * roles needs `admin::roles.read`: without it, the roles `held` are shown, read-only, and stay.
 */
function RolesChoice({
  value,
  onChange,
  error,
  held,
}: {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
  held?: readonly RoleSummary[];
}) {
  const mayRead = useAccess().can('admin::roles.read');
  const roles = useAdminRoles(mayRead);
  if (!mayRead)
    return held ? (
      <Checkbox.Group
        label="Roles"
        description="Your roles do not let you read the roles: these stay as they are"
        value={value}
      >
        <Stack gap="xs" mt="xs">
          {held.map((role) => (
            <Checkbox key={role.id} value={String(role.id)} label={role.name} disabled />
          ))}
        </Stack>
      </Checkbox.Group>
    ) : (
      <Alert color="yellow" title="Roles">
        Your roles do not let you read the roles an invitation gives: an administrator who may can invite.
      </Alert>
    );
  if (roles.isPending) return <Loader size="sm" aria-label="Loading the roles" />;
  if (roles.error) return <Alert color="red">{roles.error.message}</Alert>;
  return (
    <Checkbox.Group label="Roles" withAsterisk value={value} onChange={onChange} error={error}>
      <Stack gap="xs" mt="xs">
        {roles.data.map((role) => (
          <Checkbox key={role.id} value={String(role.id)} label={role.name} description={role.description} />
        ))}
      </Stack>
    </Checkbox.Group>
  );
}

/** Strapi's link for an invitation, on this server. */
export const invitationLink = (registrationToken: string): string =>
  `${window.location.origin}/admin/auth/register?registrationToken=${encodeURIComponent(registrationToken)}`;

const INVITE_FIELDS = ['firstname', 'lastname', 'email', 'roles'];

/**
 * Invites an administrator (`POST /admin/users`): names, email and roles; then the invitation link
 * to copy and send them, as Strapi's panel shows it without an email provider.
 */
export function InviteModal({ onClose, onInvited }: { onClose: () => void; onInvited: () => void }) {
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const form = useForm({
    initialValues: { firstname: '', lastname: '', email: '', roles: [] as string[] },
    validate: { roles: (value) => (value.length ? null : 'Choose at least one role') },
  });
  const invite = useMutation({
    mutationFn: (values: typeof form.values) =>
      api<{ data: AdminUser & { registrationToken: string } }>('/admin/users', {
        method: 'POST',
        body: {
          firstname: values.firstname,
          lastname: values.lastname || undefined,
          email: values.email.trim(),
          roles: values.roles.map(Number),
        },
      }),
    onSuccess: ({ data }) => {
      setLink({ email: data.email, url: invitationLink(data.registrationToken) });
      onInvited();
    },
    onError: (error) => showFormError(error, INVITE_FIELDS, form.setFieldError, 'Not invited'),
  });
  return (
    <Modal opened onClose={onClose} title={link ? 'Invitation link' : 'Invite new user'} size="lg">
      {link ? (
        <Stack>
          <Text>
            Send this link to {link.email}: they choose their password there. It works once, and is not shown again.
          </Text>
          <TextInput
            label="Invitation link"
            value={link.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
          />
          <Group justify="flex-end">
            <CopyButton value={link.url}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy link'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => invite.mutate(values))}>
          <Stack>
            <Group grow align="flex-start">
              <TextInput label="First name" required {...form.getInputProps('firstname')} />
              <TextInput label="Last name" {...form.getInputProps('lastname')} />
            </Group>
            <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
            <RolesChoice
              value={form.values.roles}
              onChange={(roles) => form.setFieldValue('roles', roles)}
              error={form.errors.roles as string | undefined}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending}>
                Invite user
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

const EDIT_FIELDS = ['firstname', 'lastname', 'email', 'isActive', 'roles'];

/** Edits an administrator (`PUT /admin/users/:id`): names, email, active, roles; the API's refusals in its words. */
export function AdminUserModal({
  admin,
  onClose,
  onSaved,
}: {
  admin: AdminUser;
  onClose: () => void;
  onSaved: () => void;
}) {
  const form = useForm({
    initialValues: {
      firstname: admin.firstname ?? '',
      lastname: admin.lastname ?? '',
      email: admin.email,
      isActive: admin.isActive,
      roles: admin.roles.map((role) => String(role.id)),
    },
    validate: { roles: (value) => (value.length ? null : 'Choose at least one role') },
  });
  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      api<{ data: AdminUser }>(`/admin/users/${admin.id}`, {
        method: 'PUT',
        body: { ...values, lastname: values.lastname || null, roles: values.roles.map(Number) },
      }),
    onSuccess: ({ data }) => {
      notifications.show({ color: 'green', message: `${data.email} saved` });
      onSaved();
    },
    onError: (error) => showFormError(error, EDIT_FIELDS, form.setFieldError, 'Not saved'),
  });
  return (
    <Modal opened onClose={onClose} title={`Edit ${admin.email}`} size="lg">
      <form onSubmit={form.onSubmit((values) => save.mutate(values))}>
        <Stack>
          <Group grow align="flex-start">
            <TextInput label="First name" required {...form.getInputProps('firstname')} />
            <TextInput label="Last name" {...form.getInputProps('lastname')} />
          </Group>
          <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
          <Switch
            label="Active"
            description="An inactive administrator cannot log in"
            {...form.getInputProps('isActive', { type: 'checkbox' })}
          />
          <RolesChoice
            value={form.values.roles}
            onChange={(roles) => form.setFieldValue('roles', roles)}
            error={form.errors.roles as string | undefined}
            held={admin.roles}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
