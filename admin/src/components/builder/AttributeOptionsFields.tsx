import { Checkbox, Fieldset, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { enumValues, optionsOf, type AttributeFormValues } from '../../builder/attribute-form.ts';
import { LOCALIZABLE_TYPES } from '../../builder/batch.ts';

type Form = UseFormReturnType<AttributeFormValues>;

const DEFAULT_INPUT_TYPES: Record<string, string> = {
  integer: 'number',
  float: 'number',
  decimal: 'number',
  email: 'email',
  date: 'date',
  time: 'time',
  datetime: 'datetime-local',
};

/** A datetime default as its input shows it (local time), from the instant the schema holds. */
const localDateTime = (value: string) => {
  const date = new Date(value);
  if (value === '' || Number.isNaN(date.getTime()) || /T\d\d:\d\d$/.test(value)) return value;
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

function DefaultInput({ form }: { form: Form }) {
  const { values } = form;
  const props = form.getInputProps('default');
  if (values.type === 'boolean')
    return (
      <NativeSelect
        label="Default value"
        data={[
          { value: '', label: 'None' },
          { value: 'true', label: 'true' },
          { value: 'false', label: 'false' },
        ]}
        {...props}
      />
    );
  if (values.type === 'enumeration')
    return (
      <NativeSelect label="Default value" data={[{ value: '', label: 'None' }, ...enumValues(values)]} {...props} />
    );
  const attached = values.type === 'uid' && values.targetField !== '';
  return (
    <TextInput
      label="Default value"
      type={DEFAULT_INPUT_TYPES[values.type] ?? 'text'}
      step={values.type === 'time' ? 1 : values.type === 'float' || values.type === 'decimal' ? 'any' : undefined}
      inputMode={values.type === 'biginteger' ? 'numeric' : undefined}
      disabled={attached}
      description={attached ? 'Made from the attached field' : undefined}
      {...props}
      value={values.type === 'datetime' ? localDateTime(values.default) : values.default}
    />
  );
}

/**
 * The options of the field's type (Strapi's "advanced settings"): default, pattern, required,
 * unique, private, lengths and bounds, and localized when its type is localized.
 */
export function AttributeOptionsFields({ form, localized }: { form: Form; localized: boolean }) {
  const { values } = form;
  const options = optionsOf(values);
  const counted = values.type === 'component' || values.type === 'dynamiczone';
  const number = (name: 'min' | 'max' | 'minLength' | 'maxLength', label: string) =>
    options.includes(name) && (
      <TextInput
        label={label}
        type={values.type === 'biginteger' ? 'text' : 'number'}
        inputMode="numeric"
        {...form.getInputProps(name)}
      />
    );
  return (
    <Fieldset legend="Settings">
      <Stack>
        {options.includes('default') && <DefaultInput form={form} />}
        {options.includes('regex') && (
          <TextInput
            label="RegExp pattern"
            description="The value must match this regular expression"
            {...form.getInputProps('regex')}
          />
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {number('minLength', 'Minimum length')}
          {number('maxLength', 'Maximum length')}
          {number('min', counted ? 'Minimum number of entries' : 'Minimum value')}
          {number('max', counted ? 'Maximum number of entries' : 'Maximum value')}
        </SimpleGrid>
        {options.includes('required') && (
          <Checkbox
            label="Required field"
            description="An entry cannot be published without it"
            {...form.getInputProps('required', { type: 'checkbox' })}
          />
        )}
        {options.includes('unique') && (
          <Checkbox
            label="Unique field"
            description="No two entries have the same value"
            {...form.getInputProps('unique', { type: 'checkbox' })}
          />
        )}
        {options.includes('private') && (
          <Checkbox
            label="Private field"
            description="Left out of the API's answers"
            {...form.getInputProps('private', { type: 'checkbox' })}
          />
        )}
        {localized && LOCALIZABLE_TYPES.has(values.type) && (
          <Checkbox
            label="Localized field"
            description="A value in each locale (else the locales share one)"
            {...form.getInputProps('localized', { type: 'checkbox' })}
          />
        )}
      </Stack>
    </Fieldset>
  );
}
