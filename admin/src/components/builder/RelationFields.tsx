import { NativeSelect, Radio, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { relationKindsFor, type AttributeFormValues } from '../../builder/attribute-form.ts';
import type { DraftContentType, ModelRef } from '../../builder/draft.ts';
import { relationSentence } from '../../builder/model-form.ts';
import { isBidirectional, relationName, targetAttributeName, type RelationKind } from '../../builder/names.ts';

type Form = UseFormReturnType<AttributeFormValues>;

/** The content-types a relation may point to (Strapi's `isAllowedContentTypesForRelations`). */
export const relationTargets = (contentTypes: DraftContentType[]): DraftContentType[] =>
  contentTypes
    .filter(
      (type) =>
        type.visible &&
        type.status !== 'REMOVED' &&
        (type.restrictRelationsTo === null || type.restrictRelationsTo.length > 0),
    )
    .sort((a, b) => a.info.displayName.localeCompare(b.info.displayName));

/**
 * A relation: the content-type it points to, its kind in words, and the other side's name for a
 * two-way kind. The names follow the target and the kind as Strapi's screen suggests them, until edited.
 */
export function RelationFields({
  form,
  owner,
  ownerName,
  targets,
}: {
  form: Form;
  owner: ModelRef & { kind?: 'collectionType' | 'singleType' };
  ownerName: string;
  targets: DraftContentType[];
}) {
  const { values } = form;
  const nameOf = (uid: string) => targets.find((type) => type.uid === uid)?.info.displayName ?? uid;
  const target = targets.find((type) => type.uid === values.target);
  const kinds = relationKindsFor({ modelType: owner.modelType, ownerKind: owner.kind }, target?.restrictRelationsTo);

  /** A new target or kind: the names still as suggested follow it. */
  const change = (next: { target?: string; relation?: RelationKind }) => {
    const targetUid = next.target ?? values.target;
    const allowed = relationKindsFor(
      { modelType: owner.modelType, ownerKind: owner.kind },
      targets.find((type) => type.uid === targetUid)?.restrictRelationsTo,
    );
    const relation = allowed.includes(next.relation ?? values.relation)
      ? (next.relation ?? values.relation)
      : allowed[0]!;
    const update: Partial<AttributeFormValues> = { target: targetUid, relation };
    if (values.name === '' || values.name === relationName(nameOf(values.target), values.relation))
      update.name = relationName(nameOf(targetUid), relation);
    if (values.targetAttribute === '' || values.targetAttribute === targetAttributeName(ownerName, values.relation))
      update.targetAttribute = targetAttributeName(ownerName, relation);
    form.setValues(update);
  };

  return (
    <Stack>
      <NativeSelect
        label="Related content-type"
        data={[
          { value: '', label: 'Pick one', disabled: true },
          ...targets.map((type) => ({ value: type.uid, label: type.info.displayName })),
        ]}
        value={values.target}
        error={form.errors.target}
        onChange={(event) => change({ target: event.currentTarget.value })}
      />
      <Radio.Group
        label="Relation"
        value={values.relation}
        onChange={(value) => change({ relation: value as RelationKind })}
      >
        <Stack gap={6} mt="xs">
          {kinds.map((kind) => (
            <Radio key={kind} value={kind} label={relationSentence(kind, ownerName, target?.info.displayName ?? '…')} />
          ))}
        </Stack>
      </Radio.Group>
      {isBidirectional(values.relation) && (
        <TextInput
          label={`Name on ${target?.info.displayName ?? 'the other side'}`}
          description="The other side of the relation: an attribute of the related type"
          required
          {...form.getInputProps('targetAttribute')}
        />
      )}
    </Stack>
  );
}
