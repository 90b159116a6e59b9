/**
 * The administrator using the panel and what they may do: `GET /admin/users/me` and
 * `GET /admin/users/me/permissions`, read once the frame shows and again when they may have
 * changed (the window focused again, a refusal from the API, a change to roles or administrators
 * made here). Screens read it with `useAccess()`; `Allowed` guards a screen the menu hides;
 * `useRights(screen)` says which of a screen's changes the administrator may make, the others'
 * buttons hidden and their fields in a `ReadOnlyFieldset`, with a `ReadOnlyNote` saying why.
 */
import { Alert, Loader, Stack, Title } from '@mantine/core';
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import {
  AdminAccess,
  mayOpen,
  rightsOn,
  type AdminPermission,
  type ChangeScreen,
  type Rights,
} from './admin-permissions.ts';
import { api, session } from './api.ts';

export interface RoleSummary {
  id: number;
  name: string;
  description: string | null;
  code: string;
}

/** An administrator as `/admin/users` answers them. */
export interface AdminUser {
  id: number;
  email: string;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
  isActive: boolean;
  blocked: boolean;
  createdAt: string | null;
  roles: RoleSummary[];
}

interface Access {
  me: AdminUser | null;
  access: AdminAccess;
}

const ACCESS_KEY = 'access';

function useAccessQuery() {
  return useQuery({
    // Per session: another administrator logging in on this tab never sees the last one's.
    queryKey: [ACCESS_KEY, session.token],
    queryFn: async (): Promise<Access> => {
      const [me, permissions] = await Promise.all([
        api<{ data: AdminUser }>('/admin/users/me'),
        api<{ data: AdminPermission[] }>('/admin/users/me/permissions'),
      ]);
      return { me: me.data, access: AdminAccess.of(me.data.roles, permissions.data) };
    },
    staleTime: 30_000,
    refetchOnWindowFocus: true,
    // A new token of the same administrator (their password changed) keeps the screen while it reads.
    placeholderData: keepPreviousData,
  });
}

/** Reads the administrator's roles and permissions again (after a change that may touch them). */
export function refreshAccess(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: [ACCESS_KEY] });
}

const AccessContext = createContext<Access>({ me: null, access: new AdminAccess(false, []) });

/** What the administrator may do (nothing outside the frame's provider). */
export const useAccess = (): AdminAccess => useContext(AccessContext).access;
/** The administrator using the panel. */
export const useMe = (): AdminUser | null => useContext(AccessContext).me;

/** Shows its children once the administrator's permissions are read. */
export function AccessProvider({ children }: { children: ReactNode }) {
  const query = useAccessQuery();
  if (query.error && !query.data) return <Alert color="red">{query.error.message}</Alert>;
  if (!query.data) return <Loader m="lg" aria-label="Loading" />;
  return <AccessContext.Provider value={query.data}>{children}</AccessContext.Provider>;
}

/** A screen shown where the administrator lacks its action. */
export function NotAllowed() {
  return (
    <Stack>
      <Title order={1}>Not allowed</Title>
      <Alert color="yellow" role="alert">
        Your roles do not allow this screen. An administrator who manages roles can grant it.
      </Alert>
    </Stack>
  );
}

/** Which of a screen's changes (create, update, delete, ...) the administrator's roles allow. */
export const useRights = (screen: ChangeScreen): Rights => rightsOn(useAccess(), screen);

/**
 * Says that the administrator's roles let them read, not change, what is shown (`what`: "this
 * screen" when not given). Shown where a screen or a form is read-only for them.
 */
export function ReadOnlyNote({ what = 'this screen' }: { what?: string }) {
  return (
    <Alert color="gray" variant="light" role="note" title="Read-only">
      Your roles let you read {what}, not change it.
    </Alert>
  );
}

/**
 * Its inputs disabled when `readOnly` (a native disabled fieldset: every field, checkbox and
 * select inside, as Strapi's screens show what a role may not update); unstyled otherwise.
 */
export function ReadOnlyFieldset({ readOnly, children }: { readOnly: boolean; children: ReactNode }) {
  return (
    <fieldset
      disabled={readOnly}
      data-readonly={readOnly || undefined}
      style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
    >
      {children}
    </fieldset>
  );
}

/** The screen at `path` (its key in SCREEN_ACTIONS), or "Not allowed" without its action. */
export function Allowed({ path, children }: { path: string; children: ReactNode }) {
  const access = useAccess();
  return mayOpen(access, path) ? <>{children}</> : <NotAllowed />;
}
