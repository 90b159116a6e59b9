import { Button, Group, Table, VisuallyHidden } from '@mantine/core';
import type { Key, ReactNode } from 'react';

/**
 * A striped list with a row per item and the item's buttons in its last column (Users, Roles,
 * Locales): `head` is the header cells before that column (its own header reads "Actions" to a
 * screen reader only), `cells` a row's cells before its buttons, `actions` its buttons; `children`
 * follow the table inside its scroll container.
 */
export function ActionsTable<Row>({
  label,
  minWidth,
  head,
  rows,
  rowKey,
  cells,
  actions,
  children,
}: {
  /** The table's aria-label. */
  label: string;
  minWidth: number;
  head: ReactNode;
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => Key;
  cells: (row: Row) => ReactNode;
  actions: (row: Row) => ReactNode;
  children?: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {head}
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows?.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {cells(row)}
              <Table.Td>
                <RowActions>{actions(row)}</RowActions>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {children}
    </Table.ScrollContainer>
  );
}

/** A row's buttons, on one line at the right of their cell. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {children}
    </Group>
  );
}

/** A row's Edit button, labelled `Edit <name>` for screen readers and the tests. */
export function EditButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button variant="subtle" size="xs" aria-label={`Edit ${name}`} onClick={onClick}>
      Edit
    </Button>
  );
}

/** A row's red Delete button, labelled `Delete <name>` for screen readers and the tests. */
export function DeleteButton({ name, onClick }: { name: string; onClick: () => void }) {
  return (
    <Button variant="subtle" color="red" size="xs" aria-label={`Delete ${name}`} onClick={onClick}>
      Delete
    </Button>
  );
}
