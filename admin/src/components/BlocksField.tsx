import { Input, Loader, Text } from '@mantine/core';
import { lazy, Suspense, useId } from 'react';
import type { BlockElement } from '../blocks.ts';
import { valueAt, type FieldProps } from './FieldInput.tsx';

// Slate and the editor load with the first blocks field, not with the first screen.
const BlocksEditor = lazy(() => import('./BlocksEditor.tsx'));

/** A `blocks` attribute: Strapi's rich text, in a Slate editor labelled with the attribute's name. */
export function BlocksField({ attribute, form, path = attribute.name }: FieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const error = form.getInputProps(path).error as string | undefined;
  const value = valueAt(form, path) as BlockElement[];
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
      <Suspense fallback={<Loader size="sm" aria-label={`Loading the ${attribute.name} editor`} />}>
        <BlocksEditor name={attribute.name} labelId={labelId} value={value} onChange={(next) => form.setFieldValue(path, next)} invalid={Boolean(error)} describedBy={error ? errorId : undefined} />
      </Suspense>
      {error && <Input.Error id={errorId} mt={4}>{error}</Input.Error>}
    </div>
  );
}
