import {
  Alert,
  Anchor,
  Button,
  Center,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Stack,
  TextInput,
  Title,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { api, deviceId, session } from '../api.ts';

/** Strapi's `GET /admin/init`: a project without an administrator offers to create the first. */
type Init = { data: { hasAdmin: boolean } };

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const init = useQuery({ queryKey: ['admin-init'], queryFn: () => api<Init>('/admin/init') });
  const enter = (token: string) => {
    // Nothing read for an earlier session (whose token expired) shows for this one.
    queryClient.clear();
    session.set(token);
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && from !== '/login' ? from : '/', { replace: true });
  };
  if (init.data?.data.hasAdmin === false) return <FirstAdministrator onRegistered={enter} />;
  return <LoginForm onLoggedIn={enter} />;
}

/** The centred card of the screens outside the frame (login, first administrator, registration). */
export function Frame({ subtitle, children }: { subtitle: string; children: React.ReactNode }) {
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w={420}>
        <Stack>
          <div>
            <Title order={1} size="h2">
              Vellum
            </Title>
            <Text c="dimmed">{subtitle}</Text>
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

function LoginForm({ onLoggedIn }: { onLoggedIn: (token: string) => void }) {
  const form = useForm({ initialValues: { email: '', password: '', rememberMe: false } });
  const login = useMutation({
    // Remember me: the session's cookie outlives the browser (14 days unused, 30 at most).
    mutationFn: (values: { email: string; password: string; rememberMe: boolean }) =>
      api<{ data: { token: string } }>('/admin/login', { method: 'POST', body: { ...values, deviceId: deviceId() } }),
    onSuccess: ({ data }) => onLoggedIn(data.token),
  });
  return (
    <Frame subtitle="Log in to the admin panel">
      <form onSubmit={form.onSubmit((values) => login.mutate(values))}>
        <Stack>
          {login.error && (
            <Alert color="red" role="alert">
              {login.error.message}
            </Alert>
          )}
          <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Group justify="space-between">
            <Checkbox label="Remember me" {...form.getInputProps('rememberMe', { type: 'checkbox' })} />
            <Anchor component={Link} to="/auth/forgot-password" size="sm">
              Forgot your password?
            </Anchor>
          </Group>
          <Button type="submit" loading={login.isPending}>
            Log in
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}

function FirstAdministrator({ onRegistered }: { onRegistered: (token: string) => void }) {
  const form = useForm({ initialValues: { firstname: '', lastname: '', email: '', password: '' } });
  const register = useMutation({
    mutationFn: (values: { firstname: string; lastname: string; email: string; password: string }) =>
      api<{ data: { token: string } }>('/admin/register-admin', {
        method: 'POST',
        body: {
          ...values,
          email: values.email.trim().toLowerCase(),
          lastname: values.lastname || undefined,
          deviceId: deviceId(),
        },
      }),
    onSuccess: ({ data }) => onRegistered(data.token),
  });
  return (
    <Frame subtitle="Welcome. Create the first administrator of this project.">
      <form onSubmit={form.onSubmit((values) => register.mutate(values))}>
        <Stack>
          {register.error && (
            <Alert color="red" role="alert">
              {register.error.message}
            </Alert>
          )}
          <Group grow>
            <TextInput label="First name" required autoComplete="given-name" {...form.getInputProps('firstname')} />
            <TextInput label="Last name" autoComplete="family-name" {...form.getInputProps('lastname')} />
          </Group>
          <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput
            label="Password"
            description="At least 8 characters, with a lower-case letter, an upper-case letter and a number"
            autoComplete="new-password"
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={register.isPending}>
            Create the administrator
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}
