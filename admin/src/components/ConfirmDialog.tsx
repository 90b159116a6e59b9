import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

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
  return (
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
  );
}
