import {
  ActionIcon,
  Alert,
  JsonInput,
  NativeSelect,
  NumberInput,
  PasswordInput,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { createContext, memo, useContext, type ReactNode } from 'react';
import type { FieldMode } from '../admin-permissions.ts';
import { inputKind, slugify, type FormValues, type InputKind, type Models } from '../fields.ts';
import { sameSlice } from '../form-slice.ts';
import type { AttributeDescription } from '../schema.ts';
import { BlocksField } from './BlocksField.tsx';
import { ComponentField, DynamicZoneField } from './ComponentField.tsx';
import { FieldForm } from './FieldForm.tsx';
import { MarkdownField } from './MarkdownField.tsx';
import { MediaField } from './MediaField.tsx';
import { RelationField } from './RelationField.tsx';
import type { ConfiguredAttribute } from '../view-configuration.ts';

export interface FieldProps {
  attribute: AttributeDescription;
  form: UseFormReturnType<FormValues>;
  models: Models;
  /** Where the value is in the form's values: the attribute's name, or `seo.metaTitle`, `links.0.url`. */
  path?: string;
}

/** The value at a dotted path of the form's values. */
export function valueAt(form: UseFormReturnType<FormValues>, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined),
      form.getValues(),
    );
}

/**
 * How the form shows a field, by its path (`title`, `seo.metaTitle`, `links.0.url`): the edit view
 * provides what the administrator's permissions allow; elsewhere every field is editable.
 */
export const FieldModeContext = createContext<(path: string) => FieldMode>(() => 'editable');
export const useFieldMode = (path: string): FieldMode => useContext(FieldModeContext)(path);

/** A field the administrator may read but not change: its controls disabled, as a native disabled fieldset does. */
function ReadOnly({ children }: { children: ReactNode }) {
  return (
    <fieldset disabled data-readonly style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      {children}
    </fieldset>
  );
}

/**
 * One attribute's input, labelled with the attribute's name as the schema spells it; left out
 * when the administrator may not read it, read-only when they may not change it.
 */
function FieldInputOf(props: FieldProps) {
  const path = props.path ?? props.attribute.name;
  const mode = useFieldMode(path);
  if (mode === 'hidden') return null;
  // The edit view's form is uncontrolled: an input keeps what is typed in the DOM and shows the
  // form's value again when it mounts; Mantine's key for the path changes when the value is set
  // from elsewhere (a load, a save, "generate", an entry moved), which mounts the input anew.
  const kind = inputKind(props.attribute);
  const key = UNCONTROLLED.has(kind) ? props.form.key(path) : undefined;
  const input =
    mode === 'readonly' ? (
      <ReadOnly>
        <AttributeInput key={key} {...props} readOnly />
      </ReadOnly>
    ) : (
      <AttributeInput key={key} {...props} />
    );
  // A form of its own (FieldForm.tsx: autofill reads an input's whole form per keystroke); a
  // component's or a zone's fields are each in theirs.
  return kind === 'component' || kind === 'dynamiczone' ? input : <FieldForm>{input}</FieldForm>;
}

/** The kinds whose input keeps its value in the DOM (`defaultValue`); the others render the form's value. */
const UNCONTROLLED = new Set<InputKind>([
  'string',
  'email',
  'password',
  'text',
  'uid',
  'integer',
  'decimal',
  'biginteger',
  'date',
  'time',
  'datetime',
  'boolean',
  'enumeration',
  'json',
]);

/**
 * Re-rendered only when the field's own slice of the form (its value, its errors) changes, or its
 * mode (the context), when the page renders: a value set from elsewhere renders the fields it
 * changed, not every field of the page (a keystroke renders nothing: the form is uncontrolled).
 * The `form` a skipped field keeps acts on the form's current values (Mantine keeps them in a ref).
 */
export const FieldInput = memo(
  FieldInputOf,
  (previous, next) =>
    previous.attribute === next.attribute &&
    previous.models === next.models &&
    previous.path === next.path &&
    sameSlice(previous.form, next.form, next.path ?? next.attribute.name),
);

function AttributeInput(props: FieldProps & { readOnly?: boolean }) {
  const { attribute, form, models } = props;
  const { name, required } = attribute;
  const path = props.path ?? name;
  const parent = path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '';
  // The configured view's label, description and placeholder (view-configuration.ts), else the name.
  const configured = attribute as ConfiguredAttribute;
  const common = {
    label: configured.label ?? name,
    description: configured.description,
    placeholder: configured.placeholder,
    withAsterisk: required,
    ...form.getInputProps(path),
    disabled: props.readOnly,
  };
  const lengths = { minLength: attribute.minLength, maxLength: attribute.maxLength };
  switch (inputKind(attribute)) {
    case 'string':
      return <TextInput {...common} {...lengths} />;
    case 'email':
      return <TextInput {...common} type="email" />;
    case 'password':
      return (
        <PasswordInput {...common} autoComplete="new-password" description="Leave empty to keep the current password" />
      );
    case 'text':
      return <Textarea {...common} autosize minRows={3} {...lengths} />;
    case 'markdown':
      // The preview follows the text: the value is set with a render (the rest of the form stays put).
      return (
        <MarkdownField
          {...common}
          defaultValue={undefined}
          value={String(valueAt(form, path) ?? '')}
          onChange={(event) => form.setFieldValue(path, event.currentTarget.value)}
        />
      );
    case 'uid': {
      const target = attribute.targetField;
      const generate = () =>
        form.setFieldValue(path, slugify(String(valueAt(form, parent ? `${parent}.${target}` : target!) ?? '')));
      return (
        <TextInput
          {...common}
          description={target ? `Generated from ${target}` : undefined}
          rightSection={
            target ? (
              <ActionIcon
                variant="subtle"
                onClick={generate}
                aria-label={`Generate ${name} from ${target}`}
                title={`Generate from ${target}`}
              >
                ↻
              </ActionIcon>
            ) : undefined
          }
        />
      );
    }
    case 'integer':
      return <NumberInput {...common} allowDecimal={false} min={attribute.min} max={attribute.max} />;
    case 'decimal':
      return <NumberInput {...common} min={attribute.min} max={attribute.max} />;
    case 'biginteger':
      return <TextInput {...common} inputMode="numeric" />;
    case 'date':
      return <TextInput {...common} type="date" />;
    case 'time':
      return <TextInput {...common} type="time" />;
    case 'datetime':
      return <TextInput {...common} type="datetime-local" />;
    case 'boolean':
      return (
        <Switch
          label={configured.label ?? name}
          {...form.getInputProps(path, { type: 'checkbox' })}
          disabled={props.readOnly}
        />
      );
    case 'enumeration':
      return (
        <NativeSelect
          {...common}
          data={[{ value: '', label: '(none)' }, ...(attribute.enum ?? []).map((value) => ({ value, label: value }))]}
        />
      );
    case 'json':
      return <JsonInput {...common} autosize minRows={3} formatOnBlur validationError="Not valid JSON" />;
    case 'relation':
      return <RelationField attribute={attribute} form={form} models={models} path={path} />;
    case 'component':
      return <ComponentField attribute={attribute} form={form} models={models} path={path} />;
    case 'media':
      return <MediaField attribute={attribute} form={form} models={models} path={path} />;
    case 'blocks':
      return <BlocksField attribute={attribute} form={form} models={models} path={path} />;
    case 'dynamiczone':
      return <DynamicZoneField attribute={attribute} form={form} models={models} path={path} />;
    case 'unsupported':
      return (
        <div>
          <Text fw={500} size="sm">
            {name}
          </Text>
          <Alert variant="light" color="gray" p="xs">
            {attribute.type} fields are edited in a later version of the panel; saving here leaves this one as it is.
          </Alert>
        </div>
      );
  }
}
