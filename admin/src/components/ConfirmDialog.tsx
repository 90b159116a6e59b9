import { Button, Group, Text } from '@mantine/core';
import { lazy, Suspense, useState, type ReactNode } from 'react';

// The dialog's code (Mantine's modal, its focus trap and transitions: ~9 KB of brotli) loads when
// a dialog first opens: the list, the first screen, has two that most visits never open.
const Modal = lazy(() => import('./modal.ts'));

/** Whether `open` has been true once: a lazily loaded dialog stays mounted from then on (it closes with its transition). */
export function useOpenedOnce(open: boolean): boolean {
  const [once, setOnce] = useState(open);
  if (open && !once) setOnce(true);
  return once || open;
}

/**
 * Asks before a destructive action on `subject` (open while it is not null): Cancel, or the red
 * confirm button, which runs `onConfirm(subject)` and closes.
 */
export function ConfirmDialog<T>({
  subject,
  title,
  confirmLabel = 'Yes, delete',
  onClose,
  onConfirm,
  children,
}: {
  subject: T | null;
  title: string;
  confirmLabel?: string;
  onClose: () => void;
  onConfirm: (subject: T) => void;
  children: ReactNode;
}) {
  const opened = useOpenedOnce(subject !== null);
  if (!opened) return null;
  return (
    <Suspense>
      <Modal opened={subject !== null} onClose={onClose} title={title}>
        <Text mb="md" component="div">
          {children}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              if (subject !== null) onConfirm(subject);
              onClose();
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Modal>
    </Suspense>
  );
}
