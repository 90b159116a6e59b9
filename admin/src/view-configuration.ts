/**
 * "Configure the view" as the panel reads and writes it (Strapi 5.54's
 * `/content-manager/content-types/:uid/configuration`, src/features/admin/view-configuration.ts):
 * the list's columns and their labels, and each field's label, description, placeholder and (a
 * relation's) main field, which the list and edit views follow.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from './api.ts';
import type { AttributeDescription } from './schema.ts';

export interface FieldMetadata {
  edit: {
    label?: string;
    description?: string | null;
    placeholder?: string | null;
    mainField?: string;
    [key: string]: unknown;
  };
  list: { label?: string; mainField?: string; [key: string]: unknown };
}

export interface ViewConfiguration {
  settings: Record<string, unknown> & { pageSize?: number; defaultSortBy?: string; defaultSortOrder?: string };
  metadatas: Record<string, FieldMetadata>;
  layouts: { list: string[]; edit: { name: string; size: number }[][] };
}

/** An attribute as a configured view shows it. */
export type ConfiguredAttribute = AttributeDescription & {
  label?: string;
  description?: string;
  placeholder?: string;
  /** A relation's target field that names its documents. */
  mainField?: string;
};

const path = (uid: string) => `/content-manager/content-types/${uid}/configuration`;

export function useViewConfiguration(uid: string) {
  return useQuery({
    queryKey: ['view-configuration', uid],
    queryFn: async () => (await api<{ data: { contentType: ViewConfiguration } }>(path(uid))).data.contentType,
  });
}

/** Stores a configuration; answers it as stored. */
export async function saveViewConfiguration(uid: string, configuration: ViewConfiguration): Promise<ViewConfiguration> {
  // As Strapi's panel sends it: each list's main field is the edit one's, answered, not stored.
  const metadatas = Object.fromEntries(
    Object.entries(configuration.metadatas).map(([name, meta]) => {
      const { mainField: _main, ...list } = meta.list;
      return [name, { edit: meta.edit, list }];
    }),
  );
  const { settings, layouts } = configuration;
  return (
    await api<{ data: { contentType: ViewConfiguration } }>(path(uid), {
      method: 'PUT',
      body: { settings, metadatas, layouts },
    })
  ).data.contentType;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The attributes with their configured label, description, placeholder and main field, in the
 * edit layout's order.
 */
export function configuredAttributes(
  attributes: AttributeDescription[],
  configuration: ViewConfiguration | undefined,
): ConfiguredAttribute[] {
  if (!configuration) return attributes;
  // In the edit layout's order (rows, then fields); any it leaves out after.
  const order = configuration.layouts.edit.flat().map((field) => field.name);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const sorted = [...attributes].sort((a, b) => rank(a.name) - rank(b.name));
  return sorted.map((attribute) => {
    const edit = configuration.metadatas[attribute.name]?.edit;
    if (!edit) return attribute;
    const mainField = attribute.type === 'relation' && edit.mainField !== 'id' ? text(edit.mainField) : undefined;
    return {
      ...attribute,
      label: text(edit.label),
      description: text(edit.description),
      placeholder: text(edit.placeholder),
      ...(mainField ? { mainField } : {}),
    };
  });
}

/** A column's header: its configured list label. */
export const columnLabel = (configuration: ViewConfiguration | undefined, name: string): string =>
  text(configuration?.metadatas[name]?.list.label) ?? name;
