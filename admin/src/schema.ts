/** The schema as `GET /admin/content-types` describes it: the server's own types (src/features/admin/schema.ts). */
import { useQuery } from '@tanstack/react-query';
import type {
  AttributeDescription,
  ComponentDescription,
  ContentTypeDescription,
  SchemaDescription,
} from '../../src/features/admin/contract.ts';
import { api } from './api.ts';

export type { AttributeDescription, ComponentDescription, ContentTypeDescription, SchemaDescription };

export function useSchema() {
  return useQuery({
    queryKey: ['schema'],
    queryFn: async () => (await api<{ data: SchemaDescription }>('/admin/content-types')).data,
    staleTime: Infinity,
  });
}
