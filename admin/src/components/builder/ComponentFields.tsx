import { Checkbox, Group, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { AttributeFormValues } from '../../builder/attribute-form.ts';
import type { Draft, DraftComponent } from '../../builder/draft.ts';
import { ComponentSettingsFields } from './ComponentDialog.tsx';

type Form = UseFormReturnType<AttributeFormValues>;

const byCategory = (components: DraftComponent[]) => {
  const groups = new Map<string, DraftComponent[]>();
  for (const component of [...components].sort((a, b) => a.info.displayName.localeCompare(b.info.displayName)))
    groups.set(component.category, [...(groups.get(component.category) ?? []), component]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
};

/** A component field: an existing component or a new one made with the field, single or repeatable. */
export function ComponentFields({
  form,
  draft,
  allowed,
  editing,
}: {
  form: Form;
  draft: Draft;
  allowed: DraftComponent[];
  editing: boolean;
}) {
  const { values } = form;
  return (
    <Stack>
      {!editing && (
        <Radio.Group label="Which component" {...form.getInputProps('componentSource')}>
          <Group mt="xs">
            <Radio value="existing" label="Use an existing component" />
            <Radio value="new" label="Create a new component" />
          </Group>
        </Radio.Group>
      )}
      {values.componentSource === 'existing' ? (
        <NativeSelect
          label="Component"
          data={[
            { value: '', label: 'Pick a component', disabled: true },
            ...byCategory(allowed).map(([category, components]) => ({
              group: category,
              items: components.map((component) => ({ value: component.uid, label: component.info.displayName })),
            })),
          ]}
          {...form.getInputProps('component')}
        />
      ) : (
        <ComponentSettingsFields
          draft={draft}
          prefix="Component"
          inputProps={(path) => form.getInputProps(`newComponent.${path}`)}
        />
      )}
      <Radio.Group
        label="Type"
        value={values.repeatable ? 'repeatable' : 'single'}
        onChange={(value) => form.setFieldValue('repeatable', value === 'repeatable')}
      >
        <Group mt="xs">
          <Radio value="repeatable" label="Repeatable component" description="A list of them: ingredients, links" />
          <Radio value="single" label="Single component" description="One group of fields: an address" />
        </Group>
      </Radio.Group>
    </Stack>
  );
}

/** A dynamic zone's components, ticked by category. */
export function ZoneFields({ form, allowed }: { form: Form; allowed: DraftComponent[] }) {
  return (
    <Checkbox.Group
      label="Components"
      description="The kinds of entries the zone takes"
      required
      {...form.getInputProps('components')}
    >
      <Stack gap="xs" mt="xs">
        {byCategory(allowed).map(([category, components]) => (
          <Stack key={category} gap={4}>
            <Text size="sm" fw={600}>
              {category}
            </Text>
            {components.map((component) => (
              <Checkbox
                key={component.uid}
                value={component.uid}
                label={`${component.info.displayName} (${component.uid})`}
              />
            ))}
          </Stack>
        ))}
      </Stack>
    </Checkbox.Group>
  );
}
