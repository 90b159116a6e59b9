import { Button, Checkbox, Popover, Stack } from '@mantine/core';

// The list's column picker, loaded when its button is first pressed (ListView's FirstUse).

/** The "Columns" button and its checkboxes: `columns` are the listable ones, `chosen` those shown. */
export default function ColumnsPicker({
  columns,
  chosen,
  onChange,
  initiallyOpened = false,
}: {
  columns: { name: string; label: string }[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  initiallyOpened?: boolean;
}) {
  return (
    <Popover position="bottom-end" shadow="md" defaultOpened={initiallyOpened}>
      <Popover.Target>
        <Button variant="default" autoFocus={initiallyOpened}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label="Columns shown">
          {columns.map(({ name, label }) => (
            <Checkbox
              key={name}
              label={label}
              checked={chosen.includes(name)}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                onChange(columns.map((column) => column.name).filter((n) => (n === name ? on : chosen.includes(n))));
              }}
            />
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
