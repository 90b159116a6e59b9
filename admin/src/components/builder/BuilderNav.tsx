import { Badge, Button, NavLink, Stack, Text } from '@mantine/core';
import { NavLink as RouterLink } from 'react-router-dom';
import type { Draft, DraftModel, Status } from '../../builder/draft.ts';

const byName = (a: DraftModel, b: DraftModel) => a.info.displayName.localeCompare(b.info.displayName);

/** A model's unsaved state, beside its name. */
export function StatusBadge({ status }: { status: Status }) {
  if (status === 'NEW')
    return (
      <Badge size="xs" color="green">
        New
      </Badge>
    );
  if (status === 'CHANGED')
    return (
      <Badge size="xs" color="yellow">
        Changed
      </Badge>
    );
  return null;
}

function ModelLinks({
  label,
  title = label,
  models,
  path,
}: {
  label: string;
  title?: string;
  models: DraftModel[];
  path: string;
}) {
  return (
    <nav aria-label={`Builder: ${label}`}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mt="sm" mb={4}>
        {title}
      </Text>
      {models.length === 0 && (
        <Text size="sm" c="dimmed" px="sm">
          None yet
        </Text>
      )}
      {models.map((model) => (
        <NavLink
          key={model.uid}
          component={RouterLink}
          to={`/content-type-builder/${path}/${model.uid}`}
          label={model.info.displayName}
          rightSection={<StatusBadge status={model.status} />}
        />
      ))}
    </nav>
  );
}

/**
 * The builder's list: collection types, single types (those the builder shows, as Strapi's) and
 * components by category, with the buttons that create them.
 */
export function BuilderNav({
  draft,
  writable,
  onCreate,
}: {
  draft: Draft;
  writable: boolean;
  onCreate: (what: 'collectionType' | 'singleType' | 'component') => void;
}) {
  const types = Object.values(draft.contentTypes)
    .filter((type) => type.visible && type.status !== 'REMOVED')
    .sort(byName);
  const components = Object.values(draft.components)
    .filter((component) => component.status !== 'REMOVED')
    .sort(byName);
  const categories = [...new Set(components.map((component) => component.category))].sort();
  return (
    <Stack gap={0}>
      <ModelLinks
        label="collection types"
        title="Collection types"
        models={types.filter((type) => type.kind === 'collectionType')}
        path="content-types"
      />
      {writable && (
        <Button variant="subtle" size="xs" onClick={() => onCreate('collectionType')}>
          Create a collection type
        </Button>
      )}
      <ModelLinks
        label="single types"
        title="Single types"
        models={types.filter((type) => type.kind === 'singleType')}
        path="content-types"
      />
      {writable && (
        <Button variant="subtle" size="xs" onClick={() => onCreate('singleType')}>
          Create a single type
        </Button>
      )}
      <Text fw={700} px="sm" mt="md">
        Components
      </Text>
      {categories.map((category) => (
        <ModelLinks
          key={category}
          label={`components of ${category}`}
          title={category}
          models={components.filter((component) => component.category === category)}
          path="components"
        />
      ))}
      {writable && (
        <Button variant="subtle" size="xs" onClick={() => onCreate('component')}>
          Create a component
        </Button>
      )}
    </Stack>
  );
}
