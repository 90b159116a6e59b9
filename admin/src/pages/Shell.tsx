import { Alert, AppShell, Burger, Button, Group, Loader, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink as RouterLink, Outlet, useNavigate } from 'react-router-dom';
import { api, session } from '../api.ts';
import { useSchema, type ContentTypeDescription } from '../schema.ts';

function TypeLinks({
  label,
  types,
  onNavigate,
}: {
  label: string;
  types: ContentTypeDescription[];
  onNavigate: () => void;
}) {
  if (types.length === 0) return null;
  return (
    <nav aria-label={label}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mt="md" mb={4}>
        {label}
      </Text>
      {types.map((type) => (
        <NavLink
          key={type.uid}
          component={RouterLink}
          to={`/content/${type.uid}`}
          label={type.displayName}
          onClick={onNavigate}
        />
      ))}
    </nav>
  );
}

/** The frame of every screen: the header, the navigation by content-type, and the screen. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const schema = useSchema();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = async () => {
    // The server records the logout in the audit log; the panel forgets its token either way.
    await api('/admin/logout', { method: 'POST', body: {} }).catch(() => undefined);
    session.clear();
    queryClient.clear();
    navigate('/login');
  };
  const types = schema.data?.contentTypes ?? [];
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={2} size="h4">
              Vellum
            </Title>
          </Group>
          <Button variant="subtle" onClick={() => void logout()}>
            Log out
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        <AppShell.Section grow component={ScrollArea}>
          <Text fw={700} px="sm">
            Content manager
          </Text>
          {schema.isPending && <Loader size="sm" m="sm" aria-label="Loading" />}
          {schema.error && <Alert color="red">{schema.error.message}</Alert>}
          <TypeLinks
            label="Collection types"
            types={types.filter((type) => type.kind === 'collectionType')}
            onNavigate={close}
          />
          <TypeLinks
            label="Single types"
            types={types.filter((type) => type.kind === 'singleType')}
            onNavigate={close}
          />
          <NavLink component={RouterLink} to="/media" label="Media library" onClick={close} mt="md" fw={700} />
          <NavLink
            component={RouterLink}
            to="/content-type-builder"
            label="Content-Type Builder"
            onClick={close}
            fw={700}
          />
          <nav aria-label="Settings">
            <Text fw={700} px="sm" mt="lg">
              Settings
            </Text>
            <NavLink component={RouterLink} to="/manage/api-tokens" label="API tokens" onClick={close} />
            <NavLink component={RouterLink} to="/manage/roles" label="Roles and permissions" onClick={close} />
            <NavLink component={RouterLink} to="/manage/users" label="Users" onClick={close} />
            <NavLink component={RouterLink} to="/manage/administrators" label="Administrators" onClick={close} />
            <NavLink component={RouterLink} to="/manage/locales" label="Locales" onClick={close} />
            <NavLink component={RouterLink} to="/manage/webhooks" label="Webhooks" onClick={close} />
            <NavLink component={RouterLink} to="/manage/audit-logs" label="Audit log" onClick={close} />
            <NavLink
              component={RouterLink}
              to="/manage/users-permissions/advanced"
              label="Advanced settings"
              onClick={close}
            />
            <NavLink
              component={RouterLink}
              to="/manage/users-permissions/email-templates"
              label="Email templates"
              onClick={close}
            />
            <NavLink
              component={RouterLink}
              to="/manage/users-permissions/providers"
              label="Providers"
              onClick={close}
            />
          </nav>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
