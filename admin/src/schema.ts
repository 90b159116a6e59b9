/** The schema as `GET /admin/content-types` describes it (src/rest/admin-schema.ts on the server). */
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';

export interface AttributeDescription {
  name: string;
  type: string;
  required: boolean;
  localized: boolean;
  unique?: boolean;
  default?: unknown;
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  enum?: string[];
  targetField?: string;
  relation?: string;
  target?: string;
  toMany?: boolean;
  component?: string;
  repeatable?: boolean;
  components?: string[];
  multiple?: boolean;
  allowedTypes?: string[] | null;
}

export interface ContentTypeDescription {
  uid: string;
  displayName: string;
  kind: 'collectionType' | 'singleType';
  singularName: string;
  pluralName: string;
  draftAndPublish: boolean;
  localized: boolean;
  attributes: AttributeDescription[];
  mainField: string | null;
}

export interface ComponentDescription {
  uid: string;
  displayName: string;
  category: string;
  attributes: AttributeDescription[];
  mainField: string | null;
}

export interface SchemaDescription {
  contentTypes: ContentTypeDescription[];
  components: ComponentDescription[];
}

export function useSchema() {
  return useQuery({
    queryKey: ['schema'],
    queryFn: async () => (await api<{ data: SchemaDescription }>('/admin/content-types')).data,
    staleTime: Infinity,
  });
}
