import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useBuilder } from '../builder/context.ts';
import {
  addAttribute,
  createComponent,
  deleteComponent,
  deleteContentType,
  editAttribute,
  liveAttributes,
  modelOf,
  removeAttribute,
  updateComponent,
  updateContentType,
  type DraftAttribute,
  type DraftModel,
} from '../builder/draft.ts';
import { describeAttribute } from '../builder/model-form.ts';
import { AttributeDialog, type AttributeSubmit } from '../components/builder/AttributeDialog.tsx';
import { AttributeTable } from '../components/builder/AttributeTable.tsx';
import { StatusBadge } from '../components/builder/BuilderNav.tsx';
import { ComponentDialog } from '../components/builder/ComponentDialog.tsx';
import { ContentTypeDialog } from '../components/builder/ContentTypeDialog.tsx';
import { DeleteAttributeDialog, DeleteModelDialog } from '../components/builder/DeleteDialogs.tsx';

/** What a model is, under its name: kind, uid, API path, draft and publish, localization. */
function ModelFacts({ model }: { model: DraftModel }) {
  if (model.modelType === 'component')
    return (
      <Group gap="xs">
        <Badge variant="light">Component</Badge>
        <Text size="sm" c="dimmed">
          {model.uid}
        </Text>
      </Group>
    );
  const path = model.kind === 'singleType' ? model.info.singularName : model.info.pluralName;
  return (
    <Group gap="xs">
      <Badge variant="light">{model.kind === 'singleType' ? 'Single type' : 'Collection type'}</Badge>
      {model.options.draftAndPublish === true && <Badge variant="outline">Draft and publish</Badge>}
      {(model.pluginOptions?.i18n as { localized?: unknown } | undefined)?.localized === true && (
        <Badge variant="outline">Localized</Badge>
      )}
      <Text size="sm" c="dimmed">
        {model.uid}
        {model.plugin ? '' : ` · /api/${path}`}
      </Text>
    </Group>
  );
}

type Dialog =
  | { kind: 'settings' }
  | { kind: 'add' }
  | { kind: 'edit'; attribute: DraftAttribute }
  | { kind: 'delete-model' }
  | null;

/** A content-type or a component in the builder: its settings and its fields, each changed into the draft. */
export function BuilderModelPage({ modelType }: { modelType: 'contentType' | 'component' }) {
  const { uid = '' } = useParams();
  const { draft, setDraft, writable, reserved } = useBuilder();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [deleting, setDeleting] = useState<DraftAttribute | null>(null);
  const ref = { modelType, uid };
  const model = modelOf(draft, ref);
  if (!model || model.status === 'REMOVED')
    return <Alert color="yellow">{`No ${modelType === 'component' ? 'component' : 'content-type'} ${uid}`}</Alert>;

  const displayNameOf = (target: string) =>
    draft.contentTypes[target]?.info.displayName ?? draft.components[target]?.info.displayName ?? target;
  const close = () => setDialog(null);
  const saveAttribute = ({ attribute, newComponent }: AttributeSubmit) => {
    let next = draft;
    if (newComponent) next = createComponent(next, newComponent).draft;
    next =
      dialog?.kind === 'edit'
        ? editAttribute(next, ref, dialog.attribute.name, attribute)
        : addAttribute(next, ref, attribute);
    setDraft(next);
  };
  const editable = writable;

  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={2}>{model.info.displayName}</Title>
            <StatusBadge status={model.status} />
          </Group>
          <ModelFacts model={model} />
          {model.info.description ? <Text size="sm">{model.info.description}</Text> : null}
        </Stack>
        {editable && (
          <Group gap="xs">
            <Button variant="default" onClick={() => setDialog({ kind: 'settings' })}>
              Edit settings
            </Button>
            {!(model.modelType === 'contentType' && model.plugin) && (
              <Button variant="default" color="red" onClick={() => setDialog({ kind: 'delete-model' })}>
                Delete {model.modelType === 'component' ? 'component' : 'content-type'}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <AttributeTable
        attributes={liveAttributes(model)}
        label={`Fields of ${model.info.displayName}`}
        describe={(attribute) => describeAttribute(attribute, displayNameOf)}
        editable={editable}
        onEdit={(attribute) => setDialog({ kind: 'edit', attribute })}
        onDelete={setDeleting}
      />
      {editable && (
        <Group>
          <Button onClick={() => setDialog({ kind: 'add' })}>Add a field</Button>
        </Group>
      )}

      <AttributeDialog
        opened={dialog?.kind === 'add' || dialog?.kind === 'edit'}
        owner={model}
        draft={draft}
        reservedAttributeNames={reserved.attributes}
        editing={dialog?.kind === 'edit' ? dialog.attribute : undefined}
        onClose={close}
        onSubmit={saveAttribute}
      />
      <DeleteAttributeDialog
        owner={model}
        attribute={deleting}
        draft={draft}
        onClose={() => setDeleting(null)}
        onConfirm={(attribute) => setDraft(removeAttribute(draft, ref, attribute.name))}
      />
      <DeleteModelDialog
        model={model}
        draft={draft}
        opened={dialog?.kind === 'delete-model'}
        onClose={close}
        onConfirm={() => {
          setDraft(modelType === 'component' ? deleteComponent(draft, uid) : deleteContentType(draft, uid));
          navigate('/content-type-builder');
        }}
      />
      {model.modelType === 'contentType' ? (
        <ContentTypeDialog
          opened={dialog?.kind === 'settings'}
          editing={model}
          draft={draft}
          reservedModels={reserved.models}
          onClose={close}
          onSubmit={(settings) => {
            setDraft(updateContentType(draft, uid, settings));
            close();
          }}
        />
      ) : (
        <ComponentDialog
          opened={dialog?.kind === 'settings'}
          editing={model}
          draft={draft}
          reservedModels={reserved.models}
          onClose={close}
          onSubmit={(settings) => {
            const updated = updateComponent(draft, uid, settings);
            setDraft(updated.draft);
            close();
            if (updated.uid !== uid) navigate(`/content-type-builder/components/${updated.uid}`, { replace: true });
          }}
        />
      )}
    </Stack>
  );
}
