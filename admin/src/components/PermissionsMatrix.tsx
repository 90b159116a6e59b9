import { Alert, Checkbox, Loader, Stack, Table, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';
import { matrixOf, type PermissionTree } from '../permissions.ts';
import { useSchema } from '../schema.ts';

/** Every grantable action (none enabled): the rows and columns of the matrix. */
export function usePermissionTree() {
  return useQuery({
    queryKey: ['permission-tree'],
    queryFn: async () =>
      (await api<{ permissions: PermissionTree }>('/admin/users-permissions/permissions')).permissions,
    staleTime: Infinity,
  });
}

/**
 * Content-types (and the plugins' controllers) × their actions, a checkbox each, named
 * "Article: find" for screen readers and tests; a "select all" per row. Used by a role's
 * permissions and a custom API token's.
 */
export function PermissionsMatrix({
  tree,
  value,
  onChange,
  label,
}: {
  tree: PermissionTree;
  value: ReadonlySet<string>;
  onChange: (next: Set<string>) => void;
  label: string;
}) {
  const schema = useSchema();
  if (schema.isPending) return <Loader aria-label="Loading" />;
  if (schema.error) return <Alert color="red">{schema.error.message}</Alert>;
  const names = new Map((schema.data?.contentTypes ?? []).map((type) => [type.uid, type.displayName]));
  const groups = matrixOf(tree, (uid) => names.get(uid));
  const set = (actions: string[], on: boolean) => {
    const next = new Set(value);
    for (const action of actions) {
      if (on) next.add(action);
      else next.delete(action);
    }
    onChange(next);
  };

  return (
    <Stack gap="lg" role="group" aria-label={label}>
      {groups.map((group) => (
        <section key={group.label} aria-label={group.label}>
          <Title order={3} size="h5" mb="xs">
            {group.label}
          </Title>
          <Table.ScrollContainer minWidth={120 + 90 * (group.columns.length + 1)}>
            <Table striped highlightOnHover withTableBorder aria-label={`${group.label} permissions`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <VisuallyHidden>Name</VisuallyHidden>
                  </Table.Th>
                  <Table.Th>All</Table.Th>
                  {group.columns.map((column) => (
                    <Table.Th key={column}>{column}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {group.rows.map((row) => {
                  const actions = Object.values(row.actions);
                  const on = actions.filter((action) => value.has(action)).length;
                  return (
                    <Table.Tr key={row.label}>
                      <Table.Th scope="row" fw={500}>
                        {row.shown}
                      </Table.Th>
                      <Table.Td>
                        <Checkbox
                          aria-label={`${row.label}: select all`}
                          checked={on === actions.length}
                          indeterminate={on > 0 && on < actions.length}
                          onChange={(event) => set(actions, event.currentTarget.checked)}
                        />
                      </Table.Td>
                      {group.columns.map((column) => {
                        const action = row.actions[column];
                        return (
                          <Table.Td key={column}>
                            {action && (
                              <Checkbox
                                aria-label={`${row.label}: ${column}`}
                                checked={value.has(action)}
                                onChange={(event) => set([action], event.currentTarget.checked)}
                              />
                            )}
                          </Table.Td>
                        );
                      })}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </section>
      ))}
    </Stack>
  );
}
