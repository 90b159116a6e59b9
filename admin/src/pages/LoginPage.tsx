import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router-dom';
import { api, session } from '../api.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const form = useForm({ initialValues: { email: '', password: '' } });
  const login = useMutation({
    mutationFn: (values: { email: string; password: string }) =>
      api<{ data: { token: string } }>('/admin/login', { method: 'POST', body: values }),
    onSuccess: ({ data }) => {
      session.set(data.token);
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== '/login' ? from : '/', { replace: true });
    },
  });
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="main" withBorder shadow="sm" p="xl" w={400}>
        <form onSubmit={form.onSubmit((values) => login.mutate(values))}>
          <Stack>
            <div>
              <Title order={1} size="h2">
                Vellum
              </Title>
              <Text c="dimmed">Log in to the admin panel</Text>
            </div>
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
            <Button type="submit" loading={login.isPending}>
              Log in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
