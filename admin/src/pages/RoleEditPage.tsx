import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { NotAllowed, ReadOnlyFieldset, ReadOnlyNote, useRights } from '../access.tsx';
import { api } from '../api.ts';
import { PermissionsMatrix, usePermissionTree } from '../components/PermissionsMatrix.tsx';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { showFormError } from '../form-errors.ts';
import { enabledOf, treeOf, type PermissionTree } from '../permissions.ts';
import type { Role } from './RolesPage.tsx';

type RoleWithPermissions = Role & { permissions: PermissionTree };

/**
 * A role's name, description and permissions, saved in one request (`/manage/roles/create` makes
 * one); read-only, without Save, for a role without `roles.update`.
 */
export function RoleEditPage() {
  const { id = 'create' } = useParams();
  const creating = id === 'create';
  const rights = useRights('/manage/roles');
  const role = useQuery({
    queryKey: ['role', id],
    queryFn: async () =>
      (await api<{ role: RoleWithPermissions }>(`/admin/users-permissions/roles/${encodeURIComponent(id)}`)).role,
    enabled: !creating,
  });
  const tree = usePermissionTree();
  if (creating && !rights.create) return <NotAllowed />;
  if (role.error || tree.error) return <Alert color="red">{(role.error ?? tree.error)!.message}</Alert>;
  if ((!creating && role.isPending) || tree.isPending) return <Loader aria-label="Loading" />;
  return (
    <RoleForm key={id} role={creating ? null : role.data!} tree={tree.data!} readOnly={!creating && !rights.update} />
  );
}

function RoleForm({
  role,
  tree,
  readOnly,
}: {
  role: RoleWithPermissions | null;
  tree: PermissionTree;
  readOnly: boolean;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({ initialValues: { name: role?.name ?? '', description: role?.description ?? '' } });
  const [granted, setGranted] = useState<Set<string>>(() => (role ? enabledOf(role.permissions) : new Set()));
  // What was last saved (or loaded): leaving with other values asks first.
  const snapshot = (values: typeof form.values, actions: ReadonlySet<string>) =>
    JSON.stringify([values.name, values.description, [...actions].sort()]);
  const [saved, setSaved] = useState(() => snapshot(form.values, granted));
  const dirty = !readOnly && snapshot(form.values, granted) !== saved;
  const { leaving, prompt: leavePrompt } = useUnsavedChanges({
    dirty,
    message: 'This role has changes that are not saved.',
  });

  const save = useMutation({
    mutationFn: (values: typeof form.values) => {
      const body = { name: values.name, description: values.description, permissions: treeOf(tree, granted) };
      return role
        ? api(`/admin/users-permissions/roles/${role.id}`, { method: 'PUT', body })
        : api('/admin/users-permissions/roles', { method: 'POST', body });
    },
    onSuccess: (_answer, values) => {
      setSaved(snapshot(values, granted));
      notifications.show({ color: 'green', message: `${values.name} saved` });
      void queryClient.invalidateQueries({ queryKey: ['roles'] });
      void queryClient.invalidateQueries({ queryKey: ['role'] });
      if (!role) {
        leaving.current = true;
        navigate('/manage/roles');
      }
    },
    onError: (error) => showFormError(error, ['name', 'description'], form.setFieldError, 'Not saved'),
  });

  return (
    <form
      onSubmit={form.onSubmit((values) => {
        if (!readOnly) save.mutate(values);
      })}
    >
      <Stack>
        <Group justify="space-between">
          <div>
            <Text component={Link} to="/manage/roles" size="sm">
              ← Roles
            </Text>
            <Title order={1}>{role ? (readOnly ? role.name : `Edit ${role.name}`) : 'Create a role'}</Title>
          </div>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          )}
        </Group>
        {readOnly && <ReadOnlyNote what="this role" />}
        <Paper withBorder p="lg" component="section" aria-label="Role details">
          <ReadOnlyFieldset readOnly={readOnly}>
            <Group align="flex-start" grow>
              <TextInput label="Name" required {...form.getInputProps('name')} />
              <Textarea label="Description" autosize {...form.getInputProps('description')} />
            </Group>
          </ReadOnlyFieldset>
        </Paper>
        <Paper withBorder p="lg" component="section" aria-label="Permissions">
          <Title order={2} size="h4" mb="xs">
            Permissions
          </Title>
          <Text c="dimmed" mb="md">
            The actions this role may take on the content API.
          </Text>
          <ReadOnlyFieldset readOnly={readOnly}>
            <PermissionsMatrix tree={tree} value={granted} onChange={setGranted} label="Role permissions" />
          </ReadOnlyFieldset>
        </Paper>
      </Stack>
      {leavePrompt}
    </form>
  );
}
