import { Anchor, Group, Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

/**
 * The front end's page of a document, as `config/admin`'s preview handler gives it (with a
 * short-lived token to read its draft), read again after each save (`version`: the draft's
 * `updatedAt`); null while there is none: no document yet, a project without preview (the server
 * answers 204), or a role that may not read.
 */
export function usePreviewUrl(
  uid: string,
  documentId: string | undefined,
  locale: string | undefined,
  version: unknown,
  enabled: boolean,
): string | null {
  const params = new URLSearchParams({ ...(documentId ? { documentId } : {}), ...(locale ? { locale } : {}) });
  const preview = useQuery({
    queryKey: ['preview-url', uid, documentId ?? null, locale ?? null, String(version ?? '')],
    queryFn: async () =>
      (await api<{ data: { url: string } } | null>(`/content-manager/preview/url/${uid}?${params}`))?.data.url ?? null,
    enabled,
    retry: false,
  });
  return enabled ? (preview.data ?? null) : null;
}

/** The edit view's preview, beside the form: the page in a frame, and a link that opens it in a tab. */
export function PreviewPanel({ url }: { url: string }) {
  return (
    <Paper withBorder p="lg" role="region" aria-label="Preview" pos="sticky" top={72}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          Preview
        </Title>
        <Anchor href={url} target="_blank" rel="noopener">
          Open preview
        </Anchor>
      </Group>
      <iframe
        key={url}
        title="Preview of this entry"
        src={url}
        style={{ width: '100%', height: '70vh', minHeight: 420, border: '1px solid var(--mantine-color-gray-3)' }}
      />
      <Text size="xs" c="dimmed" mt={4}>
        The front end’s page of this draft, read again after each save.
      </Text>
    </Paper>
  );
}
