import { Badge, Group, Table, Text } from '@mantine/core';
import type { DraftAttribute } from '../../builder/draft.ts';
import { DeleteButton, EditButton, RowActions } from '../ActionsTable.tsx';
import { StatusBadge } from './BuilderNav.tsx';

/** A model's fields: name, what it is, and its Edit and Delete buttons (none on a locked field or read-only). */
export function AttributeTable({
  attributes,
  label,
  describe,
  editable,
  onEdit,
  onDelete,
}: {
  attributes: DraftAttribute[];
  label: string;
  describe: (attribute: DraftAttribute) => string;
  editable: boolean;
  onEdit: (attribute: DraftAttribute) => void;
  onDelete: (attribute: DraftAttribute) => void;
}) {
  if (attributes.length === 0) return <Text c="dimmed">No fields yet.</Text>;
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {attributes.map((attribute) => (
            <Table.Tr key={attribute.name}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text ff="monospace" size="sm">
                    {attribute.name}
                  </Text>
                  <StatusBadge status={attribute.status} />
                  {attribute.required === true && (
                    <Badge size="xs" variant="light">
                      required
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{describe(attribute)}</Table.Td>
              <Table.Td>
                {attribute.configurable === false ? (
                  <Text size="sm" c="dimmed" ta="right">
                    Locked
                  </Text>
                ) : (
                  editable && (
                    <RowActions>
                      <EditButton name={attribute.name} onClick={() => onEdit(attribute)} />
                      <DeleteButton name={attribute.name} onClick={() => onDelete(attribute)} />
                    </RowActions>
                  )
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
