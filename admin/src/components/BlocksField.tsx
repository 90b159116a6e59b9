import { Alert, Input, Loader, Text } from '@mantine/core';
import { Component, lazy, Suspense, useId, type ReactNode } from 'react';
import type { BlockElement } from '../blocks.ts';
import { useFieldMode, valueAt, type FieldProps } from './FieldInput.tsx';

// Slate and the editor load with the first blocks field, not with the first screen.
const BlocksEditor = lazy(() => import('./BlocksEditor.tsx'));

/** An editor that fails (a bug, a value Slate refuses) says so in a sentence; the rest of the form stays usable. */
class EditorBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    if (!this.state.error) return this.props.children;
    return (
      <Alert color="red" title={`The ${this.props.name} editor could not be shown`}>
        {this.state.error.message} Saving leaves this field as it is; reload the page to try again.
      </Alert>
    );
  }
}

/** A `blocks` attribute: Strapi's rich text, in a Slate editor labelled with the attribute's name. */
export function BlocksField({ attribute, form, path = attribute.name }: FieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const error = form.getInputProps(path).error as string | undefined;
  const value = valueAt(form, path) as BlockElement[];
  const readOnly = useFieldMode(path) === 'readonly';
  return (
    <div>
      <Text component="div" id={labelId} fw={500} size="sm" mb={4}>
        {attribute.name}
        {attribute.required && (
          <Text span c="red" aria-hidden>
            {' *'}
          </Text>
        )}
      </Text>
      <EditorBoundary name={attribute.name}>
        <Suspense fallback={<Loader size="sm" aria-label={`Loading the ${attribute.name} editor`} />}>
          <BlocksEditor
            name={attribute.name}
            labelId={labelId}
            value={value}
            onChange={(next) => form.setFieldValue(path, next)}
            invalid={Boolean(error)}
            describedBy={error ? errorId : undefined}
            readOnly={readOnly}
          />
        </Suspense>
      </EditorBoundary>
      {error && (
        <Input.Error id={errorId} mt={4}>
          {error}
        </Input.Error>
      )}
    </div>
  );
}
