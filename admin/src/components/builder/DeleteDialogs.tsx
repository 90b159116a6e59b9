import { List } from '@mantine/core';
import {
  componentUsages,
  relationsTo,
  type Draft,
  type DraftAttribute,
  type DraftModel,
  type Usage,
} from '../../builder/draft.ts';
import { isBidirectional, relationKindOf } from '../../builder/names.ts';
import { ConfirmDialog } from '../ConfirmDialog.tsx';

const usageLine = (usage: Usage) =>
  `${usage.model.info.displayName}: ${usage.attribute}${usage.zone ? ' (dynamic zone)' : ''}`;

const NOT_YET = (
  <>
    Nothing changes until you save; the database keeps the data until <code>vellum db prune</code>.
  </>
);

/** Asks before a field goes: it and the data in it, and a two-way relation's other side. */
export function DeleteAttributeDialog({
  owner,
  attribute,
  draft,
  onClose,
  onConfirm,
}: {
  owner: DraftModel;
  attribute: DraftAttribute | null;
  draft: Draft;
  onClose: () => void;
  onConfirm: (attribute: DraftAttribute) => void;
}) {
  const otherSide =
    attribute?.type === 'relation' &&
    attribute.targetAttribute &&
    isBidirectional(relationKindOf(attribute.relation, attribute.targetAttribute))
      ? `${attribute.targetAttribute} of ${draft.contentTypes[String(attribute.target)]?.info.displayName ?? attribute.target}`
      : undefined;
  return (
    <ConfirmDialog
      subject={attribute}
      title={`Delete ${attribute?.name ?? ''}?`}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      Saving removes the field {attribute?.name} from {owner.info.displayName} and the data in it from the API
      {otherSide ? `, with the other side of the relation, ${otherSide}` : ''}. {NOT_YET}
    </ConfirmDialog>
  );
}

/**
 * Asks before a type goes (its API, its files, the relations others have to it) or a component
 * (the types and zones that use it lose it).
 */
export function DeleteModelDialog({
  model,
  draft,
  opened,
  onClose,
  onConfirm,
}: {
  model: DraftModel;
  draft: Draft;
  opened: boolean;
  onClose: () => void;
  onConfirm: () => void;
}) {
  const isType = model.modelType === 'contentType';
  const usages = isType ? relationsTo(draft, model.uid) : componentUsages(draft, model.uid);
  const api =
    isType && !model.plugin
      ? ` its API (/api/${model.kind === 'singleType' ? model.info.singularName : model.info.pluralName}) and its files under src/api/${model.info.singularName}`
      : '';
  return (
    <ConfirmDialog
      subject={opened ? model : null}
      title={`Delete ${model.info.displayName}?`}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      {isType
        ? `Saving removes the content-type ${model.info.displayName},${api}${usages.length > 0 ? ', and the relations other types have to it:' : '.'}`
        : `Saving removes the component ${model.info.displayName} (${model.uid})${usages.length > 0 ? ', and takes it out of the types and zones that use it:' : '.'}`}
      {usages.length > 0 && (
        <List size="sm" my="xs">
          {usages.map((usage) => (
            <List.Item key={`${usage.model.uid} ${usage.attribute}`}>{usageLine(usage)}</List.Item>
          ))}
        </List>
      )}{' '}
      {NOT_YET}
    </ConfirmDialog>
  );
}
