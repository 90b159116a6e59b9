import { ActionIcon, Button, Fieldset, Group, Menu, Stack, Text } from '@mantine/core';
import { newEntry, type FormValues } from '../fields.ts';
import { sameSlice } from '../form-slice.ts';
import { memo, useContext } from 'react';
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

interface EntryProps extends Omit<FieldProps, 'attribute' | 'path'> {
  /** The list's path; the entry is at `${path}.${index}`. */
  path: string;
  index: number;
  count: number;
  label: string;
  uid: string;
  /** Move buttons (and remove, when `removable`). */
  movable: boolean;
  removable: boolean;
}

/**
 * An entry out of sight is neither laid out, painted nor hit-tested until it nears the viewport
 * (`content-visibility: auto`, its size remembered once shown; 320 px the estimate before): each
 * keystroke's frame in a 40-entry zone walked all 40 entries to paint them and to hit-test the
 * hover under the mouse, 3.8 ms of main-thread CPU (median, traced under load; 1.6 ms with the
 * entries out of sight skipped: the hover's hit test 1.2 -> 0.4 ms, paint 0.7 -> 0.2 ms).
 */
const ENTRY_STYLE = { contentVisibility: 'auto', containIntrinsicSize: 'auto 320px' } as const;

/**
 * One entry of a repeatable component or a zone, re-rendered only when its own values or errors
 * change, its place or the list's length: a keystroke in one of 40 entries leaves the other 39 alone.
 */
const ListEntry = memo(
  function ListEntry({ form, models, path, index, count, label, uid, movable, removable }: EntryProps) {
    return (
      <Fieldset legend={label} variant="filled" style={ENTRY_STYLE}>
        <Stack>
          {movable && (
            <Group justify="flex-end">
              <EntryActions
                label={label}
                index={index}
                count={count}
                onMove={(to) => form.reorderListItem(path, { from: index, to })}
                onRemove={removable ? () => form.removeListItem(path, index) : undefined}
              />
            </Group>
          )}
          <ComponentInputs uid={uid} path={`${path}.${index}`} form={form} models={models} />
        </Stack>
      </Fieldset>
    );
  },
  (previous, next) =>
    previous.index === next.index &&
    previous.count === next.count &&
    previous.label === next.label &&
    previous.uid === next.uid &&
    previous.path === next.path &&
    previous.models === next.models &&
    previous.movable === next.movable &&
    previous.removable === next.removable &&
    sameSlice(previous.form, next.form, `${next.path}.${next.index}`),
);

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
        {entries.map((entry, index) => (
          <ListEntry
            key={String(entry.__key)}
            form={form}
            models={models}
            path={path}
            index={index}
            count={entries.length}
            label={`${attribute.name} ${index + 1}`}
            uid={uid}
            movable={some}
            removable={whole}
          />
        ))}
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
          return (
            <ListEntry
              key={String(entry.__key)}
              form={form}
              models={models}
              path={path}
              index={index}
              count={entries.length}
              label={`${attribute.name} ${index + 1}: ${models.component(uid)?.displayName ?? uid}`}
              uid={uid}
              movable
              removable
            />
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
