import { Alert, Anchor, Button, Group, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { api, deviceId, session } from '../api.ts';
import { showFormError } from '../form-errors.ts';
import { Frame } from './LoginPage.tsx';

interface Invitation {
  email: string;
  firstname: string | null;
  lastname: string | null;
}

/**
 * An invited administrator's screen, at the link of their invitation
 * (`/admin/auth/register?registrationToken=...`, Strapi's): who the invitation is for
 * (`GET /admin/registration-info`), then their names and password (`POST /admin/register`), after
 * which they are logged in.
 */
export function RegisterPage() {
  const [params] = useSearchParams();
  const code = params.get('registrationToken') ?? '';
  const info = useQuery({
    queryKey: ['registration-info', code],
    queryFn: async () =>
      (await api<{ data: Invitation }>(`/admin/registration-info?registrationToken=${encodeURIComponent(code)}`)).data,
    enabled: code !== '',
  });
  if (code !== '' && info.isPending) return <Loader m="xl" aria-label="Loading" />;
  if (!info.data)
    return (
      <Frame subtitle="Your invitation">
        <Alert color="red" role="alert" title="This invitation link is not valid">
          It was used already, or it is incomplete. Ask the administrator who invited you for a new one.
        </Alert>
        <Anchor component={Link} to="/login">
          Log in
        </Anchor>
      </Frame>
    );
  return <RegistrationForm code={code} invitation={info.data} />;
}

function RegistrationForm({ code, invitation }: { code: string; invitation: Invitation }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({
    initialValues: {
      userInfo: { firstname: invitation.firstname ?? '', lastname: invitation.lastname ?? '', password: '' },
      confirmation: '',
    },
    validate: {
      confirmation: (value, values) => (value === values.userInfo.password ? null : 'The passwords differ'),
    },
  });
  const register = useMutation({
    mutationFn: ({ userInfo }: typeof form.values) =>
      api<{ data: { token: string } }>('/admin/register', {
        method: 'POST',
        body: {
          registrationToken: code,
          userInfo: { ...userInfo, lastname: userInfo.lastname || undefined },
          deviceId: deviceId(),
        },
      }),
    onSuccess: ({ data }) => {
      queryClient.clear();
      session.set(data.token);
      navigate('/', { replace: true });
    },
    onError: (error) =>
      showFormError(error, ['userInfo.firstname', 'userInfo.password'], form.setFieldError, 'Not registered'),
  });
  return (
    <Frame subtitle="Welcome. Choose your password to finish your registration.">
      <form onSubmit={form.onSubmit((values) => register.mutate(values))}>
        <Stack>
          <TextInput label="Email" value={invitation.email} readOnly />
          <Group grow align="flex-start">
            <TextInput
              label="First name"
              required
              autoComplete="given-name"
              {...form.getInputProps('userInfo.firstname')}
            />
            <TextInput label="Last name" autoComplete="family-name" {...form.getInputProps('userInfo.lastname')} />
          </Group>
          <PasswordInput
            label="Password"
            description="At least 8 characters, with a lower-case letter, an upper-case letter and a number"
            autoComplete="new-password"
            required
            {...form.getInputProps('userInfo.password')}
          />
          <PasswordInput
            label="Confirm the password"
            autoComplete="new-password"
            required
            {...form.getInputProps('confirmation')}
          />
          <Button type="submit" loading={register.isPending}>
            Finish registration
          </Button>
        </Stack>
      </form>
    </Frame>
  );
}
