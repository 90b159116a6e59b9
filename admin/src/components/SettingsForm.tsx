import { Alert, Button, Group, Paper, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { ReadOnlyFieldset } from '../access.tsx';

/**
 * A settings screen's form, saved whole: a bordered section named `label`, the error that kept the
 * last save from going through (`problem`), the fields disabled for a role that may only read them,
 * and Save for one that may update them. A submit saves only for the latter.
 */
export function SettingsForm({
  label,
  editable,
  problem,
  saving,
  onSubmit,
  children,
}: {
  label: string;
  editable: boolean;
  problem: string | undefined;
  saving: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" component="section" aria-label={label}>
      <form
        onSubmit={(event) => {
          if (editable) onSubmit(event);
          else event.preventDefault();
        }}
        noValidate
      >
        <Stack>
          {problem && (
            <Alert color="red" title="Not saved">
              {problem}
            </Alert>
          )}
          <ReadOnlyFieldset readOnly={!editable}>{children}</ReadOnlyFieldset>
          {editable && (
            <Group>
              <Button type="submit" loading={saving}>
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
