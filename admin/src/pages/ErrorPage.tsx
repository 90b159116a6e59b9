import { Alert, Button, Center, Stack } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** What a screen that failed shows: a sentence, never a stack trace. */
export function ErrorPage() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Something went wrong.';
  return (
    <Center h="100vh">
      <Stack maw={480}>
        <Alert color="red" title="This screen could not be shown">
          {message}
        </Alert>
        <Button component="a" href="/admin">
          Back to the admin panel
        </Button>
      </Stack>
    </Center>
  );
}
