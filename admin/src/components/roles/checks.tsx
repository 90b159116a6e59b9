import { Checkbox } from '@mantine/core';
import type { CheckState } from '../../role-permissions.ts';

/** A tri-state box (none, some, all) named for screen readers and the tests; ticking it sets all. */
export function StateCheckbox({
  label,
  state,
  onChange,
}: {
  label: string;
  state: CheckState;
  onChange: (on: boolean) => void;
}) {
  return (
    <Checkbox
      aria-label={label}
      checked={state === 'all'}
      indeterminate={state === 'some'}
      onChange={(event) => onChange(state === 'some' ? true : event.currentTarget.checked)}
    />
  );
}
