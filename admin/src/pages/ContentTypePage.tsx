import { Alert, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { NotAllowed, useAccess } from '../access.tsx';
import { useSchema } from '../schema.ts';
import { ListView } from './ListView.tsx';

// A single type's editor loads when first opened (the list comes with the first screen).
const EditPage = lazy(async () => ({ default: (await import('./EditPage.tsx')).EditPage }));

/** A collection type's list, or a single type's one document. */
export function ContentTypePage() {
  const { uid } = useParams();
  const schema = useSchema();
  const access = useAccess();
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const type = schema.data?.contentTypes.find((candidate) => candidate.uid === uid);
  if (!type) return <Alert color="red">{schema.error?.message ?? `No content-type ${uid}`}</Alert>;
  if (!access.canOn('read', type.uid)) return <NotAllowed />;
  if (type.kind === 'collectionType') return <ListView key={type.uid} type={type} />;
  return (
    <Suspense fallback={<Loader aria-label="Loading" />}>
      <EditPage key={type.uid} />
    </Suspense>
  );
}
