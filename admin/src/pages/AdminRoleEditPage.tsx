import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { SUPER_ADMIN_CODE, type AdminPermission } from '../admin-permissions.ts';
import { NotAllowed, ReadOnlyFieldset, ReadOnlyNote, refreshAccess, useRights } from '../access.tsx';
import { api } from '../api.ts';
import { ContentTypeMatrix } from '../components/roles/ContentTypeMatrix.tsx';
import { PlainActions } from '../components/roles/PlainActions.tsx';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { showFormError } from '../form-errors.ts';
import { permissionsBody, type PermissionSections, type RoleDraft, type TypeSubject } from '../role-permissions.ts';
import { useSchema } from '../schema.ts';
import type { AdminRole } from './AdminRolesPage.tsx';

/**
 * An administrators' role: its name, description and permissions (Strapi's role editor), saved
 * together: `PUT /admin/roles/:id` and `PUT /admin/roles/:id/permissions` with the whole list
 * (`/manage/admin-roles/create` makes one with `POST /admin/roles` first). The Super Admin's is
 * shown read-only, and every role to an administrator without `admin::roles.update`.
 */
export function AdminRoleEditPage() {
  const { id = 'create' } = useParams();
  const creating = id === 'create';
  const rights = useRights('/manage/admin-roles');
  const path = `/admin/roles/${encodeURIComponent(id)}`;
  const role = useQuery({
    queryKey: ['admin-role', id],
    queryFn: async () => (await api<{ data: AdminRole }>(path)).data,
    enabled: !creating,
  });
  const permissions = useQuery({
    queryKey: ['admin-role', id, 'permissions'],
    queryFn: async () => (await api<{ data: AdminPermission[] }>(`${path}/permissions`)).data,
    enabled: !creating,
  });
  const sections = useQuery({
    queryKey: ['admin-permission-sections'],
    queryFn: async () => (await api<{ data: PermissionSections }>('/admin/permissions')).data,
    staleTime: 60_000,
  });
  if (creating && !rights.create) return <NotAllowed />;
  const error = role.error ?? permissions.error ?? sections.error;
  if (error) return <Alert color="red">{error.message}</Alert>;
  if ((!creating && (role.isPending || permissions.isPending)) || sections.isPending)
    return <Loader aria-label="Loading" />;
  return (
    <RoleEditor
      key={id}
      role={creating ? null : role.data!}
      permissions={creating ? [] : permissions.data!}
      sections={sections.data!}
    />
  );
}

/** A tab's content, its inputs disabled when the role is read-only (the tabs themselves still switch). */
function Panel({ value, readOnly, children }: { value: string; readOnly: boolean; children: ReactNode }) {
  return (
    <Tabs.Panel value={value} pt="md">
      <ReadOnlyFieldset readOnly={readOnly}>{children}</ReadOnlyFieldset>
    </Tabs.Panel>
  );
}

function RoleEditor({
  role,
  permissions,
  sections,
}: {
  role: AdminRole | null;
  permissions: AdminPermission[];
  sections: PermissionSections;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const rights = useRights('/manage/admin-roles');
  const schema = useSchema();
  const superAdmin = role?.code === SUPER_ADMIN_CODE;
  const readOnly = superAdmin || !(role ? rights.update : rights.create);
  const form = useForm({ initialValues: { name: role?.name ?? '', description: role?.description ?? '' } });
  const [draft, setDraft] = useState<RoleDraft>(permissions);
  // What was last saved (or loaded): leaving with anything else asks first.
  const snapshot = (values: typeof form.values, next: RoleDraft) =>
    JSON.stringify([values.name, values.description, permissionsBody(next, sections)]);
  const [saved, setSaved] = useState(() => snapshot(form.values, draft));
  const dirty = !readOnly && snapshot(form.values, draft) !== saved;
  const { leaving, prompt } = useUnsavedChanges({ dirty, message: 'This role has changes that are not saved.' });

  const save = useMutation({
    mutationFn: async (values: typeof form.values) => {
      const details = { name: values.name, description: values.description || null };
      const id = role
        ? (await api<{ data: AdminRole }>(`/admin/roles/${role.id}`, { method: 'PUT', body: details })).data.id
        : (await api<{ data: AdminRole }>('/admin/roles', { method: 'POST', body: details })).data.id;
      await api(`/admin/roles/${id}/permissions`, { method: 'PUT', body: permissionsBody(draft, sections) });
      return id;
    },
    onSuccess: (id, values) => {
      setSaved(snapshot(values, draft));
      notifications.show({ color: 'green', message: `${values.name} saved` });
      void queryClient.invalidateQueries({ queryKey: ['admin-roles'] });
      void queryClient.invalidateQueries({ queryKey: ['admin-role'] });
      // The administrator may hold this role.
      void refreshAccess(queryClient);
      if (!role) {
        leaving.current = true;
        navigate(`/manage/admin-roles/${id}`, { replace: true });
      }
    },
    onError: (error) => showFormError(error, ['name', 'description'], form.setFieldError, 'Not saved'),
  });

  const names = new Map((schema.data?.contentTypes ?? []).map((type) => [type.uid, type.displayName]));
  const nameOf = (subject: TypeSubject) =>
    names.get(subject.uid) ?? subject.label.charAt(0).toUpperCase() + subject.label.slice(1);
  const { collectionTypes, singleTypes, plugins, settings } = sections.sections;
  const title = role ? (readOnly ? role.name : `Edit ${role.name}`) : 'Create a role';

  return (
    <form
      onSubmit={form.onSubmit((values) => {
        if (!readOnly) save.mutate(values);
      })}
    >
      <Stack>
        <Group justify="space-between" align="flex-end">
          <div>
            <Anchor component={Link} to="/manage/admin-roles" size="sm">
              ← Roles
            </Anchor>
            <Title order={1}>{title}</Title>
            {role && (
              <Text c="dimmed">
                {role.usersCount ?? 0} {role.usersCount === 1 ? 'administrator has' : 'administrators have'} this role
              </Text>
            )}
          </div>
          {!readOnly && (
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          )}
        </Group>
        {superAdmin && (
          <Alert color="blue" title="The Super Admin may do everything">
            Its permissions are every action, kept so at each start: they cannot be changed.
          </Alert>
        )}
        {readOnly && !superAdmin && <ReadOnlyNote what="this role" />}
        <Paper withBorder p="lg" component="section" aria-label="Role details">
          <Group align="flex-start" grow>
            <TextInput label="Name" required disabled={readOnly} {...form.getInputProps('name')} />
            <Textarea label="Description" autosize disabled={readOnly} {...form.getInputProps('description')} />
          </Group>
        </Paper>
        <Paper withBorder p="lg" component="section" aria-label="Permissions">
          <Title order={2} size="h4" mb="sm">
            Permissions
          </Title>
          <Tabs defaultValue="collectionTypes" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="collectionTypes">Collection types</Tabs.Tab>
              <Tabs.Tab value="singleTypes">Single types</Tabs.Tab>
              <Tabs.Tab value="plugins">Plugins</Tabs.Tab>
              <Tabs.Tab value="settings">Settings</Tabs.Tab>
            </Tabs.List>
            <Panel value="collectionTypes" readOnly={readOnly}>
              <ContentTypeMatrix
                label="Collection types permissions"
                section={collectionTypes}
                draft={draft}
                onChange={setDraft}
                nameOf={nameOf}
                conditions={sections.conditions}
              />
            </Panel>
            <Panel value="singleTypes" readOnly={readOnly}>
              <ContentTypeMatrix
                label="Single types permissions"
                section={singleTypes}
                draft={draft}
                onChange={setDraft}
                nameOf={nameOf}
                conditions={sections.conditions}
              />
            </Panel>
            <Panel value="plugins" readOnly={readOnly}>
              <PlainActions label="Plugins permissions" actions={plugins} draft={draft} onChange={setDraft} />
            </Panel>
            <Panel value="settings" readOnly={readOnly}>
              <PlainActions label="Settings permissions" actions={settings} draft={draft} onChange={setDraft} />
            </Panel>
          </Tabs>
        </Paper>
      </Stack>
      {prompt}
    </form>
  );
}
