import {
  Alert,
  Anchor,
  Badge,
  Button,
  Grid,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { api, ApiError, queryString } from '../api.ts';
import { FieldInput, FieldModeContext } from '../components/FieldInput.tsx';
import { ImplicitSubmitContext, reportFieldsValidity } from '../components/FieldForm.tsx';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';
import { contentPath, statusOf, STATUS_COLORS, type DocumentAnswer } from '../content.ts';
import {
  apiData,
  errorsByField,
  formValues,
  JsonFieldError,
  withoutIds,
  modelsOf,
  populateFor,
  slugify,
  type FormValues,
  type Models,
} from '../fields.ts';
import { useSchema, type ContentTypeDescription } from '../schema.ts';
import { LocaleSelect, useLocale, useLocaleCodes, useLocales } from '../locales.tsx';
import { RELEASES } from '../releases.ts';
import { AddToRelease } from './releases/AddToRelease.tsx';
import { NotAllowed, useAccess } from '../access.tsx';
import type { AdminAccess } from '../admin-permissions.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { DuplicateButton } from '../components/Duplicate.tsx';
import { PreviewPanel, usePreviewUrl } from '../components/PreviewPanel.tsx';
import { configuredAttributes, useViewConfiguration } from '../view-configuration.ts';

type Action = 'save' | 'publish' | 'unpublish' | 'discard-draft' | 'delete';

/** The edit view of a document (or the create view, or a single type's document). */
export function EditPage() {
  const { uid, documentId } = useParams();
  const location = useLocation();
  const schema = useSchema();
  const access = useAccess();
  // The fields as the type's view is configured (labels, descriptions, placeholders, order, relations' main fields).
  const view = useViewConfiguration(uid ?? '');
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const described = schema.data?.contentTypes.find((candidate) => candidate.uid === uid);
  if (!described) return <Alert color="red">{schema.error?.message ?? `No content-type ${uid}`}</Alert>;
  if (view.isPending) return <Loader aria-label="Loading" />;
  const type = { ...described, attributes: configuredAttributes(described.attributes, view.data) };
  const creating = type.kind === 'collectionType' && documentId === undefined;
  if (!access.canOn(creating ? 'create' : 'read', type.uid)) return <NotAllowed />;
  // A document just created keeps its editor (and what it shows: a failed publish's errors) as the URL gains its id.
  const localeParam = new URLSearchParams(location.search).get('locale') ?? '';
  const key =
    (location.state as { editor?: string } | null)?.editor ?? `${type.uid}/${documentId ?? 'new'}/${localeParam}`;
  return (
    <LocalizedEditor key={key} editorKey={key} type={type} documentId={documentId} models={modelsOf(schema.data!)} />
  );
}

/** The locales an editor offers: those the administrator may read the type in, or create it in. */
const editorLocales = (access: AdminAccess, uid: string, codes: readonly string[]) =>
  access.locales(['read', 'create'], uid, codes);

type EditorProps = { type: ContentTypeDescription; documentId: string | undefined; editorKey: string; models: Models };

/** A localized type's editor waits for the stored locales (the default one is shown without ?locale=). */
function LocalizedEditor(props: EditorProps) {
  const access = useAccess();
  const codes = useLocaleCodes();
  const [locale, setLocale] = useLocale(props.type, codes && editorLocales(access, props.type.uid, codes));
  if (props.type.localized && locale === undefined) return <Loader aria-label="Loading" />;
  return <Editor {...props} locale={locale} setLocale={setLocale} />;
}

function Editor({
  type,
  documentId,
  editorKey,
  models,
  locale,
  setLocale,
}: EditorProps & { locale: string | undefined; setLocale: (code: string) => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const access = useAccess();
  const single = type.kind === 'singleType';
  const creating = !single && documentId === undefined;
  const path = contentPath(type, documentId);
  // Every answer shows the relations, components and zones the form edits, in the editor's locale.
  const populate = queryString({ populate: populateFor(type.attributes, models), locale });
  const localeQuery = locale ? `?locale=${encodeURIComponent(locale)}` : '';
  const locales = useLocales();
  const queryKey = ['document', type.uid, documentId ?? null, locale ?? null];
  const loaded = useQuery({ queryKey, queryFn: () => api<DocumentAnswer>(`${path}${populate}`), enabled: !creating });
  // A new document's first save, before the URL names it.
  const [created, setCreated] = useState<DocumentAnswer | null>(null);
  // A document without a version in this locale yet: its first save there makes one.
  const missingLocale = loaded.error instanceof ApiError && loaded.error.status === 404 && locale !== undefined;
  const current = loaded.data ?? created;
  const exists = Boolean(current?.data);
  // The front end's page of this draft, beside the form when the project configures a preview.
  const previewUrl = usePreviewUrl(
    type.uid,
    single ? undefined : (documentId ?? (current?.data ? String(current.data.documentId) : undefined)),
    locale,
    current?.data?.updatedAt,
    exists,
  );

  // Fields skip the renders that leave their value alone (FieldInput), keeping the callbacks of an
  // earlier render: the one below reads whether the document exists now, not when it was made.
  const existsNow = useRef(exists);
  existsNow.current = exists;
  const form = useForm<FormValues>({
    // Uncontrolled: a keystroke writes the form's values (a ref) and renders nothing, this page
    // included (press to paint 16-30 ms in a 40-entry zone under load when every key rendered the
    // page and its 40 entries' comparisons, bench/admin-scale.ts). The page renders when the form
    // turns dirty or clean, when errors change and when a value is set from elsewhere (relations,
    // components, media: `setFieldValue` re-renders, and FieldInput renders the fields it changed).
    mode: 'uncontrolled',
    initialValues: formValues(type.attributes, null, models),
    onValuesChange: useCallback((values: FormValues, previous: FormValues) => {
      // A uid follows its target field while it still reads as generated from it (new documents).
      for (const attribute of type.attributes) {
        const target = attribute.targetField;
        if (attribute.type !== 'uid' || !target || values[target] === previous[target] || existsNow.current) continue;
        const uid = String(values[attribute.name] ?? '');
        if (uid === '' || uid === slugify(String(previous[target] ?? '')))
          form.setFieldValue(attribute.name, slugify(String(values[target] ?? '')));
      }
    }, []),
  });
  const baseline = useRef<FormValues>(form.getValues());
  const fill = (answer: DocumentAnswer | null | undefined) => {
    const values = formValues(type.attributes, answer?.data ?? null, models);
    baseline.current = values;
    form.setValues(values);
    form.resetDirty(values);
  };
  /** What the server answered a write: the form shows it, the cache keeps it for this document's next visit. */
  const show = (next: DocumentAnswer, id = documentId) => {
    if (single) queryClient.setQueryData(['document', type.uid, null, locale ?? null], next);
    else if (id !== undefined) queryClient.setQueryData(['document', type.uid, id, locale ?? null], next);
    setCreated(next);
    fill(next);
    form.clearErrors();
  };
  // The stored document as loaded (again), unless the editor has changes of their own.
  useEffect(() => {
    if (loaded.data && !form.isDirty()) fill(loaded.data);
  }, [loaded.data]);

  const dirty = form.isDirty();
  const { leaving, prompt: leavePrompt } = useUnsavedChanges({
    dirty: () => form.isDirty(),
    message: 'Your changes to this entry are not saved.',
    search: true,
  });

  // One function while the permissions and the document stay: a new one re-renders every field.
  const fieldMode = useCallback(
    (path: string) => access.fieldMode(type.uid, path, !exists),
    [access, type.uid, exists],
  );

  // Each field is a form of its own (components/FieldForm.tsx): Enter in one presses Save, whose
  // click checks the fields' constraints as a submit button does its form's.
  const saveButton = useRef<HTMLButtonElement>(null);
  const fieldsRoot = useRef<HTMLDivElement>(null);
  const pressSave = useCallback(() => saveButton.current?.click(), []);

  const [busy, setBusy] = useState<Action | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  /** Saves the draft when needed; answers the document's path afterwards. */
  const save = async (): Promise<string> => {
    if (exists && !form.isDirty()) return path;
    const values = form.getValues();
    if (!exists) {
      const first = await api<DocumentAnswer>(`${path}${populate}`, {
        method: single || documentId ? 'PUT' : 'POST',
        body: { data: apiData(type.attributes, values, models) },
      });
      show(first, first.data!.documentId);
      return contentPath(type, single ? undefined : first.data!.documentId);
    }
    show(
      await api<DocumentAnswer>(`${path}${populate}`, {
        method: 'PUT',
        body: { data: apiData(type.attributes, values, models, baseline.current) },
      }),
    );
    return path;
  };

  const run = async (action: Action) => {
    setBusy(action);
    form.clearErrors();
    try {
      if (action === 'delete') {
        await api(path, { method: 'DELETE' });
        leaving.current = true;
        notifications.show({ color: 'green', message: 'Deleted' });
        await queryClient.invalidateQueries({ queryKey: ['list', type.uid] });
        queryClient.removeQueries({ queryKey });
        if (single) {
          fill(null);
          leaving.current = false;
          await loaded.refetch();
        } else navigate(`/content/${type.uid}${localeQuery}`);
        return;
      }
      const saved = await save();
      const id = single ? undefined : saved.split('/').pop();
      if (creating) {
        leaving.current = true;
        await navigate(`/content/${type.uid}/${id}${localeQuery}`, { replace: true, state: { editor: editorKey } });
        leaving.current = false;
      }
      if (action !== 'save')
        show(await api<DocumentAnswer>(`${saved}/actions/${action}${populate}`, { method: 'POST' }), id);
      notifications.show({
        color: 'green',
        message: { save: 'Saved', publish: 'Published', unpublish: 'Unpublished', 'discard-draft': 'Draft discarded' }[
          action
        ],
      });
      await queryClient.invalidateQueries({ queryKey: ['list', type.uid] });
    } catch (error) {
      if (error instanceof JsonFieldError) form.setFieldError(error.field, error.message);
      else if (error instanceof ApiError && error.errors.length) form.setErrors(errorsByField(error.errors));
      const message = error instanceof Error ? error.message : 'The request failed';
      notifications.show({
        color: 'red',
        title: {
          save: 'Not saved',
          publish: 'Not published',
          unpublish: 'Not unpublished',
          'discard-draft': 'Draft not discarded',
          delete: 'Not deleted',
        }[action],
        message,
      });
    } finally {
      setBusy(null);
    }
  };

  if (!creating && loaded.isPending && !missingLocale) return <Loader aria-label="Loading" />;
  if (loaded.error && !missingLocale) return <Alert color="red">{loaded.error.message}</Alert>;
  const readableLocales = access.locales(
    ['read'],
    type.uid,
    (locales.data ?? []).map((item) => item.code),
  );
  const otherLocales = (locales.data ?? []).filter(
    (candidate) => candidate.code !== locale && readableLocales.includes(candidate.code),
  );
  /** Fills the form with the document's values in another locale (saved only when the editor saves). */
  const fillFrom = async (code: string) => {
    try {
      const other = await api<DocumentAnswer>(
        `${path}${queryString({ populate: populateFor(type.attributes, models), locale: code })}`,
      );
      if (!other.data) throw new Error(`No ${code} version to fill from`);
      // Its components are the other version's: this one's are made anew.
      form.setValues(withoutIds(formValues(type.attributes, other.data, models)));
      notifications.show({ color: 'blue', message: `Filled from ${code}: save to keep` });
    } catch (error) {
      notifications.show({ color: 'red', message: error instanceof Error ? error.message : String(error) });
    }
  };

  // What the administrator's roles allow on this document, in this locale.
  const may = {
    save: access.canOn(exists ? 'update' : 'create', type.uid, locale),
    update: access.canOn('update', type.uid, locale),
    publish: access.canOn('publish', type.uid, locale),
    delete: access.canOn('delete', type.uid, locale),
  };
  const status = exists ? statusOf(type, current?.meta.publication) : null;
  const published = Boolean(current?.meta.publication);
  const title = creating
    ? 'Create an entry'
    : single
      ? type.displayName
      : String((type.mainField && current?.data?.[type.mainField]) || 'Untitled');

  return (
    <div data-edit-view="">
      <Stack>
        <Group justify="space-between" align="flex-end">
          <div>
            {!single && (
              <Anchor component={Link} to={`/content/${type.uid}${localeQuery}`} size="sm">
                ← Back to {type.displayName}
              </Anchor>
            )}
            <Group gap="sm">
              <Title order={1}>{title}</Title>
              {status && (
                <Badge color={STATUS_COLORS[status]} variant="light" size="lg">
                  {status}
                </Badge>
              )}
            </Group>
            <Text c="dimmed" size="sm">
              {type.displayName}
              {locale ? ` · ${locale}` : ''}
              {dirty ? ' · unsaved changes' : ''}
              {exists && type.uid.startsWith('api::') && (
                <>
                  {' · '}
                  <Anchor
                    component={Link}
                    to={`${single ? `/content/${type.uid}` : `/content/${type.uid}/${documentId}`}/history${localeQuery}`}
                  >
                    Content history
                  </Anchor>
                </>
              )}
            </Text>
          </div>
          {type.localized && (
            <Group align="flex-end">
              <LocaleSelect
                value={locale}
                onChange={setLocale}
                allowed={editorLocales(
                  access,
                  type.uid,
                  (locales.data ?? []).map((item) => item.code),
                )}
              />
              {!creating && otherLocales.length > 0 && (
                <NativeSelect
                  label="Fill from another locale"
                  value=""
                  onChange={(event) => event.currentTarget.value && void fillFrom(event.currentTarget.value)}
                  data={[
                    { value: '', label: 'Choose a locale' },
                    ...otherLocales.map((other) => ({ value: other.code, label: other.name })),
                  ]}
                  w={220}
                />
              )}
            </Group>
          )}
        </Group>
        {missingLocale && (
          <Alert color="blue" title={`No ${locale} version yet`}>
            Write it here, or fill it from another locale; saving creates it.
          </Alert>
        )}
        {!may.save && (
          <Alert color="gray" title="Read-only">
            Your roles do not allow {exists ? 'changing this entry' : 'creating entries'}
            {locale ? ` in ${locale}` : ''}.
          </Alert>
        )}
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, lg: previewUrl ? 5 : 9 }}>
            <Paper withBorder p="lg" ref={fieldsRoot}>
              <FieldModeContext.Provider value={fieldMode}>
                <ImplicitSubmitContext.Provider value={pressSave}>
                  <Stack>
                    {type.attributes.map((attribute) => (
                      <FieldInput key={attribute.name} attribute={attribute} form={form} models={models} />
                    ))}
                  </Stack>
                </ImplicitSubmitContext.Provider>
              </FieldModeContext.Provider>
            </Paper>
          </Grid.Col>
          {previewUrl && (
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <PreviewPanel url={previewUrl} />
            </Grid.Col>
          )}
          <Grid.Col span={{ base: 12, lg: 3 }}>
            <Paper withBorder p="lg" pos="sticky" top={72}>
              <Stack>
                {may.save && (
                  <Button
                    ref={saveButton}
                    onClick={() => {
                      if (!fieldsRoot.current || reportFieldsValidity(fieldsRoot.current)) void run('save');
                    }}
                    variant={type.draftAndPublish ? 'default' : 'filled'}
                    loading={busy === 'save'}
                    disabled={busy !== null}
                  >
                    Save
                  </Button>
                )}
                {type.draftAndPublish && may.publish && (
                  <>
                    <Button
                      onClick={() => void run('publish')}
                      loading={busy === 'publish'}
                      // Publishing saves first: changes need the right to save them.
                      disabled={busy !== null || (status === 'Published' && !dirty) || (dirty && !may.save)}
                    >
                      Publish
                    </Button>
                    <Button
                      variant="light"
                      onClick={() => void run('unpublish')}
                      loading={busy === 'unpublish'}
                      disabled={busy !== null || !published}
                    >
                      Unpublish
                    </Button>
                  </>
                )}
                {type.draftAndPublish && exists && access.can(RELEASES.createAction) && (
                  <AddToRelease
                    contentType={type.uid}
                    documentId={single ? undefined : (documentId ?? String(current?.data?.documentId ?? ''))}
                    locale={locale}
                    disabled={busy !== null}
                  />
                )}
                {type.draftAndPublish && may.update && (
                  <Button
                    variant="light"
                    color="orange"
                    onClick={() => void run('discard-draft')}
                    loading={busy === 'discard-draft'}
                    disabled={busy !== null || status !== 'Modified'}
                  >
                    Discard draft
                  </Button>
                )}
                {may.delete && (
                  <Button
                    variant="light"
                    color="red"
                    onClick={() => setConfirmDelete(true)}
                    disabled={busy !== null || !exists}
                  >
                    Delete
                  </Button>
                )}
                {!single && exists && access.canOn('create', type.uid, locale) && (
                  <DuplicateButton
                    uid={type.uid}
                    documentId={String(current!.data!.documentId)}
                    locale={locale}
                    disabled={busy !== null || dirty}
                  />
                )}
                {current?.data && (
                  <Text size="xs" c="dimmed">
                    Last update {new Date(String(current.data.updatedAt)).toLocaleString()}
                  </Text>
                )}
              </Stack>
            </Paper>
          </Grid.Col>
        </Grid>
      </Stack>
      <ConfirmDialog
        subject={confirmDelete || null}
        title="Delete this entry?"
        onClose={() => setConfirmDelete(false)}
        onConfirm={() => void run('delete')}
      >
        The entry is deleted with its draft and published versions{type.localized ? ' in this locale' : ''}.
      </ConfirmDialog>
      {leavePrompt}
    </div>
  );
}
