import { Anchor, Group, Paper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api.ts';

/**
 * The edit view's preview: the front end's page of the document (the URL `config/admin`'s preview
 * handler gives, with a short-lived token to read its draft) in a frame, read again after each
 * save (`version`: the draft's `updatedAt`), and a link that opens it in a tab. Nothing when the
 * project configures no preview (the server answers 204).
 */
export function PreviewPanel({
  uid,
  documentId,
  locale,
  version,
}: {
  uid: string;
  documentId: string | undefined;
  locale: string | undefined;
  version: unknown;
}) {
  const params = new URLSearchParams({ ...(documentId ? { documentId } : {}), ...(locale ? { locale } : {}) });
  const preview = useQuery({
    queryKey: ['preview-url', uid, documentId ?? null, locale ?? null, String(version ?? '')],
    queryFn: async () =>
      (await api<{ data: { url: string } } | null>(`/content-manager/preview/url/${uid}?${params}`))?.data.url ?? null,
    // A configuration without preview, or a role that may not read: no panel.
    retry: false,
  });
  const url = preview.data;
  if (!url) return null;
  return (
    <Paper withBorder p="lg" role="region" aria-label="Preview">
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
        style={{ width: '100%', height: 480, border: '1px solid var(--mantine-color-gray-3)' }}
      />
      <Text size="xs" c="dimmed" mt={4}>
        The front end’s page of this draft, read again after each save.
      </Text>
    </Paper>
  );
}
