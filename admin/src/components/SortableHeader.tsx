import { Table, UnstyledButton } from '@mantine/core';

/**
 * A column header that sorts a list on the server: `sort` is the list's `field:asc|desc`; a click
 * sorts by this column ascending, or the other way when it already sorts by it.
 */
export function SortableHeader({
  name,
  label,
  sort,
  onSort,
}: {
  name: string;
  label: string;
  sort: string;
  onSort: (sort: string) => void;
}) {
  const [field, order] = sort.split(':');
  const active = field === name;
  return (
    <Table.Th aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton fw={700} onClick={() => onSort(`${name}:${active && order === 'asc' ? 'desc' : 'asc'}`)}>
        {label} {active ? (order === 'asc' ? '▲' : '▼') : ''}
      </UnstyledButton>
    </Table.Th>
  );
}
