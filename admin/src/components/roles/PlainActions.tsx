import { Checkbox, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { groupActions, isGranted, setGranted, type PlainAction, type RoleDraft } from '../../role-permissions.ts';

/**
 * The plugins' or the settings' actions of a role: a panel per plugin (or settings category), a
 * row of boxes per sub-category, each box named "<group> <sub-category>: <action>" for screen
 * readers and the tests ("upload general: Access the Media Library").
 */
export function PlainActions({
  actions,
  draft,
  onChange,
  label,
}: {
  actions: readonly PlainAction[];
  draft: RoleDraft;
  onChange: (draft: RoleDraft) => void;
  label: string;
}) {
  return (
    <Stack role="group" aria-label={label}>
      {groupActions(actions).map((group) => (
        <Paper key={group.name} withBorder p="md" component="section" aria-label={group.name}>
          <Title order={3} size="h5" tt="capitalize" mb="xs">
            {group.name}
          </Title>
          <Stack gap="sm">
            {group.subCategories.map((sub) => (
              <div key={sub.name}>
                <Text size="sm" fw={600} c="dimmed" tt="capitalize" mb={4}>
                  {sub.name}
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
                  {sub.actions.map((action) => (
                    <Checkbox
                      key={action.action}
                      label={action.displayName}
                      aria-label={`${group.name} ${sub.name}: ${action.displayName}`}
                      checked={isGranted(draft, action.action)}
                      onChange={(event) => onChange(setGranted(draft, action.action, event.currentTarget.checked))}
                    />
                  ))}
                </SimpleGrid>
              </div>
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
