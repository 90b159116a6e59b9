import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';
import { ApiError } from './api.ts';
import { RequireSession } from './session.tsx';
import { Shell } from './pages/Shell.tsx';
import { LoginPage } from './pages/LoginPage.tsx';
import { HomePage } from './pages/HomePage.tsx';
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

// Client routes live under /admin beside the JSON admin API: they use names it does not (content/..., manage/...).
const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginPage />, errorElement: <ErrorPage /> },
    {
      element: (
        <RequireSession>
          <Shell />
        </RequireSession>
      ),
      errorElement: <ErrorPage />,
      children: [
        { index: true, element: <HomePage /> },
        { path: 'content/:uid', element: <ContentTypePage /> },
        // Screens past the first load when first opened: the login and the list come first.
        { path: 'content/:uid/create', lazy: editPage },
        { path: 'content/:uid/:documentId', lazy: editPage },
        // Settings live under manage/: /admin/settings is a JSON route of the admin API.
        // The media library's screen: /admin/upload is the JSON API's.
        {
          path: 'media',
          lazy: async () => ({ Component: (await import('./pages/MediaLibraryPage.tsx')).MediaLibraryPage }),
        },
        // The Content-Type Builder's screens: its JSON API is /content-type-builder, beside /admin.
        {
          path: 'content-type-builder',
          lazy: async () => ({ Component: (await import('./pages/BuilderPage.tsx')).BuilderPage }),
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
        {
          path: 'manage/api-tokens',
          lazy: async () => ({ Component: (await import('./pages/ApiTokensPage.tsx')).ApiTokensPage }),
        },
        { path: 'manage/roles', lazy: async () => ({ Component: (await import('./pages/RolesPage.tsx')).RolesPage }) },
        {
          path: 'manage/roles/:id',
          lazy: async () => ({ Component: (await import('./pages/RoleEditPage.tsx')).RoleEditPage }),
        },
        { path: 'manage/users', lazy: async () => ({ Component: (await import('./pages/UsersPage.tsx')).UsersPage }) },
        {
          path: 'manage/administrators',
          lazy: async () => ({ Component: (await import('./pages/AdministratorsPage.tsx')).AdministratorsPage }),
        },
        {
          path: 'manage/locales',
          lazy: async () => ({ Component: (await import('./pages/LocalesPage.tsx')).LocalesPage }),
        },
        {
          path: 'manage/webhooks',
          lazy: async () => ({ Component: (await import('./pages/WebhooksPage.tsx')).WebhooksPage }),
        },
        {
          path: 'manage/webhooks/create',
          lazy: async () => ({ Component: (await import('./pages/WebhookPage.tsx')).WebhookPage }),
        },
        {
          path: 'manage/webhooks/:id',
          lazy: async () => ({ Component: (await import('./pages/WebhookPage.tsx')).WebhookPage }),
        },
        {
          path: 'manage/audit-logs',
          lazy: async () => ({ Component: (await import('./pages/AuditLogPage.tsx')).AuditLogPage }),
        },
        {
          path: 'manage/users-permissions/advanced',
          lazy: async () => ({ Component: (await import('./pages/AdvancedSettingsPage.tsx')).AdvancedSettingsPage }),
        },
        {
          path: 'manage/users-permissions/email-templates',
          lazy: async () => ({ Component: (await import('./pages/EmailTemplatesPage.tsx')).EmailTemplatesPage }),
        },
        {
          path: 'manage/users-permissions/providers',
          lazy: async () => ({ Component: (await import('./pages/ProvidersPage.tsx')).ProvidersPage }),
        },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ],
  { basename: '/admin' },
);

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
