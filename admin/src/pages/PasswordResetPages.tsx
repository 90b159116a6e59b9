import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { api, ApiError, session } from '../api.ts';
import { showFormError } from '../form-errors.ts';
import { Frame } from './LoginPage.tsx';

/**
 * A forgotten password (Strapi's `/admin/auth/forgot-password`): the email gets a link to
 * `/admin/auth/reset-password?code=...` when it is an active administrator's; the screen says the
 * same either way (the server answers 204 whoever the email belongs to).
 */
export function ForgotPasswordPage() {
  const form = useForm({ initialValues: { email: '' } });
  const send = useMutation({
    mutationFn: ({ email }: { email: string }) =>
      api('/admin/forgot-password', { method: 'POST', body: { email: email.trim().toLowerCase() } }),
    onError: (error) => showFormError(error, ['email'], form.setFieldError, 'Not sent'),
  });
  return (
    <Frame subtitle="Forgotten password">
      {send.isSuccess ? (
        <Alert color="green" role="status" title="Email sent">
          If {form.values.email.trim().toLowerCase()} is an administrator's email, a link to choose a new password is on
          its way. It works once, for a limited time.
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit((values) => send.mutate(values))}>
          <Stack>
            <Text size="sm">Enter your email: you will get a link to choose a new password.</Text>
            <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
            <Button type="submit" loading={send.isPending}>
              Send the email
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/login" size="sm">
        Back to the login
      </Anchor>
    </Frame>
  );
}

/** The link of the email: a new password (twice), then signed in (`POST /admin/reset-password`). */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: { password: '', confirmation: '' },
    validate: { confirmation: (value, values) => (value === values.password ? null : 'The passwords differ') },
  });
  const reset = useMutation({
    mutationFn: ({ password }: { password: string }) =>
      api<{ data: { token: string } }>('/admin/reset-password', {
        method: 'POST',
        body: { resetPasswordToken: code, password },
      }),
    onSuccess: ({ data }) => {
      queryClient.clear();
      session.set(data.token);
      navigate('/', { replace: true });
    },
    onError: (error) => showFormError(error, ['password'], form.setFieldError, 'Password not changed'),
  });
  // A refusal without field errors: the code (unknown, used, expired), not the password.
  const expired = reset.error instanceof ApiError && reset.error.errors.length === 0;
  return (
    <Frame subtitle="Choose a new password">
      {(code === '' || expired) && (
        <Alert color="red" role="alert" title="This link is not valid">
          {code === '' ? 'It is incomplete.' : 'It was used already, or it has expired.'} Ask for a new one on the{' '}
          <Anchor component={Link} to="/auth/forgot-password">
            forgotten password
          </Anchor>{' '}
          screen.
        </Alert>
      )}
      {code !== '' && (
        <form onSubmit={form.onSubmit((values) => reset.mutate(values))}>
          <Stack>
            <PasswordInput
              label="New password"
              description="At least 8 characters, with a lower-case letter, an upper-case letter and a number"
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Confirm the password"
              autoComplete="new-password"
              required
              {...form.getInputProps('confirmation')}
            />
            <Button type="submit" loading={reset.isPending}>
              Change the password
            </Button>
          </Stack>
        </form>
      )}
    </Frame>
  );
}
