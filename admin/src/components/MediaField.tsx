import { ActionIcon, Button, FileButton, Group, Image, Input, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAccess, useRights } from '../access.tsx';
import { uploadFiles } from '../api.ts';
import { mediaItem, type MediaItem } from '../fields.ts';
import type { MediaFile, MediaKind } from '../media.ts';
import { LibraryPicker } from './media/LibraryPicker.tsx';
import { valueAt, type FieldProps } from './FieldInput.tsx';

const asItem = (file: MediaFile) => mediaItem(file as unknown as Record<string, unknown>);
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

/** Strapi's `allowedTypes` of a media attribute as the library's kinds. */
const KIND_OF_ALLOWED: Record<string, MediaKind> = {
  images: 'images',
  videos: 'videos',
  audios: 'audio',
  files: 'files',
};

/**
 * A media attribute: its files (removable), picked from the media library (`plugin::upload.read`)
 * or uploaded on the spot (`plugin::upload.assets.create`), each shown with its action.
 */
export function MediaField({ attribute, form, path = attribute.name }: FieldProps) {
  const mayBrowse = useAccess().can('plugin::upload.read');
  const mayUpload = useRights('/media').create;
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
      notifications.show({
        color: 'red',
        title: 'Upload failed',
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setUploading(false);
    }
  };
  const error = form.getInputProps(path).error as string | undefined;
  return (
    <Input.Wrapper
      label={attribute.name}
      withAsterisk={attribute.required}
      error={error}
      description={multiple ? 'Files' : 'One file'}
    >
      <Stack gap="xs" mt={4}>
        {files.length > 0 && (
          <SimpleGrid
            cols={{ base: 2, sm: 4 }}
            component="ul"
            aria-label={attribute.name}
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
          >
            {files.map((file, index) => (
              <Paper key={`${file.id}-${index}`} withBorder p={4} component="li" aria-label={file.name}>
                <Thumbnail file={file} />
                <Group justify="space-between" wrap="nowrap" gap={4}>
                  <Text size="xs" truncate>
                    {file.name}
                  </Text>
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${file.name}`}
                    onClick={() => set(files.filter((_, i) => i !== index))}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
          </SimpleGrid>
        )}
        <Group gap="xs">
          {mayBrowse && (
            <Button variant="light" size="xs" onClick={open}>
              Choose from the media library
            </Button>
          )}
          {mayUpload && (
            <FileButton
              onChange={(chosen) => void upload(chosen)}
              multiple={multiple}
              accept={
                attribute.allowedTypes?.length === 1 && attribute.allowedTypes[0] === 'images' ? 'image/*' : undefined
              }
            >
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  size="xs"
                  loading={uploading}
                  aria-label={`Upload to ${attribute.name}`}
                >
                  Upload
                </Button>
              )}
            </FileButton>
          )}
        </Group>
      </Stack>
      {mayBrowse && (
        <LibraryPicker
          opened={opened}
          onClose={close}
          multiple={multiple}
          chosen={new Set(files.map((file) => file.id))}
          kinds={(attribute.allowedTypes ?? [])
            .map((type) => KIND_OF_ALLOWED[type])
            .filter((kind) => kind !== undefined)}
          onPick={(picked) => set(multiple ? [...files, ...picked.map(asItem)] : picked.map(asItem))}
        />
      )}
    </Input.Wrapper>
  );
}
