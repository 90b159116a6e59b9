import {
  Alert,
  Autocomplete,
  Badge,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../api.ts';
import { useLocales, type Locale } from '../locales.tsx';
import { LOCALE_CODE, localeName, localeOptions } from '../settings.ts';
import { ActionsTable, DeleteButton, EditButton } from '../components/ActionsTable.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ReadOnlyNote, useRights } from '../access.tsx';

/** An error about the name goes under the name; the others (the code, a conflict) under the code. */
const errorField = (error: Error) => (error instanceof ApiError && /^name\b/.test(error.message) ? 'name' : 'code');

/** Locales: listed, added (a common ISO code or any valid one), renamed, made default, deleted; each with its action. */
export function LocalesPage() {
  const rights = useRights('/manage/locales');
  const queryClient = useQueryClient();
  const locales = useLocales();
  const [editing, setEditing] = useState<Locale | null>(null);
  const [deleting, setDeleting] = useState<Locale | null>(null);
  // The content manager's locale switchers read the same query: they offer a new locale at once.
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['locales'] });

  const taken = (locales.data ?? []).map((locale) => locale.code);
  const form = useForm({
    initialValues: { code: '', name: '' },
    validate: {
      // The API adds a code already there as a rename: here that is a mistake, said beside the field.
      code: (value) =>
        !LOCALE_CODE.test(value.trim())
          ? 'A code such as de, fr-CA or pt-BR'
          : taken.some((code) => code.toLowerCase() === value.trim().toLowerCase())
            ? `${value.trim()} is already added`
            : null,
    },
  });
  const suggestedName = LOCALE_CODE.test(form.values.code.trim()) ? localeName(form.values.code.trim()) : '';
  const add = useMutation({
    mutationFn: ({ code, name }: typeof form.values) => {
      const chosen = name.trim() || (suggestedName !== code.trim() ? suggestedName : '');
      return api<{ data: Locale }>('/admin/locales', {
        method: 'POST',
        body: { code: code.trim(), ...(chosen ? { name: chosen } : {}) },
      });
    },
    onSuccess: ({ data }) => {
      notifications.show({ color: 'green', message: `${data.name} (${data.code}) added` });
      form.reset();
      void refresh();
    },
    onError: (error) => form.setFieldError(errorField(error), error.message),
  });

  const editForm = useForm({ initialValues: { name: '' } });
  const rename = useMutation({
    mutationFn: ({ code, name }: { code: string; name: string }) =>
      api<{ data: Locale }>(`/admin/locales/${encodeURIComponent(code)}`, { method: 'PUT', body: { name } }),
    onSuccess: ({ data }) => {
      notifications.show({ color: 'green', message: `${data.code} renamed ${data.name}` });
      setEditing(null);
      void refresh();
    },
    onError: (error) => editForm.setFieldError('name', error.message),
  });
  const makeDefault = useMutation({
    mutationFn: (locale: Locale) =>
      api<{ data: Locale }>(`/admin/locales/${encodeURIComponent(locale.code)}`, {
        method: 'PUT',
        body: { isDefault: true },
      }),
    onSuccess: ({ data }) => {
      notifications.show({ color: 'green', message: `${data.name} is the default locale` });
      void refresh();
    },
    onError: (error) =>
      notifications.show({ color: 'red', title: 'The default did not change', message: error.message }),
  });
  const remove = useMutation({
    mutationFn: (locale: Locale) => api(`/admin/locales/${encodeURIComponent(locale.code)}`, { method: 'DELETE' }),
    onSuccess: (_answer, locale) => {
      notifications.show({ color: 'green', message: `${locale.name} (${locale.code}) deleted` });
      void refresh();
    },
    onError: (error, locale) =>
      notifications.show({ color: 'red', title: `${locale.code} was not deleted`, message: error.message }),
  });

  const options = localeOptions(taken);
  const names = new Map(options.map((option) => [option.value, option.label]));

  return (
    <Stack>
      <Title order={1}>Locales</Title>
      <Text c="dimmed">
        The languages content is written in. The default locale is the one the content API answers when a request names
        none.
      </Text>
      {rights.readOnly && <ReadOnlyNote what="the locales" />}
      {rights.create && (
        <Paper withBorder p="lg" component="section" aria-label="Add a locale">
          <form onSubmit={form.onSubmit((values) => add.mutate(values))}>
            <Stack>
              <Title order={2} size="h4">
                Add a locale
              </Title>
              <Group align="flex-start" grow>
                <Autocomplete
                  label="Locale code"
                  description="Search by code or language; any valid code is accepted"
                  required
                  data={options.map((option) => option.value)}
                  // Search by the code or the language's name; show both.
                  filter={({ options: items, search }) => {
                    const needle = search.trim().toLowerCase();
                    return items.filter(
                      (item) => 'value' in item && (names.get(item.value) ?? item.value).toLowerCase().includes(needle),
                    );
                  }}
                  renderOption={({ option }) => names.get(option.value) ?? option.value}
                  limit={30}
                  {...form.getInputProps('code')}
                />
                <TextInput
                  label="Display name"
                  description="The language's name when left empty"
                  placeholder={suggestedName}
                  {...form.getInputProps('name')}
                />
              </Group>
              <Group>
                <Button type="submit" loading={add.isPending}>
                  Add locale
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
      {locales.error && <Alert color="red">{locales.error.message}</Alert>}
      {locales.isPending ? (
        <Loader aria-label="Loading" />
      ) : (
        <ActionsTable
          label="Locales"
          minWidth={600}
          head={
            <>
              <Table.Th>Code</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Default</Table.Th>
            </>
          }
          rows={locales.data}
          rowKey={(locale) => locale.code}
          cells={(locale) => (
            <>
              <Table.Td>{locale.code}</Table.Td>
              <Table.Td>{locale.name}</Table.Td>
              <Table.Td>{locale.isDefault && <Badge variant="light">Default</Badge>}</Table.Td>
            </>
          )}
          actions={(locale) => (
            <>
              {rights.update && (
                <EditButton
                  name={locale.code}
                  onClick={() => {
                    editForm.setValues({ name: locale.name });
                    editForm.clearErrors();
                    setEditing(locale);
                  }}
                />
              )}
              {!locale.isDefault && rights.update && (
                <Button
                  variant="subtle"
                  size="xs"
                  aria-label={`Make ${locale.code} the default`}
                  loading={makeDefault.isPending && makeDefault.variables?.code === locale.code}
                  onClick={() => makeDefault.mutate(locale)}
                >
                  Make default
                </Button>
              )}
              {rights.delete && <DeleteButton name={locale.code} onClick={() => setDeleting(locale)} />}
            </>
          )}
        />
      )}
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={`Edit ${editing?.code ?? ''}`}>
        <form
          onSubmit={editForm.onSubmit(({ name }) => {
            if (editing) rename.mutate({ code: editing.code, name });
          })}
        >
          <Stack>
            <TextInput label="Display name" required data-autofocus {...editForm.getInputProps('name')} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                Cancel
              </Button>
              <Button type="submit" loading={rename.isPending}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDialog
        subject={deleting}
        title={`Delete ${deleting?.name ?? ''}?`}
        onClose={() => setDeleting(null)}
        onConfirm={(subject) => remove.mutate(subject)}
      >
        The locale {deleting?.code} leaves the list: the content API and the locale switchers stop offering it. Its
        entries are not deleted.
      </ConfirmDialog>
    </Stack>
  );
}
