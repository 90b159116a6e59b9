import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { duplicate, prohibitedFields, type ProhibitedField } from '../list-tools.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

/**
 * Duplicating a document (the edit view's button, the list's row menu): a copy made unattended
 * when the type allows it, else the fields a copy cannot take (unique values, relations it would
 * take from the source) named, and the copy made without them; the copy opens in its edit view.
 */
export function useDuplicate(uid: string, locale: string | undefined) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<{ documentId: string; fields: ProhibitedField[] } | null>(null);

  const opened = async (copy: string, without: ProhibitedField[] = []) => {
    await queryClient.invalidateQueries({ queryKey: ['list', uid] });
    notifications.show({
      color: 'green',
      message: without.length
        ? `Duplicated without ${without.map(([path]) => path.join('.')).join(', ')}: fill them in`
        : 'Duplicated',
    });
    navigate(`/content/${uid}/${copy}${locale ? `?locale=${encodeURIComponent(locale)}` : ''}`);
  };
  const failed = (error: unknown) =>
    notifications.show({
      color: 'red',
      title: 'Not duplicated',
      message: error instanceof Error ? error.message : String(error),
    });

  const start = async (documentId: string) => {
    try {
      await opened(await duplicate(uid, documentId, locale));
    } catch (error) {
      const fields = prohibitedFields(error);
      if (fields.length) setPending({ documentId, fields });
      else failed(error);
    }
  };
  const dialog = (
    <ConfirmDialog
      subject={pending}
      title="Duplicate without some fields?"
      confirmLabel="Duplicate without them"
      onClose={() => setPending(null)}
      onConfirm={({ documentId, fields }) =>
        void duplicate(uid, documentId, locale, fields).then((copy) => opened(copy, fields), failed)
      }
    >
      A copy cannot take these fields:{' '}
      {pending?.fields
        .map(([path, why]) => `${path.join('.')} (${why === 'unique' ? 'unique' : 'relation'})`)
        .join(', ')}
      .
    </ConfirmDialog>
  );
  return { start, dialog };
}

/** The edit view's Duplicate button. */
export function DuplicateButton({
  uid,
  documentId,
  locale,
  disabled,
}: {
  uid: string;
  documentId: string;
  locale: string | undefined;
  disabled: boolean;
}) {
  const { start, dialog } = useDuplicate(uid, locale);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button
        variant="default"
        loading={busy}
        disabled={disabled}
        onClick={() => {
          setBusy(true);
          void start(documentId).finally(() => setBusy(false));
        }}
      >
        Duplicate
      </Button>
      {dialog}
    </>
  );
}
