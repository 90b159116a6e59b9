import { Alert, Button, Group, List, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { bulkAction, bulkSummary, BULK_VERBS, type BulkAnswer, type BulkKind } from '../list-tools.ts';
import { ConfirmDialog, useOpenedOnce } from './ConfirmDialog.tsx';

const Modal = lazy(() => import('./modal.ts'));

interface Props {
  uid: string;
  locale: string | undefined;
  /** The selected documents' ids, and how the list names each (its main field). */
  selected: string[];
  nameOf: (documentId: string) => string;
  /** The actions the administrator's roles allow on the type in this locale. */
  kinds: BulkKind[];
  onDone: () => void;
}

/**
 * The list's bulk actions on its selected rows: each asks first, then runs on the server
 * (each entry checked against the role), and a summary tells what was done and, entry by entry,
 * what could not be and why.
 */
export function BulkActionBar({ uid, locale, selected, nameOf, kinds, onDone }: Props) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<BulkKind | null>(null);
  const [busy, setBusy] = useState<BulkKind | null>(null);
  const [summary, setSummary] = useState<{ kind: BulkKind; answer: BulkAnswer; asked: number } | null>(null);
  const summaryShown = useOpenedOnce(summary !== null);

  const run = async (kind: BulkKind) => {
    setBusy(kind);
    try {
      const answer = await bulkAction(uid, kind, selected, locale);
      if (answer.errors?.length) setSummary({ kind, answer, asked: selected.length });
      else notifications.show({ color: 'green', message: bulkSummary(kind, answer, selected.length) });
      onDone();
      await queryClient.invalidateQueries({ queryKey: ['list', uid] });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: `Not ${BULK_VERBS[kind].done.toLowerCase()}`,
        message: error instanceof Error ? error.message : String(error),
      });
    } finally {
      setBusy(null);
    }
  };

  // The summary outlives the selection (cleared once the action ran).
  return (
    <>
      {selected.length > 0 && (
        <Group role="toolbar" aria-label="Bulk actions">
          <Text size="sm">
            {selected.length} {selected.length === 1 ? 'entry' : 'entries'} selected
          </Text>
          {kinds.map((kind) => (
            <Button
              key={kind}
              size="xs"
              variant={kind === 'bulkDelete' ? 'light' : 'default'}
              color={kind === 'bulkDelete' ? 'red' : undefined}
              loading={busy === kind}
              disabled={busy !== null}
              onClick={() => setAsking(kind)}
            >
              {BULK_VERBS[kind].label}
            </Button>
          ))}
        </Group>
      )}
      <ConfirmDialog
        subject={asking}
        title={
          asking ? `${BULK_VERBS[asking].label} ${selected.length} ${selected.length === 1 ? 'entry' : 'entries'}?` : ''
        }
        confirmLabel={asking ? `Yes, ${BULK_VERBS[asking].label.toLowerCase()}` : 'Yes'}
        onClose={() => setAsking(null)}
        onConfirm={(kind) => void run(kind)}
      >
        {asking === 'bulkDelete'
          ? 'The entries are deleted with their draft and published versions.'
          : 'Each entry the roles allow is handled; a summary tells which could not be.'}
      </ConfirmDialog>
      {summaryShown && (
        <Suspense>
          <Modal
            opened={summary !== null}
            onClose={() => setSummary(null)}
            title={summary ? bulkSummary(summary.kind, summary.answer, summary.asked) : ''}
          >
            {summary && (
              <Alert color="orange" title="Not done">
                <List size="sm" aria-label="Entries not done">
                  {(summary.answer.errors ?? []).map((failure) => (
                    <List.Item key={`${failure.documentId}/${failure.locale ?? ''}`}>
                      {nameOf(failure.documentId)}
                      {failure.locale ? ` (${failure.locale})` : ''}: {failure.error.message}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            <Group justify="flex-end" mt="md">
              <Button onClick={() => setSummary(null)}>Close</Button>
            </Group>
          </Modal>
        </Suspense>
      )}
    </>
  );
}
