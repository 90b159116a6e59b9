import { Button, Group, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import type { BuilderAttribute } from '../../../../src/features/content-type-builder/contract.ts';
import {
  attributeOf,
  kindChoice,
  kindOfType,
  KINDS,
  newAttributeValues,
  validateAttribute,
  valuesOf,
  type AttributeContext,
  type AttributeFormValues,
  type AttributeKind,
} from '../../builder/attribute-form.ts';
import {
  componentsAllowedIn,
  liveAttributes,
  type ComponentSettings,
  type Draft,
  type DraftAttribute,
  type DraftModel,
} from '../../builder/draft.ts';
import { relationName, targetAttributeName } from '../../builder/names.ts';
import { AttributeOptionsFields } from './AttributeOptionsFields.tsx';
import { AttributeTypeFields } from './AttributeTypeFields.tsx';
import { ComponentFields, ZoneFields } from './ComponentFields.tsx';
import { RelationFields, relationTargets } from './RelationFields.tsx';

export interface AttributeSubmit {
  attribute: BuilderAttribute;
  /** A component made with the field, to create before it. */
  newComponent?: ComponentSettings;
}

const refOf = (model: DraftModel) => ({
  modelType: model.modelType,
  uid: model.uid,
  kind: model.modelType === 'contentType' ? model.kind : undefined,
});

/** What the form of a field of `owner` checks against. */
function contextOf(draft: Draft, owner: DraftModel, reserved: readonly string[], editing?: DraftAttribute) {
  const context: AttributeContext = {
    modelType: owner.modelType,
    ownerUid: owner.uid,
    ownerKind: owner.modelType === 'contentType' ? owner.kind : undefined,
    originalName: editing?.name,
    localized:
      owner.modelType === 'contentType' &&
      (owner.pluginOptions?.i18n as { localized?: unknown } | undefined)?.localized === true,
    otherAttributes: liveAttributes(owner).filter((attribute) => attribute !== editing),
    reservedAttributeNames: reserved,
    attributesOf: (uid) => {
      const type = draft.contentTypes[uid];
      return type && liveAttributes(type);
    },
    componentUids: Object.keys(draft.components),
  };
  return context;
}

/** Step one of a new field: its kind, as Strapi's picker offers them (a component has no uid, no zone). */
function KindPicker({ owner, onPick }: { owner: DraftModel; onPick: (kind: AttributeKind) => void }) {
  const kinds = KINDS.filter((choice) => owner.modelType === 'contentType' || !choice.contentTypesOnly);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      {kinds.map((choice) => (
        <UnstyledButton
          key={choice.kind}
          onClick={() => onPick(choice.kind)}
          aria-label={choice.label}
          p="sm"
          style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 'var(--mantine-radius-md)' }}
        >
          <Text fw={600}>{choice.label}</Text>
          <Text size="sm" c="dimmed">
            {choice.description}
          </Text>
        </UnstyledButton>
      ))}
    </SimpleGrid>
  );
}

/**
 * A field added to a type or a component (its kind, then its form) or edited. "Add another field"
 * keeps the dialog open for the next one.
 */
export function AttributeDialog({
  opened,
  owner,
  draft,
  reservedAttributeNames,
  editing,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  owner: DraftModel;
  draft: Draft;
  reservedAttributeNames: readonly string[];
  editing?: DraftAttribute;
  onClose: () => void;
  onSubmit: (result: AttributeSubmit) => void;
}) {
  const context = contextOf(draft, owner, reservedAttributeNames, editing);
  const [kind, setKind] = useState<AttributeKind | null>(null);
  const form = useForm<AttributeFormValues>({
    initialValues: newAttributeValues('text', context),
    validate: (values) => validateAttribute(values, context),
  });
  const targets = relationTargets(Object.values(draft.contentTypes));

  const pick = (picked: AttributeKind) => {
    const values = newAttributeValues(picked, context);
    if (picked === 'relation' && targets[0]) {
      // Strapi's screen starts a relation on the first type, named after it.
      values.target = targets[0].uid;
      values.name = relationName(targets[0].info.displayName, values.relation);
      values.targetAttribute = targetAttributeName(owner.info.displayName, values.relation);
    }
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    setKind(picked);
  };
  useEffect(() => {
    if (!opened) return;
    form.clearErrors();
    if (editing) {
      form.setValues(valuesOf(editing, context));
      setKind(kindOfType(editing.type));
    } else setKind(null);
    // Once per opening: the form is the editor's afterwards.
  }, [opened]);

  const submit = (again: boolean) =>
    form.onSubmit((values) => {
      const newComponent =
        values.type === 'component' && values.componentSource === 'new'
          ? { ...values.newComponent, displayName: values.newComponent.displayName.trim(), description: '' }
          : undefined;
      onSubmit({ attribute: attributeOf(values, context, editing), newComponent });
      if (again) setKind(null);
      else onClose();
    });

  const ownerName = owner.info.displayName;
  const title = editing
    ? `Edit ${editing.name}`
    : kind
      ? `Add a ${kindChoice(kind).label} field to ${ownerName}`
      : `Add a field to ${ownerName}`;
  const allowed = componentsAllowedIn(draft, owner);
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      {kind === null ? (
        <KindPicker owner={owner} onPick={pick} />
      ) : (
        <form noValidate onSubmit={submit(false)}>
          <Stack>
            <AttributeTypeFields form={form} siblings={liveAttributes(owner).filter((a) => a !== editing)} />
            {form.values.type === 'relation' && (
              <RelationFields form={form} owner={refOf(owner)} ownerName={ownerName} targets={targets} />
            )}
            {form.values.type === 'component' && (
              <ComponentFields form={form} draft={draft} allowed={allowed} editing={!!editing} />
            )}
            {form.values.type === 'dynamiczone' && <ZoneFields form={form} allowed={allowed} />}
            <AttributeOptionsFields form={form} localized={context.localized && owner.modelType === 'contentType'} />
            <Group justify="flex-end">
              {!editing && (
                <Button variant="subtle" mr="auto" onClick={() => setKind(null)}>
                  Back
                </Button>
              )}
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              {!editing && (
                <Button variant="light" onClick={() => submit(true)()}>
                  Add another field
                </Button>
              )}
              <Button type="submit">Finish</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
