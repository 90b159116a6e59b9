import './first-screen-styles.ts';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import {
  createBrowserRouter,
  Navigate,
  RouterProvider,
  type NonIndexRouteObject,
  type RouteObject,
} from 'react-router-dom';
import { Allowed } from './access.tsx';
import { ApiError } from './api.ts';
import { RequireSession } from './session.tsx';
import { Shell } from './pages/Shell.tsx';
import { ContentTypePage } from './pages/ContentTypePage.tsx';
import { ErrorPage } from './pages/ErrorPage.tsx';

const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused or missing thing is an answer, not a network hiccup: no retries for 4xx.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const editPage = async () => ({ Component: (await import('./pages/EditPage.tsx')).EditPage });
const historyPage = async () => ({ Component: (await import('./pages/history/HistoryPage.tsx')).HistoryPage });

/**
 * A screen loaded when first opened, shown only to administrators whose roles allow the screen
 * at `guard` (its key in admin-permissions.ts's SCREEN_ACTIONS).
 */
function screen(path: string, guard: string, load: () => Promise<ComponentType>): NonIndexRouteObject {
  return {
    path,
    lazy: async () => {
      const Component = await load();
      return {
        element: (
          <Allowed path={guard}>
            <Component />
          </Allowed>
        ),
      };
    },
  };
}

// Client routes live under /admin beside the JSON admin API: they use names it does not (content/..., manage/...).
const router = createBrowserRouter(
  withAllStyles([
    // The login form and the home page load when shown: a signed-in administrator opening a list
    // (the content manager's first screen) loads neither (bench/admin-scale.ts).
    {
      path: '/login',
      lazy: async () => ({ Component: (await import('./pages/LoginPage.tsx')).LoginPage }),
      errorElement: <ErrorPage />,
    },
    // The link an invited administrator gets (Strapi's path): they choose their password there.
    {
      path: '/auth/register',
      lazy: async () => ({ Component: (await import('./pages/RegisterPage.tsx')).RegisterPage }),
      errorElement: <ErrorPage />,
    },
    // A forgotten password, and the link its email sends (Strapi's paths).
    {
      path: '/auth/forgot-password',
      lazy: async () => ({ Component: (await import('./pages/PasswordResetPages.tsx')).ForgotPasswordPage }),
      errorElement: <ErrorPage />,
    },
    {
      path: '/auth/reset-password',
      lazy: async () => ({ Component: (await import('./pages/PasswordResetPages.tsx')).ResetPasswordPage }),
      errorElement: <ErrorPage />,
    },
    {
      element: (
        <RequireSession>
          <Shell />
        </RequireSession>
      ),
      errorElement: <ErrorPage />,
      children: [
        { index: true, lazy: async () => ({ Component: (await import('./pages/HomePage.tsx')).HomePage }) },
        { path: 'content/:uid', element: <ContentTypePage /> },
        // Screens past the first load when first opened: the login and the list come first.
        {
          path: 'content/:uid/configure',
          lazy: async () => ({ Component: (await import('./pages/ConfigureViewPage.tsx')).ConfigureViewPage }),
        },
        { path: 'content/:uid/create', lazy: editPage },
        { path: 'content/:uid/:documentId', lazy: editPage },
        // A document's content history (Strapi's .../:documentId/history; /admin/content-manager is the JSON API here).
        { path: 'content/:uid/:documentId/history', lazy: historyPage },
        { path: 'content/:uid/history', lazy: historyPage },
        // Settings live under manage/: /admin/settings is a JSON route of the admin API.
        // The media library's screen: /admin/upload is the JSON API's.
        screen('media', '/media', async () => (await import('./pages/MediaLibraryPage.tsx')).MediaLibraryPage),
        // Releases: the JSON API is /content-releases, beside /admin.
        screen('releases', '/releases', async () => (await import('./pages/releases/ReleasesPage.tsx')).ReleasesPage),
        screen('releases/:id', '/releases', async () => (await import('./pages/releases/ReleasePage.tsx')).ReleasePage),
        screen(
          'manage/releases',
          '/manage/releases',
          async () => (await import('./pages/releases/ReleaseSettingsPage.tsx')).ReleaseSettingsPage,
        ),
        // The Content-Type Builder's screens: its JSON API is /content-type-builder, beside /admin.
        {
          ...screen(
            'content-type-builder',
            '/content-type-builder',
            async () => (await import('./pages/BuilderPage.tsx')).BuilderPage,
          ),
          children: [
            { index: true, lazy: async () => ({ Component: (await import('./pages/BuilderPage.tsx')).BuilderHome }) },
            {
              path: 'content-types/:uid',
              lazy: async () => {
                const { BuilderModelPage } = await import('./pages/BuilderModelPage.tsx');
                return { element: <BuilderModelPage modelType="contentType" /> };
              },
            },
            {
              path: 'components/:uid',
              lazy: async () => {
                const { BuilderModelPage } = await import('./pages/BuilderModelPage.tsx');
                return { element: <BuilderModelPage modelType="component" /> };
              },
            },
          ],
        },
        { path: 'profile', lazy: async () => ({ Component: (await import('./pages/ProfilePage.tsx')).ProfilePage }) },
        screen(
          'manage/api-tokens',
          '/manage/api-tokens',
          async () => (await import('./pages/ApiTokensPage.tsx')).ApiTokensPage,
        ),
        // The administrators' roles and the administrators (Strapi's "Administration panel" settings).
        screen(
          'manage/admin-roles',
          '/manage/admin-roles',
          async () => (await import('./pages/AdminRolesPage.tsx')).AdminRolesPage,
        ),
        screen(
          'manage/admin-roles/:id',
          '/manage/admin-roles',
          async () => (await import('./pages/AdminRoleEditPage.tsx')).AdminRoleEditPage,
        ),
        screen(
          'manage/admin-users',
          '/manage/admin-users',
          async () => (await import('./pages/AdminUsersPage.tsx')).AdminUsersPage,
        ),
        { path: 'manage/administrators', element: <Navigate to="/manage/admin-users" replace /> },
        // The content API's roles and users (Strapi's Users & Permissions plugin).
        screen('manage/roles', '/manage/roles', async () => (await import('./pages/RolesPage.tsx')).RolesPage),
        screen(
          'manage/roles/:id',
          '/manage/roles',
          async () => (await import('./pages/RoleEditPage.tsx')).RoleEditPage,
        ),
        screen('manage/users', '/manage/users', async () => (await import('./pages/UsersPage.tsx')).UsersPage),
        screen('manage/locales', '/manage/locales', async () => (await import('./pages/LocalesPage.tsx')).LocalesPage),
        screen(
          'manage/webhooks',
          '/manage/webhooks',
          async () => (await import('./pages/WebhooksPage.tsx')).WebhooksPage,
        ),
        screen(
          'manage/webhooks/create',
          '/manage/webhooks',
          async () => (await import('./pages/WebhookPage.tsx')).WebhookPage,
        ),
        screen(
          'manage/webhooks/:id',
          '/manage/webhooks',
          async () => (await import('./pages/WebhookPage.tsx')).WebhookPage,
        ),
        screen(
          'manage/audit-logs',
          '/manage/audit-logs',
          async () => (await import('./pages/AuditLogPage.tsx')).AuditLogPage,
        ),
        screen(
          'manage/users-permissions/advanced',
          '/manage/users-permissions/advanced',
          async () => (await import('./pages/AdvancedSettingsPage.tsx')).AdvancedSettingsPage,
        ),
        screen(
          'manage/users-permissions/email-templates',
          '/manage/users-permissions/email-templates',
          async () => (await import('./pages/EmailTemplatesPage.tsx')).EmailTemplatesPage,
        ),
        screen(
          'manage/users-permissions/providers',
          '/manage/users-permissions/providers',
          async () => (await import('./pages/ProvidersPage.tsx')).ProvidersPage,
        ),
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ]),
  { basename: '/admin' },
);

/**
 * Each screen loaded when first opened brings Mantine's whole style sheet with it (the first
 * screen, the list, has its components' sheets only: first-screen-styles.ts).
 */
function withAllStyles(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const { lazy, children } = route;
    const wrapped = {
      ...route,
      ...(typeof lazy === 'function'
        ? { lazy: async () => (await Promise.all([lazy(), import('./all-styles.ts')]))[0] }
        : {}),
      ...(children ? { children: withAllStyles(children) } : {}),
    };
    return wrapped as RouteObject;
  });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme}>
      <Notifications position="bottom-right" limit={3} autoClose={4000} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
