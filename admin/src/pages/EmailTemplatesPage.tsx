import { Alert, Button, Group, Loader, Paper, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ReadOnlyFieldset, ReadOnlyNote, useRights } from '../access.tsx';
import { api } from '../api.ts';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { settingOf } from '../settings.ts';

interface TemplateOptions {
  from: { name: string; email: string };
  response_email: string;
  object: string;
  message: string;
}
type Templates = Record<'reset_password' | 'email_confirmation', { options: TemplateOptions }>;

const PATH = '/admin/users-permissions/email-templates';
const TEMPLATES = [
  {
    name: 'reset_password',
    title: 'Reset password',
    help: 'Sent by POST /api/auth/forgot-password. <%= URL %> is the reset page, <%= TOKEN %> the code.',
  },
  {
    name: 'email_confirmation',
    title: 'Email address confirmation',
    help: 'Sent to a new user when email confirmation is on. <%= URL %> is the confirmation route, <%= CODE %> the code.',
  },
] as const;
const FIELDS = ['name', 'email', 'response_email', 'object', 'message'] as const;
/** The form's field for each option an error names (`reset_password.options.from.email ...`). */
const FIELD_OF: Record<
  (typeof FIELDS)[number],
  'senderName' | 'senderEmail' | 'response_email' | 'object' | 'message'
> = {
  name: 'senderName',
  email: 'senderEmail',
  response_email: 'response_email',
  object: 'object',
  message: 'message',
};

/**
 * The users-permissions email templates (reset password, email confirmation), one form each;
 * read-only, without Save, for a role without `email-templates.update`.
 */
export function EmailTemplatesPage() {
  const { update: editable } = useRights('/manage/users-permissions/email-templates');
  const templates = useQuery({
    queryKey: ['users-permissions', 'email-templates'],
    queryFn: () => api<Templates>(PATH),
  });
  // One guard for the page (a router has one blocker at a time): either form with changes asks first.
  // The forms report their state (for the tab's closing) and are asked at the moment of leaving.
  const [dirty, setDirty] = useState<Partial<Record<keyof Templates, boolean>>>({});
  const checks = useRef(new Map<keyof Templates, () => boolean>());
  const { prompt: leavePrompt } = useUnsavedChanges({
    dirty: () => Object.values(dirty).some(Boolean) || [...checks.current.values()].some((check) => check()),
    message: 'An email template has changes that are not saved.',
  });
  const onDirty = useCallback(
    (name: keyof Templates, changed: boolean) =>
      setDirty((current) => (current[name] === changed ? current : { ...current, [name]: changed })),
    [],
  );
  if (templates.isPending) return <Loader aria-label="Loading" />;
  if (templates.error) return <Alert color="red">{templates.error.message}</Alert>;
  return (
    <Stack>
      <Title order={1}>Email templates</Title>
      <Text c="dimmed">
        The emails sent to the users of the content API. The subject and message take the placeholders shown.
      </Text>
      {!editable && <ReadOnlyNote what="the email templates" />}
      {TEMPLATES.map((template) => (
        <TemplateForm
          key={template.name}
          name={template.name}
          title={template.title}
          help={template.help}
          options={templates.data[template.name].options}
          onDirty={onDirty}
          checks={checks.current}
          editable={editable}
        />
      ))}
      {leavePrompt}
    </Stack>
  );
}

function TemplateForm({
  name,
  title,
  help,
  options,
  onDirty,
  checks,
  editable,
}: {
  name: keyof Templates;
  title: string;
  help: string;
  options: TemplateOptions;
  onDirty: (name: keyof Templates, dirty: boolean) => void;
  checks: Map<keyof Templates, () => boolean>;
  editable: boolean;
}) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | undefined>();
  const form = useForm({
    initialValues: { senderName: '', senderEmail: '', response_email: '', object: '', message: '' },
  });
  useEffect(() => {
    const values = {
      senderName: options.from.name,
      senderEmail: options.from.email,
      response_email: options.response_email,
      object: options.object,
      message: options.message,
    };
    form.setValues(values);
    form.resetDirty(values);
  }, [options]);
  const dirty = form.isDirty();
  useEffect(() => onDirty(name, dirty), [name, dirty, onDirty]);
  checks.set(name, () => form.isDirty());

  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      api(PATH, {
        method: 'PUT',
        body: {
          'email-templates': {
            [name]: {
              options: {
                from: { name: values.senderName, email: values.senderEmail },
                response_email: values.response_email,
                object: values.object,
                message: values.message,
              },
            },
          },
        },
      }),
    onSuccess: (_answer, values) => {
      setProblem(undefined);
      form.resetDirty(values);
      notifications.show({ color: 'green', message: `${title} template saved` });
      void queryClient.invalidateQueries({ queryKey: ['users-permissions', 'email-templates'] });
    },
    onError: (error) => {
      // `reset_password.options.object must be a string` → beside the subject; the others above the form.
      const option = settingOf(error.message, FIELDS);
      if (option) form.setFieldError(FIELD_OF[option], error.message);
      else setProblem(error.message);
    },
  });

  return (
    <Paper withBorder p="lg" component="section" aria-label={title}>
      <form
        onSubmit={form.onSubmit((values) => {
          if (editable) save.mutate(values);
        })}
        noValidate
      >
        <Stack>
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {help}
          </Text>
          {problem && (
            <Alert color="red" title="Not saved">
              {problem}
            </Alert>
          )}
          <ReadOnlyFieldset readOnly={!editable}>
            <Stack>
              <Group align="flex-start" grow>
                <TextInput label="Sender name" {...form.getInputProps('senderName')} />
                <TextInput label="Sender email" type="email" {...form.getInputProps('senderEmail')} />
                <TextInput label="Reply-to" type="email" {...form.getInputProps('response_email')} />
              </Group>
              <TextInput label="Subject" {...form.getInputProps('object')} />
              <Textarea label="Message" autosize minRows={6} ff="monospace" {...form.getInputProps('message')} />
            </Stack>
          </ReadOnlyFieldset>
          {editable && (
            <Group>
              <Button type="submit" loading={save.isPending} aria-label={`Save ${title.toLowerCase()} template`}>
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
