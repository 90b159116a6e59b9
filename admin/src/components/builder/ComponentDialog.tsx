import { Autocomplete, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm, type GetInputPropsReturnType } from '@mantine/form';
import { useEffect } from 'react';
import type { ComponentSettings, Draft, DraftComponent } from '../../builder/draft.ts';
import { COMPONENT_ICONS } from '../../builder/icons.ts';
import { validateComponent } from '../../builder/model-form.ts';
import { componentUid } from '../../builder/names.ts';

const blank: ComponentSettings = { displayName: '', category: '', icon: '', description: '' };

export const categoriesOf = (draft: Draft): string[] =>
  [...new Set(Object.values(draft.components).map((component) => component.category))].sort();

/** The fields of a component's settings: display name, category (an existing one or a new name), icon. */
export function ComponentSettingsFields({
  draft,
  inputProps,
  categoryFixed = false,
  prefix = '',
}: {
  draft: Draft;
  inputProps: (path: string) => GetInputPropsReturnType;
  categoryFixed?: boolean;
  /** Labels' prefix when the fields sit in another form ("Component display name"). */
  prefix?: string;
}) {
  const label = (text: string) => (prefix ? `${prefix} ${text.toLowerCase()}` : text);
  return (
    <>
      <TextInput label={label('Display name')} required {...inputProps('displayName')} />
      <Autocomplete
        label={label('Category')}
        description="Pick one or type a new name"
        required
        disabled={categoryFixed}
        data={categoriesOf(draft)}
        {...inputProps('category')}
      />
      <Autocomplete label={label('Icon')} data={COMPONENT_ICONS} limit={12} {...inputProps('icon')} />
    </>
  );
}

/** A component's settings, new or saved (a saved one keeps its category: its uid is made of it). */
export function ComponentDialog({
  opened,
  editing,
  draft,
  reservedModels,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  editing?: DraftComponent;
  draft: Draft;
  reservedModels: readonly string[];
  onClose: () => void;
  onSubmit: (settings: ComponentSettings) => void;
}) {
  const form = useForm<ComponentSettings>({
    initialValues: blank,
    validate: (values) => validateComponent(values, draft, reservedModels, editing?.uid),
  });
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      editing
        ? {
            displayName: editing.info.displayName,
            category: editing.category,
            icon: editing.info.icon ?? '',
            description: editing.info.description ?? '',
          }
        : blank,
    );
    form.clearErrors();
    // Once per opening: the form is the editor's afterwards.
  }, [opened]);
  const { displayName, category } = form.values;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={editing ? `${editing.info.displayName}: settings` : 'Create a component'}
      size="lg"
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          onSubmit({
            displayName: values.displayName.trim(),
            category: values.category.trim(),
            icon: values.icon.trim(),
            description: values.description.trim(),
          }),
        )}
      >
        <Stack>
          <ComponentSettingsFields
            draft={draft}
            inputProps={(path) => form.getInputProps(path)}
            categoryFixed={!!editing && editing.status !== 'NEW'}
          />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          {displayName.trim() && category.trim() && (
            <TextInput
              label="UID"
              readOnly
              variant="filled"
              value={editing && editing.status !== 'NEW' ? editing.uid : componentUid(category, displayName)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">{editing ? 'Done' : 'Continue'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
