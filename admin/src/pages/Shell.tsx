import {
  Alert,
  Anchor,
  AppShell,
  Burger,
  Button,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NavLink as RouterLink, Outlet, useNavigate } from 'react-router-dom';
import { mayOpen, type AdminAccess } from '../admin-permissions.ts';
import { AccessProvider, refreshAccess, useAccess, useMe } from '../access.tsx';
import { api, deviceId, session, setForbiddenHandler } from '../api.ts';
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

/** A group of settings screens: [label, client path]; the screens the administrator may not open are left out. */
function SettingsGroup({
  title,
  nav,
  links,
  access,
  onNavigate,
}: {
  title: string;
  /** The group is a navigation landmark of that name (its links' names repeat in other groups). */
  nav?: boolean;
  links: [string, string][];
  access: AdminAccess;
  onNavigate: () => void;
}) {
  const shown = links.filter(([, path]) => mayOpen(access, path));
  if (shown.length === 0) return null;
  const items = (
    <>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mt="sm" mb={4}>
        {title}
      </Text>
      {shown.map(([label, path]) => (
        <NavLink key={path} component={RouterLink} to={path} label={label} onClick={onNavigate} />
      ))}
    </>
  );
  return nav ? <nav aria-label={title}>{items}</nav> : <div>{items}</div>;
}

const GLOBAL_SETTINGS: [string, string][] = [
  ['API tokens', '/manage/api-tokens'],
  ['Locales', '/manage/locales'],
  ['Releases', '/manage/releases'],
  ['Webhooks', '/manage/webhooks'],
];
const ADMINISTRATION: [string, string][] = [
  ['Roles', '/manage/admin-roles'],
  ['Users', '/manage/admin-users'],
  ['Audit log', '/manage/audit-logs'],
];
const USERS_PERMISSIONS: [string, string][] = [
  ['Roles', '/manage/roles'],
  ['Users', '/manage/users'],
  ['Providers', '/manage/users-permissions/providers'],
  ['Email templates', '/manage/users-permissions/email-templates'],
  ['Advanced settings', '/manage/users-permissions/advanced'],
];

/** The navigation: the content-types the administrator may read, then the screens their roles open. */
function Navigation({ onNavigate }: { onNavigate: () => void }) {
  const schema = useSchema();
  const access = useAccess();
  // A type with `pluginOptions['content-manager'].visible: false` is left out, as in Strapi's panel.
  const types = (schema.data?.contentTypes ?? []).filter((type) => type.isDisplayed && access.canOn('read', type.uid));
  const settings = [...GLOBAL_SETTINGS, ...ADMINISTRATION, ...USERS_PERMISSIONS].some(([, path]) =>
    mayOpen(access, path),
  );
  return (
    <>
      <Text fw={700} px="sm">
        Content manager
      </Text>
      {schema.isPending && <Loader size="sm" m="sm" aria-label="Loading" />}
      {schema.error && <Alert color="red">{schema.error.message}</Alert>}
      <TypeLinks
        label="Collection types"
        types={types.filter((type) => type.kind === 'collectionType')}
        onNavigate={onNavigate}
      />
      <TypeLinks
        label="Single types"
        types={types.filter((type) => type.kind === 'singleType')}
        onNavigate={onNavigate}
      />
      {mayOpen(access, '/media') && (
        <NavLink component={RouterLink} to="/media" label="Media library" onClick={onNavigate} mt="md" fw={700} />
      )}
      {mayOpen(access, '/releases') && (
        <NavLink component={RouterLink} to="/releases" label="Releases" onClick={onNavigate} fw={700} />
      )}
      {mayOpen(access, '/content-type-builder') && (
        <NavLink
          component={RouterLink}
          to="/content-type-builder"
          label="Content-Type Builder"
          onClick={onNavigate}
          fw={700}
        />
      )}
      {settings && (
        <nav aria-label="Settings">
          <Text fw={700} px="sm" mt="lg">
            Settings
          </Text>
          <SettingsGroup title="Global settings" links={GLOBAL_SETTINGS} access={access} onNavigate={onNavigate} />
          <SettingsGroup
            title="Administration panel"
            nav
            links={ADMINISTRATION}
            access={access}
            onNavigate={onNavigate}
          />
          <SettingsGroup
            title="Users & Permissions"
            nav
            links={USERS_PERMISSIONS}
            access={access}
            onNavigate={onNavigate}
          />
        </nav>
      )}
    </>
  );
}

/** The header's link to the administrator's own profile, named after them. */
function ProfileLink() {
  const me = useMe();
  const name = [me?.firstname, me?.lastname].filter(Boolean).join(' ') || me?.email || 'Profile';
  return (
    <Button component={RouterLink} to="/profile" variant="subtle" aria-label={`Profile: ${name}`}>
      {name}
    </Button>
  );
}

/** The frame of every screen: the header, the navigation by content-type, and the screen. */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    // A refusal may mean the administrator's roles changed: the menus follow.
    setForbiddenHandler(() => void refreshAccess(queryClient));
    return () => setForbiddenHandler(() => undefined);
  }, [queryClient]);
  const logout = async () => {
    // The server records the logout in the audit log; the panel forgets its token either way.
    // This browser's sessions end (its device id); the administrator's other browsers stay signed in.
    await api('/admin/logout', { method: 'POST', body: { deviceId: deviceId() } }).catch(() => undefined);
    session.clear();
    queryClient.clear();
    navigate('/login');
  };
  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AccessProvider>
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group>
              <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
              <Title order={2} size="h4">
                {/* The home page: the entries last edited and published. */}
                <Anchor component={RouterLink} to="/" c="inherit" underline="never">
                  Vellum
                </Anchor>
              </Title>
            </Group>
            <Group gap="xs">
              <ProfileLink />
              <Button variant="subtle" onClick={() => void logout()}>
                Log out
              </Button>
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar p="xs">
          <AppShell.Section grow component={ScrollArea}>
            <Navigation onNavigate={close} />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
      </AccessProvider>
    </AppShell>
  );
}
