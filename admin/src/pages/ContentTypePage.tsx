import { Alert, Loader } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { useSchema } from '../schema.ts';
import { ListView } from './ListView.tsx';
import { EditPage } from './EditPage.tsx';

/** A collection type's list, or a single type's one document. */
export function ContentTypePage() {
  const { uid } = useParams();
  const schema = useSchema();
  if (schema.isPending) return <Loader aria-label="Loading" />;
  const type = schema.data?.contentTypes.find((candidate) => candidate.uid === uid);
  if (!type) return <Alert color="red">{schema.error?.message ?? `No content-type ${uid}`}</Alert>;
  return type.kind === 'collectionType' ? <ListView key={type.uid} type={type} /> : <EditPage key={type.uid} />;
}
