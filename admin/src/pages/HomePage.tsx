import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate } from 'react-router-dom';
import { useAccess } from '../access.tsx';
import { useSchema } from '../schema.ts';

/** The first content-type's screen (of those the administrator may read), or a word when there is none. */
export function HomePage() {
  const schema = useSchema();
  const access = useAccess();
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const first = schema.data?.contentTypes.find((type) => access.canOn('read', type.uid));
  if (first) return <Navigate to={`/content/${first.uid}`} replace />;
  if (schema.data?.contentTypes.length)
    return (
      <Stack>
        <Title order={1}>Content</Title>
        <Text>Your roles let you read none of this project's content-types.</Text>
      </Stack>
    );
  return (
    <Stack>
      <Title order={1}>Content</Title>
      <Text>
        This project has no content-types yet: make them in the{' '}
        <Anchor component={Link} to="/content-type-builder">
          Content-Type Builder
        </Anchor>{' '}
        (under <code>vellum develop</code>), or add schema files under src/api/.
      </Text>
    </Stack>
  );
}
