import { Anchor, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate } from 'react-router-dom';
import { useSchema } from '../schema.ts';

/** The first content-type's screen, or a word when the project has none. */
export function HomePage() {
  const schema = useSchema();
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const first = schema.data?.contentTypes[0];
  if (first) return <Navigate to={`/content/${first.uid}`} replace />;
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
