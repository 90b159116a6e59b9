/**
 * The home page's data (docs/admin-panel.md "Home page"): the four documents last edited and last
 * published (`GET /content-manager/homepage/recent-documents?action=update|publish`) and the
 * documents by status (`GET /content-manager/homepage/count-documents`), with what a row shows of
 * an entry: where its editor is, its status' label, how long ago.
 */
import { useQuery } from '@tanstack/react-query';
import type { DocumentCounts, KeyStatistics, RecentDocument } from '../../src/features/admin/contract.ts';
import { api } from './api.ts';

export type { DocumentCounts, KeyStatistics, RecentDocument };

export type RecentAction = 'update' | 'publish';

/** The content API's users: their screen is the Users list, not the content manager's. */
const USER_TYPE = 'plugin::users-permissions.user';

export function useRecentDocuments(action: RecentAction) {
  return useQuery({
    queryKey: ['homepage', 'recent', action],
    queryFn: async () =>
      (await api<{ data: RecentDocument[] }>(`/content-manager/homepage/recent-documents?action=${action}`)).data,
  });
}

/** The project's counts (Strapi's "Project statistics" widget). */
export function useKeyStatistics() {
  return useQuery({
    queryKey: ['homepage', 'key-statistics'],
    queryFn: async () => (await api<{ data: KeyStatistics }>('/admin/homepage/key-statistics')).data,
  });
}

/** Strapi's widget's labels, in its order. */
export const KEY_STATISTICS: [keyof KeyStatistics, string][] = [
  ['assets', 'Assets'],
  ['contentTypes', 'Content-Types'],
  ['components', 'Components'],
  ['locales', 'Locales'],
  ['admins', 'Admins'],
  ['webhooks', 'Webhooks'],
  ['apiTokens', 'API Tokens'],
];

export function useDocumentCounts() {
  return useQuery({
    queryKey: ['homepage', 'counts'],
    queryFn: async () => (await api<{ data: DocumentCounts }>('/content-manager/homepage/count-documents')).data,
  });
}

/** The panel's address of an entry's editor, in its locale (a single type's is its type's). */
export function editPath(document: Pick<RecentDocument, 'contentTypeUid' | 'kind' | 'documentId' | 'locale'>): string {
  if (document.contentTypeUid === USER_TYPE) return '/manage/users';
  const base =
    document.kind === 'singleType'
      ? `/content/${document.contentTypeUid}`
      : `/content/${document.contentTypeUid}/${encodeURIComponent(document.documentId)}`;
  return document.locale ? `${base}?locale=${encodeURIComponent(document.locale)}` : base;
}

/** What a row shows as the entry's name: its title, else its documentId. */
export function titleOf(document: Pick<RecentDocument, 'title' | 'documentId'>): string {
  const { title } = document;
  return title === null || title === undefined || title === '' ? document.documentId : String(title);
}

/** The label of a status, as the lists show it (the colours are content.ts's STATUS_COLORS). */
export function statusLabel(status: RecentDocument['status']): 'Draft' | 'Published' | 'Modified' | null {
  if (status === 'draft') return 'Draft';
  if (status === 'published') return 'Published';
  if (status === 'modified') return 'Modified';
  return null;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 minutes ago", "yesterday", "now": how long before `now` the time `iso` is. */
export function relativeTime(iso: string, now: Date = new Date(), locale = 'en'): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const seconds = Math.round((at.getTime() - now.getTime()) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return '';
}

/** The counts' total and each status' share of it, in the order the widget shows them. */
export function countShares(counts: DocumentCounts): {
  total: number;
  shares: { label: 'Draft' | 'Modified' | 'Published'; count: number; percent: number }[];
} {
  const total = counts.draft + counts.modified + counts.published;
  const share = (count: number) => (total === 0 ? 0 : (count / total) * 100);
  return {
    total,
    shares: [
      { label: 'Draft', count: counts.draft, percent: share(counts.draft) },
      { label: 'Modified', count: counts.modified, percent: share(counts.modified) },
      { label: 'Published', count: counts.published, percent: share(counts.published) },
    ],
  };
}
