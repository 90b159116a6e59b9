/**
 * Content history's data (docs/history.md): a document's versions
 * (`GET /content-manager/history-versions`), restoring one
 * (`PUT /content-manager/history-versions/:id/restore`), and how a version's field compares with
 * the current document's (what the screen marks as changed).
 */
import { useQuery } from '@tanstack/react-query';
import type { HistoryVersion, MissingRelation } from '../../../../src/features/history/contract.ts';
import { api, queryString } from '../../api.ts';

export type { HistoryVersion, MissingRelation };

export interface VersionsAnswer {
  data: HistoryVersion[];
  meta: { pagination: { page: number; pageSize: number; pageCount: number; total: number } };
}

export interface RestoreAnswer {
  data: { documentId: string };
  meta: { missingRelations: MissingRelation[] };
}

export function useVersions(contentType: string, documentId: string | undefined, locale: string | undefined) {
  return useQuery({
    queryKey: ['history', contentType, documentId ?? null, locale ?? null],
    queryFn: () =>
      api<VersionsAnswer>(
        `/content-manager/history-versions${queryString({ contentType, documentId, locale, pageSize: 100 })}`,
      ),
  });
}

export const restoreVersion = (version: HistoryVersion): Promise<RestoreAnswer> =>
  api<RestoreAnswer>(`/content-manager/history-versions/${version.id}/restore`, {
    method: 'PUT',
    body: { contentType: version.contentType },
  });

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The documents a relation value names: a version's `{ results }`, or the document's entry or entries. */
function relationIds(value: unknown): string[] | undefined {
  const list = isObject(value) && Array.isArray(value.results) ? value.results : value;
  if (list === null || list === undefined) return [];
  const items = Array.isArray(list) ? list : [list];
  if (!items.every((item) => isObject(item) && typeof item.documentId === 'string')) return undefined;
  return items.map((item) => (item as Loose).documentId as string);
}

/** A value without the ids a save gives components (they change on every save). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => key !== 'id' && key !== '__id')
        .sort()
        .map((key) => [key, withoutIds(value[key])]),
    );
  return value;
}

/** Whether a version's value of a field differs from the current document's. */
export function differs(type: string, version: unknown, current: unknown): boolean {
  if (type === 'relation' || type === 'media') {
    const ids = (value: unknown) => {
      if (type === 'media') {
        const list = isObject(value) && Array.isArray(value.results) ? value.results : value;
        const items = list === null || list === undefined ? [] : Array.isArray(list) ? list : [list];
        return items.map((item) => (isObject(item) ? String(item.id) : String(item)));
      }
      return relationIds(value) ?? [];
    };
    return JSON.stringify(ids(version)) !== JSON.stringify(ids(current));
  }
  const empty = (value: unknown) => (value === undefined || value === '' ? null : value);
  return JSON.stringify(withoutIds(empty(version))) !== JSON.stringify(withoutIds(empty(current)));
}

/** A field's value as the screen shows it: text, entries by name, and how many are gone. */
export function shown(value: unknown, mainField?: (item: Loose) => string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (isObject(value) && Array.isArray(value.results)) {
    const names = value.results.map((item) =>
      isObject(item) ? (mainField?.(item) ?? String(item.documentId ?? item.name ?? item.id)) : String(item),
    );
    const missing = isObject(value.meta) ? Number(value.meta.missingCount ?? 0) : 0;
    const parts = names.length ? [names.join(', ')] : missing ? [] : ['—'];
    if (missing) parts.push(`${missing} missing (deleted since)`);
    return parts.join(' · ');
  }
  if (Array.isArray(value) && value.every((item) => isObject(item) && 'documentId' in item))
    return value.length
      ? value.map((item) => mainField?.(item as Loose) ?? String((item as Loose).documentId)).join(', ')
      : '—';
  if (isObject(value) && typeof value.documentId === 'string') return mainField?.(value) ?? value.documentId;
  if (typeof value === 'object') return JSON.stringify(withoutIds(value));
  return String(value);
}

/** The label of a version's status. */
export const statusLabel = (status: HistoryVersion['status']): 'Draft' | 'Published' | 'Modified' =>
  status === 'draft' ? 'Draft' : status === 'published' ? 'Published' : 'Modified';

/** Who made a version: their name, else their email; the content API and project code have none. */
export function authorOf(version: HistoryVersion): string {
  const author = version.createdBy;
  if (!author) return 'API or project code';
  const name = [author.firstname, author.lastname].filter(Boolean).join(' ');
  return author.username || name || author.email;
}
