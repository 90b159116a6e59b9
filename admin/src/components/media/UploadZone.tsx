import '@mantine/dropzone/styles.css';
import { Button, CloseButton, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { formatSize, uploadWithProgress, type MediaFile } from '../../media.ts';
import { FileIcon } from './FileIcon.tsx';

interface UploadItem {
  key: number;
  name: string;
  bytes: number;
  /** 0 to 1 of the bytes sent. */
  progress: number;
  status: 'uploading' | 'done' | 'error';
  error?: string;
  abort?: () => void;
}

const REJECTIONS: Record<string, string> = {
  'file-invalid-type': 'This type of file is not accepted here',
  'file-too-large': 'This file is too large',
  'too-many-files': 'Only one file can go here',
};

let nextKey = 0;

/**
 * Uploads by drag and drop or the "Upload files" button, several at once, each its own request with
 * its own progress bar and its own error (the server's message: too large, ...). `accept` (MIME
 * patterns) refuses other types before sending. Each stored file goes to `onUploaded`.
 */
export function UploadZone({
  onUploaded,
  accept,
  multiple = true,
}: {
  onUploaded?: (file: MediaFile) => void;
  accept?: string[];
  multiple?: boolean;
}) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const openRef = useRef<() => void>(null);
  const queryClient = useQueryClient();
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const patch = (key: number, changes: Partial<UploadItem>) => {
    if (mounted.current)
      setItems((current) => current.map((item) => (item.key === key ? { ...item, ...changes } : item)));
  };

  const start = (files: File[]) => {
    for (const file of files) {
      const key = nextKey++;
      const handle = uploadWithProgress(file, (progress) => patch(key, { progress }));
      setItems((current) => [
        ...current,
        { key, name: file.name, bytes: file.size, progress: 0, status: 'uploading', abort: handle.abort },
      ]);
      handle.done.then(
        (stored) => {
          patch(key, { status: 'done', progress: 1, abort: undefined });
          onUploaded?.(stored);
          void queryClient.invalidateQueries({ queryKey: ['media'] });
        },
        (error: unknown) =>
          patch(key, {
            status: 'error',
            error: error instanceof Error ? error.message : String(error),
            abort: undefined,
          }),
      );
    }
  };
  const reject = (rejections: FileRejection[]) => {
    setItems((current) => [
      ...current,
      ...rejections.map(({ file, errors }) => ({
        key: nextKey++,
        name: file.name,
        bytes: file.size,
        progress: 0,
        status: 'error' as const,
        error: errors.map((error) => REJECTIONS[error.code] ?? error.message).join('; '),
      })),
    ]);
  };

  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={start}
        onReject={reject}
        accept={accept}
        multiple={multiple}
        openRef={openRef}
        activateOnClick={false}
        aria-label="Drop files here to upload them"
        inputProps={{ 'aria-label': 'Files to upload' }}
        p="md"
      >
        <Group justify="center" gap="md" mih={64} style={{ pointerEvents: 'none' }}>
          <FileIcon kind="file" size={32} />
          <div>
            <Dropzone.Idle>
              <Text>Drag files here to upload them{multiple ? ', several at once' : ''}</Text>
            </Dropzone.Idle>
            <Dropzone.Accept>
              <Text>Drop to upload</Text>
            </Dropzone.Accept>
            <Dropzone.Reject>
              <Text c="red">This file is not accepted here</Text>
            </Dropzone.Reject>
          </div>
          <Button style={{ pointerEvents: 'all' }} onClick={() => openRef.current?.()}>
            Upload files
          </Button>
        </Group>
      </Dropzone>
      {items.length > 0 && (
        <Stack gap={4} component="ul" aria-label="Uploads" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item) => (
            <Paper component="li" key={item.key} withBorder p="xs" aria-label={item.name}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" truncate fw={500}>
                  {item.name}
                </Text>
                <Group gap="xs" wrap="nowrap">
                  <Text
                    size="xs"
                    c={item.status === 'error' ? 'red' : item.status === 'done' ? 'teal' : 'dimmed'}
                    role="status"
                  >
                    {item.status === 'uploading'
                      ? `${Math.round(item.progress * 100)}% of ${formatSize(item.bytes / 1000)}`
                      : item.status === 'done'
                        ? 'Uploaded'
                        : 'Failed'}
                  </Text>
                  <CloseButton
                    size="sm"
                    aria-label={item.status === 'uploading' ? `Cancel ${item.name}` : `Dismiss ${item.name}`}
                    onClick={() =>
                      item.abort
                        ? item.abort()
                        : setItems((current) => current.filter((other) => other.key !== item.key))
                    }
                  />
                </Group>
              </Group>
              {item.status === 'error' ? (
                <Text size="sm" c="red" role="alert">
                  {item.error}
                </Text>
              ) : (
                <Progress
                  value={Math.round(item.progress * 100)}
                  color={item.status === 'done' ? 'teal' : undefined}
                  aria-label={`${item.name} upload progress`}
                  mt={4}
                  size="sm"
                />
              )}
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
