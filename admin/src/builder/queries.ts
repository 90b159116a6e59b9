/**
 * The Content-Type Builder's API as the screens call it: the schema and the reserved names, whether
 * this server takes changes, and a batch sent then waited for until the project's next version serves.
 */
import { useQuery } from '@tanstack/react-query';
import type {
  BuilderSchema,
  ReservedNames,
  UpdateSchemaBody,
} from '../../../src/features/content-type-builder/contract.ts';
import { api, ApiError } from '../api.ts';

const BASE = '/content-type-builder';
/** The builder's own queries: the rest of the panel's (which a schema change may change) are refreshed apart. */
export const BUILDER_KEY = 'content-type-builder';

export function useBuilderSchema() {
  return useQuery({
    queryKey: [BUILDER_KEY, 'schema'],
    queryFn: async () => (await api<{ data: BuilderSchema }>(`${BASE}/schema`)).data,
    staleTime: Infinity,
  });
}

export function useReservedNames() {
  return useQuery({
    queryKey: [BUILDER_KEY, 'reserved-names'],
    queryFn: () => api<ReservedNames>(`${BASE}/reserved-names`),
    staleTime: Infinity,
  });
}

/**
 * Whether the server takes changes: an empty batch changes nothing and answers `{}` under `vellum
 * develop`, Strapi's 403 `PolicyError` anywhere else (a 409: a change being applied, so develop).
 */
export function useBuilderWritable() {
  return useQuery({
    queryKey: [BUILDER_KEY, 'writable'],
    queryFn: async () => {
      try {
        await api(`${BASE}/update-schema`, { method: 'POST', body: { data: { components: [], contentTypes: [] } } });
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 403) return false;
        if (error instanceof ApiError && error.status === 409) return true;
        throw error;
      }
    },
    staleTime: Infinity,
  });
}

/** Strapi's codes among the builder's refusals, in words (the code kept, as the API's own word). */
const REFUSALS: Record<string, string> = {
  'contentType.alreadyExists': 'A content-type with this uid already exists: the schema changed meanwhile',
  'contentType.notFound': 'A content-type this change edits no longer exists: the schema changed meanwhile',
  'contentType.invalidUID': "A content-type's uid does not match its names",
  'component.alreadyExists': 'A component with this uid or table already exists',
  'component.edit.alreadyExists': 'Another component already has this uid',
  'component.notFound': 'A component this change edits no longer exists: the schema changed meanwhile',
  'component.invalidUID': "A component's uid does not match its category and name",
};

/** The API's refusal as the screen says it: a known code in words, with the code; any other message as it is. */
export const refusalMessage = (message: string): string =>
  REFUSALS[message]
    ? `${REFUSALS[message]} (${message}). Discard the changes to load the schema as it is now.`
    : message;

const APPLY_TIMEOUT_MS = 60_000;
const POLL_MS = 50;

/**
 * Sends a batch (a refusal throws the API's message), says when it is written (`onWritten`), then
 * asks `update-schema-status` until the version that answers is the next one (`isUpdating` false).
 */
export async function sendBatch(batch: UpdateSchemaBody, onWritten: () => void): Promise<void> {
  await api(`${BASE}/update-schema`, { method: 'POST', body: batch });
  onWritten();
  const started = Date.now();
  for (;;) {
    const status = await api<{ data: { isUpdating: boolean } }>(`${BASE}/update-schema-status`);
    if (!status.data.isUpdating) return;
    if (Date.now() - started > APPLY_TIMEOUT_MS)
      throw new Error('The files are written, but the server did not serve them within a minute: see its output');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
