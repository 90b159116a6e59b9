import { ActionIcon, Button, FileButton, Group, Image, Input, Modal, Paper, SimpleGrid, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, queryString, uploadFiles } from '../api.ts';
import { mediaItem, type MediaItem } from '../fields.ts';
import { valueAt, type FieldProps } from './FieldInput.tsx';

const isImage = (file: MediaItem) => file.mime.startsWith('image/');

function Thumbnail({ file }: { file: MediaItem }) {
  return isImage(file) ? (
    <Image src={file.url} alt={file.alternativeText ?? file.name} h={96} fit="contain" bg="gray.1" radius="sm" />
  ) : (
    <Text size="xs" h={96} bg="gray.1" p="xs" style={{ overflow: 'hidden' }}>
      {file.mime}
    </Text>
  );
}

/** The media library's files, searched by name, to pick from. */
function LibraryPicker({ opened, onClose, onPick, multiple, chosen }: { opened: boolean; onClose: () => void; onPick: (files: MediaItem[]) => void; multiple: boolean; chosen: Set<number> }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 200);
  const [picked, setPicked] = useState<MediaItem[]>([]);
  const query = { sort: 'createdAt:desc', pagination: { pageSize: 48 }, filters: debounced ? { name: { $containsi: debounced } } : undefined };
  const files = useQuery({
    queryKey: ['media', query],
    queryFn: async () => (await api<Record<string, unknown>[]>(`/admin/upload/files${queryString(query)}`)).map(mediaItem),
    enabled: opened,
  });
  const toggle = (file: MediaItem) => setPicked((current) => (current.some((f) => f.id === file.id) ? current.filter((f) => f.id !== file.id) : multiple ? [...current, file] : [file]));
  return (
    <Modal opened={opened} onClose={onClose} title="Media library" size="xl">
      <Stack>
        <TextInput label="Search files" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {(files.data ?? [])
            .filter((file) => !chosen.has(file.id))
            .map((file) => {
              const selected = picked.some((f) => f.id === file.id);
              return (
                <UnstyledButton key={file.id} onClick={() => toggle(file)} aria-pressed={selected} aria-label={file.name}>
                  <Paper withBorder p={4} style={{ outline: selected ? '2px solid var(--mantine-primary-color-filled)' : undefined }}>
                    <Thumbnail file={file} />
                    <Text size="xs" truncate mt={4}>
                      {file.name}
                    </Text>
                  </Paper>
                </UnstyledButton>
              );
            })}
        </SimpleGrid>
        {files.data?.length === 0 && <Text c="dimmed">No files{debounced ? ` match “${debounced}”` : ' yet: upload one'}.</Text>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={picked.length === 0}
            onClick={() => {
              onPick(picked);
              setPicked([]);
              onClose();
            }}
          >
            Choose {picked.length > 1 ? `${picked.length} files` : 'file'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A media attribute: its files (removable), picked from the media library or uploaded on the spot. */
export function MediaField({ attribute, form, path = attribute.name }: FieldProps) {
  const files = (valueAt(form, path) as MediaItem[] | undefined) ?? [];
  const [opened, { open, close }] = useDisclosure(false);
  const [uploading, setUploading] = useState(false);
  const queryClient = useQueryClient();
  const multiple = attribute.multiple === true;
  const set = (next: MediaItem[]) => form.setFieldValue(path, multiple ? next : next.slice(-1));
  const upload = async (chosen: File[] | File | null) => {
    const list = Array.isArray(chosen) ? chosen : chosen ? [chosen] : [];
    if (list.length === 0) return;
    setUploading(true);
    try {
      const stored = (await uploadFiles<Record<string, unknown>>(list)).map(mediaItem);
      set([...files, ...stored]);
      await queryClient.invalidateQueries({ queryKey: ['media'] });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Upload failed', message: error instanceof Error ? error.message : String(error) });
    } finally {
      setUploading(false);
    }
  };
  const error = form.getInputProps(path).error as string | undefined;
  return (
    <Input.Wrapper label={attribute.name} withAsterisk={attribute.required} error={error} description={multiple ? 'Files' : 'One file'}>
      <Stack gap="xs" mt={4}>
        {files.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 4 }} component="ul" aria-label={attribute.name} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {files.map((file, index) => (
              <Paper key={`${file.id}-${index}`} withBorder p={4} component="li" aria-label={file.name}>
                <Thumbnail file={file} />
                <Group justify="space-between" wrap="nowrap" gap={4}>
                  <Text size="xs" truncate>
                    {file.name}
                  </Text>
                  <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Remove ${file.name}`} onClick={() => set(files.filter((_, i) => i !== index))}>
                    ✕
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        )}
        <Group gap="xs">
          <Button variant="light" size="xs" onClick={open}>
            Choose from the media library
          </Button>
          <FileButton onChange={(chosen) => void upload(chosen)} multiple={multiple} accept={attribute.allowedTypes?.length === 1 && attribute.allowedTypes[0] === 'images' ? 'image/*' : undefined}>
            {(props) => (
              <Button {...props} variant="light" size="xs" loading={uploading} aria-label={`Upload to ${attribute.name}`}>
                Upload
              </Button>
            )}
          </FileButton>
        </Group>
      </Stack>
      <LibraryPicker opened={opened} onClose={close} multiple={multiple} chosen={new Set(files.map((file) => file.id))} onPick={(picked) => set([...files, ...picked])} />
    </Input.Wrapper>
  );
}
