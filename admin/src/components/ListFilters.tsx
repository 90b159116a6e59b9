import { Badge, Button, CloseButton, Group } from '@mantine/core';
import { filterLabel, type Filter, type FilterField } from '../filters.ts';

/** The list's filters as removable chips. */
export function FilterChips({
  fields,
  filters,
  onChange,
}: {
  fields: FilterField[];
  filters: Filter[];
  onChange: (filters: Filter[]) => void;
}) {
  if (filters.length === 0) return null;
  return (
    <Group gap="xs" role="list" aria-label="Active filters">
      {filters.map((filter, index) => {
        const label = filterLabel(
          filter,
          fields.find((field) => field.name === filter.field),
        );
        return (
          // Mantine's Pill keeps its remove button out of the tab order: a Badge with a real button instead.
          <Badge
            key={`${index}:${filter.field}:${filter.operator}:${filter.value}`}
            role="listitem"
            variant="light"
            size="lg"
            tt="none"
            fw={500}
            rightSection={
              <CloseButton
                size="xs"
                aria-label={`Remove filter ${label}`}
                onClick={() => onChange(filters.filter((_, i) => i !== index))}
              />
            }
          >
            {label}
          </Badge>
        );
      })}
      {filters.length > 1 && (
        <Button variant="subtle" size="compact-sm" onClick={() => onChange([])}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
