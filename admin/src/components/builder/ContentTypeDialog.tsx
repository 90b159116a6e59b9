import { Alert, Button, Checkbox, Group, Modal, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import type { ContentTypeSettings, Draft, DraftContentType } from '../../builder/draft.ts';
import { validateContentType } from '../../builder/model-form.ts';
import { namesOf } from '../../builder/names.ts';

export const settingsOf = (type: DraftContentType): ContentTypeSettings => ({
  displayName: type.info.displayName,
  singularName: type.info.singularName,
  pluralName: type.info.pluralName,
  kind: type.kind,
  description: type.info.description ?? '',
  draftAndPublish: type.options.draftAndPublish === true,
  localized: (type.pluginOptions?.i18n as { localized?: unknown } | undefined)?.localized === true,
});

const blank = (kind: ContentTypeSettings['kind']): ContentTypeSettings => ({
  displayName: '',
  singularName: '',
  pluralName: '',
  kind,
  description: '',
  // Strapi's screen starts a new type with draft and publish.
  draftAndPublish: true,
  localized: false,
});

/**
 * A content-type's settings, new (its API names follow the display name until edited) or saved
 * (the names are fixed: the API does not rename a type).
 */
export function ContentTypeDialog({
  opened,
  kind = 'collectionType',
  editing,
  draft,
  reservedModels,
  onClose,
  onSubmit,
}: {
  opened: boolean;
  kind?: ContentTypeSettings['kind'];
  editing?: DraftContentType;
  draft: Draft;
  reservedModels: readonly string[];
  onClose: () => void;
  onSubmit: (settings: ContentTypeSettings) => void;
}) {
  const form = useForm<ContentTypeSettings>({
    initialValues: blank(kind),
    validate: (values) => validateContentType(values, draft, reservedModels, editing?.uid),
  });
  useEffect(() => {
    if (!opened) return;
    form.setValues(editing ? settingsOf(editing) : blank(kind));
    form.clearErrors();
    // Once per opening: the form is the editor's afterwards.
  }, [opened]);

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        editing
          ? `${editing.info.displayName}: settings`
          : `Create a ${kind === 'singleType' ? 'single' : 'collection'} type`
      }
      size="lg"
    >
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          onSubmit({ ...values, displayName: values.displayName.trim(), description: values.description.trim() }),
        )}
      >
        <Stack>
          <TextInput
            label="Display name"
            required
            data-autofocus
            {...form.getInputProps('displayName')}
            onChange={(event) => {
              const displayName = event.currentTarget.value;
              form.setFieldValue('displayName', displayName);
              // Strapi's screen derives the API names from the display name, on creation only.
              if (!editing) form.setValues(namesOf(displayName));
            }}
          />
          <Group grow align="flex-start">
            <TextInput
              label="API ID (singular)"
              description="Its folder, src/api/<name>"
              required
              disabled={!!editing}
              {...form.getInputProps('singularName')}
            />
            <TextInput
              label="API ID (plural)"
              description="Its API: /api/<plural name>"
              required
              disabled={!!editing}
              {...form.getInputProps('pluralName')}
            />
          </Group>
          <Radio.Group label="Kind" {...form.getInputProps('kind')}>
            <Group mt="xs">
              <Radio value="collectionType" label="Collection type" />
              <Radio value="singleType" label="Single type" />
            </Group>
          </Radio.Group>
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Checkbox
            label="Draft and publish"
            description="Entries are drafts until published"
            {...form.getInputProps('draftAndPublish', { type: 'checkbox' })}
          />
          <Checkbox
            label="Localized"
            description="Entries are written in each locale (internationalization)"
            {...form.getInputProps('localized', { type: 'checkbox' })}
          />
          {editing && settingsOf(editing).localized && !form.values.localized && (
            // As Strapi's i18n asks before it turns localization off (docs/configuration.md "Turning i18n on or off").
            <Alert color="red" title="Entries in other locales will be deleted">
              Once this change is applied, only the versions in the default locale are kept; a document without one is
              deleted.
            </Alert>
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
