import { ActionIcon, Button, Fieldset, Group, Menu, Stack, Text } from '@mantine/core';
import { newEntry, type FormValues } from '../fields.ts';
import { useContext } from 'react';
import { FieldInput, FieldModeContext, valueAt, type FieldProps } from './FieldInput.tsx';

/** Move up, move down and remove buttons of a list entry, named after it. */
function EntryActions({
  label,
  index,
  count,
  onMove,
  onRemove,
}: {
  label: string;
  index: number;
  count: number;
  onMove: (to: number) => void;
  /** Without it, no remove button. */
  onRemove?: () => void;
}) {
  return (
    <Group gap={4}>
      <ActionIcon
        variant="subtle"
        aria-label={`Move ${label} up`}
        disabled={index === 0}
        onClick={() => onMove(index - 1)}
      >
        ↑
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        aria-label={`Move ${label} down`}
        disabled={index === count - 1}
        onClick={() => onMove(index + 1)}
      >
        ↓
      </ActionIcon>
      {onRemove && (
        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${label}`} onClick={onRemove}>
          ✕
        </ActionIcon>
      )}
    </Group>
  );
}

/** The inputs of one component's attributes, under `path`. */
function ComponentInputs({ uid, path, ...props }: Omit<FieldProps, 'attribute'> & { uid: string; path: string }) {
  const component = props.models.component(uid);
  if (!component) return <Text c="red">Unknown component {uid}</Text>;
  return (
    <Stack>
      {component.attributes.map((attribute) => (
        <FieldInput key={attribute.name} {...props} attribute={attribute} path={`${path}.${attribute.name}`} />
      ))}
    </Stack>
  );
}

/**
 * A component attribute: one (added, removed) or a list (added, moved, removed), each entry a
 * fieldset. An administrator who may change some of the component's fields adds and moves
 * entries; only one who may change all of them removes one (it would take the others with it).
 */
export function ComponentField({ attribute, form, models, path = attribute.name }: FieldProps) {
  const uid = attribute.component!;
  const component = models.component(uid);
  const value = valueAt(form, path);
  const modeOf = useContext(FieldModeContext);
  const entryPath = attribute.repeatable ? `${path}.0` : path;
  const modes = (component?.attributes ?? []).map((inner) => modeOf(`${entryPath}.${inner.name}`));
  const some = modes.includes('editable');
  const whole = modes.every((mode) => mode === 'editable');
  const error = form.getInputProps(path).error as string | undefined;
  if (!attribute.repeatable) {
    return (
      <Fieldset legend={attribute.name + (attribute.required ? ' *' : '')}>
        {value ? (
          <Stack>
            <ComponentInputs uid={uid} path={path} form={form} models={models} />
            {whole && (
              <Group justify="flex-end">
                <Button variant="subtle" color="red" size="xs" onClick={() => form.setFieldValue(path, null)}>
                  Remove {attribute.name}
                </Button>
              </Group>
            )}
          </Stack>
        ) : (
          <Button
            variant="light"
            disabled={!some}
            onClick={() => form.setFieldValue(path, newEntry(uid, models, false))}
          >
            Add {attribute.name}
          </Button>
        )}
        {error && (
          <Text c="red" size="sm">
            {error}
          </Text>
        )}
      </Fieldset>
    );
  }
  const entries = (value as FormValues[] | undefined) ?? [];
  return (
    <Fieldset legend={attribute.name + (attribute.required ? ' *' : '')}>
      <Stack>
        {entries.map((entry, index) => {
          const label = `${attribute.name} ${index + 1}`;
          return (
            <Fieldset key={String(entry.__key)} legend={label} variant="filled">
              <Stack>
                {some && (
                  <Group justify="flex-end">
                    <EntryActions
                      label={label}
                      index={index}
                      count={entries.length}
                      onMove={(to) => form.reorderListItem(path, { from: index, to })}
                      onRemove={whole ? () => form.removeListItem(path, index) : undefined}
                    />
                  </Group>
                )}
                <ComponentInputs uid={uid} path={`${path}.${index}`} form={form} models={models} />
              </Stack>
            </Fieldset>
          );
        })}
        {some && (
          <Button variant="light" onClick={() => form.insertListItem(path, newEntry(uid, models, false))}>
            Add an entry to {attribute.name}
          </Button>
        )}
        {error && (
          <Text c="red" size="sm">
            {error}
          </Text>
        )}
        {component && entries.length === 0 && (
          <Text c="dimmed" size="sm">
            No {component.displayName} yet.
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}

/** A dynamic zone: entries of its allowed components, added from a menu, moved and removed. */
export function DynamicZoneField({ attribute, form, models, path = attribute.name }: FieldProps) {
  const entries = (valueAt(form, path) as FormValues[] | undefined) ?? [];
  const error = form.getInputProps(path).error as string | undefined;
  return (
    <Fieldset legend={attribute.name + (attribute.required ? ' *' : '')}>
      <Stack>
        {entries.map((entry, index) => {
          const uid = String(entry.__component);
          const label = `${attribute.name} ${index + 1}: ${models.component(uid)?.displayName ?? uid}`;
          return (
            <Fieldset key={String(entry.__key)} legend={label} variant="filled">
              <Stack>
                <Group justify="flex-end">
                  <EntryActions
                    label={label}
                    index={index}
                    count={entries.length}
                    onMove={(to) => form.reorderListItem(path, { from: index, to })}
                    onRemove={() => form.removeListItem(path, index)}
                  />
                </Group>
                <ComponentInputs uid={uid} path={`${path}.${index}`} form={form} models={models} />
              </Stack>
            </Fieldset>
          );
        })}
        <Menu position="bottom-start">
          <Menu.Target>
            <Button variant="light">Add a component to {attribute.name}</Button>
          </Menu.Target>
          <Menu.Dropdown>
            {(attribute.components ?? []).map((uid) => (
              <Menu.Item key={uid} onClick={() => form.insertListItem(path, newEntry(uid, models, true))}>
                {models.component(uid)?.displayName ?? uid}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
        {error && (
          <Text c="red" size="sm">
            {error}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
