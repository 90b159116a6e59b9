import { Alert, Box, Button, Grid, Group, Loader, LoadingOverlay, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { toBatch } from '../builder/batch.ts';
import { useBuilder, type BuilderState } from '../builder/context.ts';
import { createComponent, createContentType, fromSchema, isModified, type Draft } from '../builder/draft.ts';
import {
  BUILDER_KEY,
  refusalMessage,
  sendBatch,
  useBuilderSchema,
  useBuilderWritable,
  useReservedNames,
} from '../builder/queries.ts';
import { BuilderNav } from '../components/builder/BuilderNav.tsx';
import { ComponentDialog } from '../components/builder/ComponentDialog.tsx';
import { ContentTypeDialog } from '../components/builder/ContentTypeDialog.tsx';
import { useUnsavedChanges } from '../components/UnsavedChangesGuard.tsx';

type Creating = 'collectionType' | 'singleType' | 'component' | null;

/**
 * The Content-Type Builder's frame: the list of types and components, the draft of unsaved changes
 * its screens edit, and Save, which sends the draft as one batch and waits until the API serves it.
 */
export function BuilderPage() {
  const schema = useBuilderSchema();
  const reserved = useReservedNames();
  const writable = useBuilderWritable();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [creating, setCreating] = useState<Creating>(null);
  const [applying, setApplying] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();

  useEffect(() => {
    if (schema.data && !draft) setDraft(fromSchema(schema.data));
  }, [schema.data, draft]);

  const modified = draft !== null && isModified(draft);
  const { prompt } = useUnsavedChanges({
    dirty: modified,
    message: 'The Content-Type Builder has changes that are not saved.',
    within: '/content-type-builder',
  });

  const save = useMutation({
    mutationFn: async (batch: ReturnType<typeof toBatch>) => {
      setProblem(undefined);
      await sendBatch(batch, () => setApplying(true));
      // The new version serves: the builder's schema, then every screen that reads the schema.
      const fresh = await schema.refetch();
      if (fresh.data) setDraft(fromSchema(fresh.data));
      await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== BUILDER_KEY });
    },
    onSuccess: () => notifications.show({ color: 'green', message: 'Saved: the API serves the new schema' }),
    onError: (error) => setProblem(refusalMessage(error.message)),
    onSettled: () => setApplying(false),
  });

  /** Back to the schema as the server has it now (another change may have landed meanwhile). */
  const discard = async () => {
    setProblem(undefined);
    const fresh = await schema.refetch();
    if (fresh.data) setDraft(fromSchema(fresh.data));
    await queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== BUILDER_KEY });
  };

  if (schema.isPending || reserved.isPending || writable.isPending || (schema.data && !draft))
    return <Loader aria-label="Loading" />;
  const error = schema.error ?? reserved.error ?? writable.error;
  if (error || !draft || !reserved.data) return <Alert color="red">{error?.message ?? 'No schema'}</Alert>;

  const state: BuilderState = {
    draft,
    setDraft: (next) => {
      setProblem(undefined);
      setDraft(next);
    },
    writable: writable.data === true,
    reserved: reserved.data,
  };
  const edit = state.writable;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Content-Type Builder</Title>
        {edit && (
          <Group>
            <Button variant="default" disabled={!modified || save.isPending} onClick={discard}>
              Discard changes
            </Button>
            <Button disabled={!modified} loading={save.isPending} onClick={() => save.mutate(toBatch(draft))}>
              Save
            </Button>
          </Group>
        )}
      </Group>
      {!edit && (
        <Alert color="yellow" title="Read-only">
          The builder changes the project's files: run <code>vellum develop</code> to change the schema.
        </Alert>
      )}
      {problem && (
        <Alert color="red" title="Not saved" role="alert">
          {problem}
        </Alert>
      )}
      <div role="status" aria-label="Schema status">
        {applying && <Text c="dimmed">Applying the changes: the server is starting the new schema…</Text>}
        {!applying && modified && <Text c="dimmed">Unsaved changes</Text>}
      </div>
      <Box pos="relative">
        <LoadingOverlay visible={applying} overlayProps={{ blur: 1 }} />
        <Grid>
          <Grid.Col span={{ base: 12, md: 3 }}>
            <BuilderNav draft={draft} writable={edit} onCreate={setCreating} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Outlet context={state} />
          </Grid.Col>
        </Grid>
      </Box>
      <ContentTypeDialog
        opened={creating === 'collectionType' || creating === 'singleType'}
        kind={creating === 'singleType' ? 'singleType' : 'collectionType'}
        draft={draft}
        reservedModels={reserved.data.models}
        onClose={() => setCreating(null)}
        onSubmit={(settings) => {
          const created = createContentType(draft, settings);
          state.setDraft(created.draft);
          setCreating(null);
          navigate(`/content-type-builder/content-types/${created.uid}`);
        }}
      />
      <ComponentDialog
        opened={creating === 'component'}
        draft={draft}
        reservedModels={reserved.data.models}
        onClose={() => setCreating(null)}
        onSubmit={(settings) => {
          const created = createComponent(draft, settings);
          state.setDraft(created.draft);
          setCreating(null);
          navigate(`/content-type-builder/components/${created.uid}`);
        }}
      />
      {prompt}
    </Stack>
  );
}

/** The builder's first screen: what to do. */
export function BuilderHome() {
  const { writable } = useBuilder();
  return (
    <Stack>
      <Text>
        Pick a content-type or a component to see its fields
        {writable ? ', or create one: changes stay a draft until you save them, all in one go.' : '.'}
      </Text>
    </Stack>
  );
}
