import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useRef, type MutableRefObject, type ReactElement } from 'react';
import { useBlocker } from 'react-router-dom';

export interface UnsavedChangesOptions {
  /** Whether the form has changes of its own; a function is asked at the moment of leaving. */
  dirty: boolean | (() => boolean);
  /** What the prompt says is not saved. */
  message: string;
  /** Whether another query string (another locale, page) is leaving too; by default only another path is. */
  search?: boolean;
  /** A path under which moving is not leaving (the screens of one editor, such as the Content-Type Builder's). */
  within?: string;
}

/**
 * Leaving a form with changes not saved asks first: a link or the browser's back (a "Leave without
 * saving?" prompt with Stay and Leave), closing or reloading the tab (the browser's own prompt).
 * Set `leaving.current` before a navigation the form makes itself (after a save or a delete).
 */
export function useUnsavedChanges({ dirty, message, search = false, within }: UnsavedChangesOptions): {
  leaving: MutableRefObject<boolean>;
  prompt: ReactElement;
} {
  const isDirty = typeof dirty === 'function' ? dirty : () => dirty;
  const leaving = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !leaving.current &&
      isDirty() &&
      !(within && nextLocation.pathname.startsWith(within)) &&
      (currentLocation.pathname !== nextLocation.pathname ||
        (search && currentLocation.search !== nextLocation.search)),
  );
  const dirtyNow = isDirty();
  useEffect(() => {
    if (!dirtyNow) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirtyNow]);
  const prompt = (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave without saving?">
      <Text mb="md">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()}>
          Stay
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave
        </Button>
      </Group>
    </Modal>
  );
  return { leaving, prompt };
}
