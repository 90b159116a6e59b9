import { Badge, Button, Group, NativeSelect, Popover, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import {
  OPERATORS,
  operatorLabel,
  takesValue,
  validValue,
  type Filter,
  type FilterField,
  type Operator,
} from '../filters.ts';

// The list's filter builder, loaded when the "Filters" button is first pressed (ListView's FirstUse).

interface FilterButtonProps {
  fields: FilterField[];
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
}

/** The value input of the filter being built, fitting its field: a select for booleans and enumerations, a date input for dates. */
function ValueInput({
  field,
  value,
  onChange,
}: {
  field: FilterField;
  value: string;
  onChange: (value: string) => void;
}) {
  const common = {
    label: 'Value',
    value,
    onChange: (event: { currentTarget: { value: string } }) => onChange(event.currentTarget.value),
  };
  switch (field.kind) {
    case 'boolean':
      return <NativeSelect {...common} data={['true', 'false']} />;
    case 'enumeration':
      return (
        <NativeSelect
          {...common}
          data={[
            { value: '', label: 'Choose a value' },
            ...(field.options ?? []).map((option) => ({ value: option, label: option })),
          ]}
        />
      );
    case 'number':
      return <TextInput {...common} type="number" inputMode="decimal" />;
    case 'date':
      return <TextInput {...common} type="date" />;
    case 'datetime':
      return <TextInput {...common} type="datetime-local" />;
    case 'time':
      return <TextInput {...common} type="time" />;
    default:
      return <TextInput {...common} />;
  }
}

const initialValue = (field: FilterField): string => (field.kind === 'boolean' ? 'true' : '');

/** The "Filters" button and its builder: a field, an operator fitting it, a value; "Add filter" adds it to the list's. */
export default function FilterButton({
  fields,
  filters,
  onChange,
  initiallyOpened = false,
}: FilterButtonProps & { initiallyOpened?: boolean }) {
  const [opened, setOpened] = useState(initiallyOpened);
  const [name, setName] = useState(fields[0]?.name ?? '');
  const field = fields.find((candidate) => candidate.name === name) ?? fields[0];
  const [operator, setOperator] = useState<Operator>(field ? OPERATORS[field.kind][0]! : '$eq');
  const [value, setValue] = useState(field ? initialValue(field) : '');
  if (!field) return null;
  const operators = OPERATORS[field.kind];
  const needsValue = takesValue(operator);
  // A datetime-local input's value is in the browser's time zone: the URL and the API get the instant.
  const apiValue = field.kind === 'datetime' && value ? new Date(value).toISOString() : value;
  const valid = !needsValue || validValue(field, field.kind === 'datetime' ? (value ? apiValue : '') : value);

  const chooseField = (next: string) => {
    const chosen = fields.find((candidate) => candidate.name === next)!;
    setName(next);
    if (!OPERATORS[chosen.kind].includes(operator)) setOperator(OPERATORS[chosen.kind][0]!);
    setValue(initialValue(chosen));
  };
  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    onChange([...filters, { field: field.name, operator, value: needsValue ? apiValue : 'true' }]);
    setValue(initialValue(field));
    setOpened(false);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <Button
          variant="default"
          onClick={() => setOpened((open) => !open)}
          rightSection={
            filters.length ? (
              <Badge size="sm" circle aria-hidden>
                {filters.length}
              </Badge>
            ) : undefined
          }
          aria-expanded={opened}
          aria-label="Filters"
          autoFocus={initiallyOpened}
        >
          Filters
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <form onSubmit={add} aria-label="Add a filter">
          <Stack gap="xs" w={300}>
            <NativeSelect
              label="Field"
              value={field.name}
              onChange={(event) => chooseField(event.currentTarget.value)}
              data={fields.map((candidate) => ({
                value: candidate.name,
                label: candidate.via ? `${candidate.name} (${candidate.via})` : candidate.name,
              }))}
            />
            <NativeSelect
              label="Operator"
              value={operator}
              onChange={(event) => setOperator(event.currentTarget.value as Operator)}
              data={operators.map((candidate) => ({ value: candidate, label: operatorLabel(candidate, field.kind) }))}
            />
            {needsValue && <ValueInput key={field.name} field={field} value={value} onChange={setValue} />}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => setOpened(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={!valid}>
                Add filter
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
