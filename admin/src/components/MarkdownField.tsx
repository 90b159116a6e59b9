import { Paper, SimpleGrid, Text, Textarea, TypographyStylesProvider, type TextareaProps } from '@mantine/core';
import { lazy, Suspense } from 'react';

// The Markdown renderer loads with the first rich-text field, not with the first screen.
const Markdown = lazy(() => import('react-markdown'));

/** Rich text as Markdown: the text on the left, what it renders to on the right (raw HTML is not rendered). */
export function MarkdownField(props: TextareaProps & { value: string }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <Textarea {...props} autosize minRows={6} styles={{ input: { fontFamily: 'ui-monospace, monospace' } }} />
      <Paper withBorder p="sm" mt={24} aria-label={`${String(props.label)} preview`} role="region">
        {props.value ? (
          <Suspense fallback={<Text c="dimmed">Loading the preview</Text>}>
            <TypographyStylesProvider>
              <Markdown>{props.value}</Markdown>
            </TypographyStylesProvider>
          </Suspense>
        ) : (
          <Text c="dimmed" size="sm">
            The preview shows here.
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}
