import {
  Alert,
  Anchor,
  Button,
  Center,
  CopyButton,
  Drawer,
  Group,
  Image,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ReadOnlyFieldset, useRights } from '../../access.tsx';
import { api } from '../../api.ts';
import { absoluteUrl, deleteFile, formatSize, kindOf, updateFileInfo, type MediaFile } from '../../media.ts';
import { FileIcon } from './FileIcon.tsx';

const FORMAT_ORDER = ['original', 'large', 'medium', 'small', 'thumbnail'];

/** An image and the formats the server made of it, each viewable. */
function ImagePreview({ file }: { file: MediaFile }) {
  const formats = {
    original: { url: file.url, width: file.width ?? 0, height: file.height ?? 0, size: file.size },
    ...(file.formats ?? {}),
  };
  const names = Object.keys(formats).sort(
    (a, b) => (FORMAT_ORDER.indexOf(a) + 1 || 99) - (FORMAT_ORDER.indexOf(b) + 1 || 99),
  );
  const [shown, setShown] = useState('original');
  const format = formats[shown as keyof typeof formats] ?? formats.original;
  return (
    <Stack gap="xs">
      <Center bg="gray.1" p="xs" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
        <Image src={format.url} alt={file.alternativeText ?? file.name} mah={260} w="auto" maw="100%" fit="contain" />
      </Center>
      {names.length > 1 && (
        <SegmentedControl
          aria-label="Format"
          data={names.map((name) => ({ value: name, label: name }))}
          value={shown}
          onChange={setShown}
          fullWidth
          size="xs"
          transitionDuration={0}
        />
      )}
      <Text size="xs" c="dimmed">
        {shown}: {format.width}×{format.height}, {formatSize(format.size)}
      </Text>
    </Stack>
  );
}

function Preview({ file }: { file: MediaFile }) {
  const kind = kindOf(file);
  if (kind === 'image') return <ImagePreview key={file.url} file={file} />;
  if (kind === 'video')
    return (
      <video
        src={file.url}
        controls
        preload="metadata"
        style={{ width: '100%', maxHeight: 320 }}
        aria-label={`${file.name} player`}
      />
    );
  if (kind === 'audio')
    return (
      <audio src={file.url} controls preload="metadata" style={{ width: '100%' }} aria-label={`${file.name} player`} />
    );
  return (
    <Center bg="gray.1" h={160} c="gray.7" style={{ borderRadius: 'var(--mantine-radius-md)' }}>
      <FileIcon kind="file" size={64} />
    </Center>
  );
}

/**
 * A file's information and its editable fields: name, alternative text, caption (POST
 * /admin/upload?id=), read-only without `assets.update`; its Copy and Open as the roles allow.
 */
function FileForm({ file, onDelete }: { file: MediaFile; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const rights = useRights('/media');
  const form = useForm({
    initialValues: { name: file.name, alternativeText: file.alternativeText ?? '', caption: file.caption ?? '' },
  });
  const save = useMutation({
    mutationFn: (values: typeof form.values) =>
      updateFileInfo(file.id, {
        name: values.name.trim(),
        alternativeText: values.alternativeText || null,
        caption: values.caption || null,
      }),
    onSuccess: (saved) => {
      form.setInitialValues({
        name: saved.name,
        alternativeText: saved.alternativeText ?? '',
        caption: saved.caption ?? '',
      });
      form.resetDirty();
      notifications.show({ color: 'green', message: `${saved.name} saved` });
      void queryClient.invalidateQueries({ queryKey: ['media'] });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not saved', message: error.message }),
  });
  const url = absoluteUrl(file.url);
  const facts: [string, ReactNode][] = [
    ['Size', formatSize(file.size)],
    ['Dimensions', file.width && file.height ? `${file.width}×${file.height} px` : '—'],
    ['Type', file.mime],
    ['Uploaded', new Date(file.createdAt).toLocaleString()],
    ['Updated', new Date(file.updatedAt).toLocaleString()],
  ];
  return (
    <Stack>
      <Preview file={file} />
      <Table aria-label="File information" variant="vertical" layout="fixed" withTableBorder>
        <Table.Tbody>
          {facts.map(([label, value]) => (
            <Table.Tr key={label}>
              <Table.Th w={120}>{label}</Table.Th>
              <Table.Td>{value}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group align="flex-end" wrap="nowrap" gap="xs">
        <TextInput
          label="URL"
          value={url}
          readOnly
          style={{ flex: 1 }}
          onFocus={(event) => event.currentTarget.select()}
        />
        {rights.copyLink && (
          <CopyButton value={url}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy} aria-label="Copy URL">
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        )}
      </Group>
      {rights.download && (
        <Anchor href={file.url} target="_blank" rel="noreferrer" size="sm">
          Open the original in a new tab
        </Anchor>
      )}
      <form
        onSubmit={form.onSubmit((values) => {
          if (rights.update) save.mutate(values);
        })}
      >
        <Stack gap="sm">
          <ReadOnlyFieldset readOnly={!rights.update}>
            <Stack gap="sm">
              <TextInput label="Name" required {...form.getInputProps('name')} />
              <TextInput
                label="Alternative text"
                description="What the image shows, for people who cannot see it"
                {...form.getInputProps('alternativeText')}
              />
              <Textarea label="Caption" autosize minRows={2} {...form.getInputProps('caption')} />
            </Stack>
          </ReadOnlyFieldset>
          {rights.update ? (
            <Group justify="space-between">
              <Button color="red" variant="light" onClick={onDelete}>
                Delete
              </Button>
              <Button type="submit" loading={save.isPending} disabled={!form.isDirty() || !form.values.name.trim()}>
                Save
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              Your roles let you read this file&apos;s details, not change or delete it.
            </Text>
          )}
        </Stack>
      </form>
    </Stack>
  );
}

/** A file's details in a drawer: preview, information, URL, its editable fields, and delete (asks first). */
export function FileDetails({
  fileId,
  onClose,
  onDeleted,
}: {
  fileId: number | null;
  onClose: () => void;
  onDeleted?: (file: MediaFile) => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const file = useQuery({
    queryKey: ['media', 'file', fileId],
    queryFn: () => api<MediaFile>(`/admin/upload/files/${fileId}`),
    enabled: fileId !== null,
  });
  const remove = useMutation({
    mutationFn: (target: MediaFile) => deleteFile(target.id),
    onSuccess: (_answer, target) => {
      setConfirming(false);
      notifications.show({ color: 'green', message: `${target.name} deleted` });
      queryClient.removeQueries({ queryKey: ['media', 'file', target.id] });
      void queryClient.invalidateQueries({ queryKey: ['media'] });
      onDeleted?.(target);
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not deleted', message: error.message }),
  });
  return (
    <Drawer
      opened={fileId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={file.data?.name ?? 'File details'}
      closeButtonProps={{ 'aria-label': 'Close details' }}
    >
      {file.isPending && fileId !== null && <Loader aria-label="Loading" />}
      {file.error && <Alert color="red">{file.error.message}</Alert>}
      {file.data && <FileForm key={file.data.id} file={file.data} onDelete={() => setConfirming(true)} />}
      <Modal opened={confirming && !!file.data} onClose={() => setConfirming(false)} title="Delete this file?" centered>
        <Stack>
          <Text>
            {file.data?.name} will be deleted from the library and from storage, and removed from the entries that use
            it. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => file.data && remove.mutate(file.data)}>
              Delete file
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Drawer>
  );
}
