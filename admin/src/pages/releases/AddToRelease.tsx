import { Alert, Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiError } from '../../api.ts';
import { useReleasesWithout } from '../../releases.ts';

interface Props {
  contentType: string;
  documentId: string | undefined;
  locale: string | undefined;
  disabled?: boolean;
}

function AddModal({ contentType, documentId, locale, onClose }: Props & { onClose: () => void }) {
  const queryClient = useQueryClient();
  const releases = useReleasesWithout(contentType, documentId, locale);
  const [release, setRelease] = useState<string | null>(null);
  const [type, setType] = useState<'publish' | 'unpublish'>('publish');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const add = async () => {
    if (!release) return setError('Choose a release');
    setBusy(true);
    setError(null);
    try {
      await api(`/content-releases/${release}/actions`, {
        method: 'POST',
        body: { contentType, entryDocumentId: documentId, ...(locale ? { locale } : {}), type },
      });
      await queryClient.invalidateQueries({ queryKey: ['releases'] });
      await queryClient.invalidateQueries({ queryKey: ['release', release] });
      onClose();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const options = (releases.data ?? []).map((item) => ({ value: String(item.id), label: item.name }));
  return (
    <Modal opened onClose={onClose} title="Add to release">
      <Stack>
        {error && <Alert color="red">{error}</Alert>}
        {releases.error && <Alert color="red">{releases.error.message}</Alert>}
        {releases.data && options.length === 0 ? (
          <Text c="dimmed">No pending release without this entry: create one on the Releases page.</Text>
        ) : (
          <Select label="Release" data={options} value={release} onChange={setRelease} placeholder="Choose a release" />
        )}
        <SegmentedControl
          aria-label="Action"
          value={type}
          onChange={(value) => setType(value as 'publish' | 'unpublish')}
          data={[
            { value: 'publish', label: 'Publish' },
            { value: 'unpublish', label: 'Unpublish' },
          ]}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void add()} loading={busy} disabled={!release}>
            Continue
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The edit view's "Add to release": this entry (in this locale) into a pending release, to publish or unpublish. */
export function AddToRelease(props: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="light" onClick={() => setOpen(true)} disabled={props.disabled}>
        Add to release
      </Button>
      {open && <AddModal {...props} onClose={() => setOpen(false)} />}
    </>
  );
}
