import { createContext, useContext, type ReactNode } from 'react';

/**
 * Each field of the edit view is a `<form>` of its own (the entries of a component or a zone hold
 * their fields' forms), the page's Save button outside them: after every keystroke Chromium's
 * autofill reads the whole form the input belongs to (`FormControlDidChange`: its fields, labels
 * and values, each field's visibility asked of the layout, the lot sent to the browser process).
 * With the page one form, a 40-entry zone's 161 inputs were ~480 layout checks and ~3 ms of the
 * main thread per key, sometimes run before the key's frame (bench/admin-scale.ts, traced).
 *
 * The forms submit as the page's one did: Enter in a field presses Save when it is there and
 * enabled (a submit button's implicit submission), and Save checks every field's constraints
 * first (`reportFieldsValidity`), as a submit button checks its form's.
 */

/** Presses the page's Save button (the edit view provides it); elsewhere nothing. */
export const ImplicitSubmitContext = createContext<() => void>(() => undefined);

/** One field's form: Enter in its input submits it, which presses the page's Save button. */
export function FieldForm({ children }: { children: ReactNode }) {
  const submit = useContext(ImplicitSubmitContext);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {children}
    </form>
  );
}

/**
 * What a submit button's click checks before its form submits, over the fields' forms under
 * `root`: false, with the browser's message shown at the first field whose value its constraints
 * refuse (an email's format, a minimum length), when there is one.
 */
export function reportFieldsValidity(root: HTMLElement): boolean {
  return [...root.querySelectorAll('form')].every((form) => form.reportValidity());
}
