/**
 * The audit log's screen logic (`/admin/audit-logs`, src/features/audit/): its filters as the API
 * takes them (Strapi's `filters[$and][i][field][$op]`), the names of the actions, what an entry is
 * about, and the queries the screen reads (a page by cursor, the count, the people).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, queryString } from './api.ts';

// The server's own answers, not copies (type imports: nothing of the server is bundled).
import type { AuditLogEntry, AuditLogPage, AuditLogUser } from '../../src/features/audit/contract.ts';

export type { AuditLogEntry, AuditLogPage, AuditLogUser };

/** Strapi's names of its actions (its audit logs screen's), and Vellum's for what Strapi does not record. */
export const ACTIONS: Record<string, string> = {
  'entry.create': 'Create entry',
  'entry.update': 'Update entry',
  'entry.delete': 'Delete entry',
  'entry.publish': 'Publish entry',
  'entry.unpublish': 'Unpublish entry',
  'entry.draft-discard': 'Discard draft',
  'media.create': 'Create media',
  'media.update': 'Update media',
  'media.delete': 'Delete media',
  'user.create': 'Create user',
  'user.update': 'Update user',
  'user.delete': 'Delete user',
  'admin.auth.success': 'Admin login',
  'admin.logout': 'Admin logout',
  'role.create': 'Create role',
  'role.update': 'Update role',
  'role.delete': 'Delete role',
  'permission.create': 'Create permission',
  'permission.update': 'Update permission',
  'permission.delete': 'Delete permission',
  'api-token.create': 'Create API token',
  'api-token.revoke': 'Revoke API token',
  'webhook.create': 'Create webhook',
  'webhook.update': 'Update webhook',
  'webhook.delete': 'Delete webhook',
  'settings.update': 'Update settings',
  'locale.create': 'Create locale',
  'locale.update': 'Update locale',
  'locale.delete': 'Delete locale',
  'locale.default.update': 'Change default locale',
  'scheduled-action.cancel': 'Cancel scheduled action',
  'release.create': 'Create release',
  'release.update': 'Update release',
  'release.delete': 'Delete release',
  'release.entry.add': 'Add entry to release',
  'release.entry.update': 'Update entry in release',
  'release.entry.remove': 'Remove entry from release',
  'release.trigger': 'Publish release',
  'release.settings.update': 'Update release settings',
  'content-type.create': 'Create content type',
  'content-type.update': 'Update content type',
  'content-type.delete': 'Delete content type',
  'component.create': 'Create component',
  'component.update': 'Update component',
  'component.delete': 'Delete component',
  'transfer.import': 'Import',
};

export const actionLabel = (action: string): string => ACTIONS[action] ?? action;

/** The screen's filters, as its URL holds them (each optional). */
export interface AuditFilters {
  /** An administrator's id. */
  user?: string;
  action?: string;
  /** A content-type's uid. */
  type?: string;
  /** Days (`2025-01-31`), both included. */
  from?: string;
  to?: string;
}

const DAY = 86_400_000;

/** A day (`2025-01-31`) as the milliseconds it starts at, UTC; undefined for anything else. */
export function dayStart(day: string | undefined): number | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The API's `filters` for the screen's: `$and` of one condition each; the `to` day is included. */
export function filtersOf(filters: AuditFilters): Record<string, unknown> | undefined {
  const and: Record<string, unknown>[] = [];
  if (filters.user) and.push({ user: { id: { $eq: filters.user } } });
  if (filters.action) and.push({ action: { $eq: filters.action } });
  if (filters.type) and.push({ contentType: { $eq: filters.type } });
  const from = dayStart(filters.from);
  if (from !== undefined) and.push({ date: { $gte: String(from) } });
  const to = dayStart(filters.to);
  if (to !== undefined) and.push({ date: { $lt: String(to + DAY) } });
  return and.length ? { $and: and } : undefined;
}

/** The list's query string: the filters, newest first, a page of `pageSize` after `cursor`. */
export function listQuery(filters: AuditFilters, pageSize: number, cursor?: string): string {
  return queryString({
    filters: filtersOf(filters),
    sort: 'date:DESC',
    pageSize,
    ...(cursor ? { cursor } : {}),
  });
}

/** What an entry is about, in words: the document (type, documentId, locale) or the subject. */
export function subjectOf(entry: AuditLogEntry, typeName?: (uid: string) => string | undefined): string {
  const { uid, documentId, locale, subject } = entry.payload;
  const parts: string[] = [];
  if (uid) parts.push(typeName?.(uid) ?? uid);
  if (documentId) parts.push(documentId);
  if (locale) parts.push(`(${locale})`);
  if (subject !== undefined) parts.push(uid ? `#${subject}` : subject);
  return parts.join(' ') || '—';
}

/** "1,234 entries", or "10,000+ entries" when the count stopped at its cap. */
export function countLabel(total: number | undefined, capped: boolean | undefined): string {
  if (total === undefined) return ' ';
  const n = total.toLocaleString('en-US');
  return `${n}${capped ? '+' : ''} ${total === 1 && !capped ? 'entry' : 'entries'}`;
}

/** A page of entries after `cursor` (none: the newest). */
export function useAuditLog(filters: AuditFilters, pageSize: number, cursor: string | undefined) {
  return useQuery({
    queryKey: ['audit-logs', filters, pageSize, cursor ?? null],
    queryFn: () => api<AuditLogPage>(`/admin/audit-logs${listQuery(filters, pageSize, cursor)}`),
    placeholderData: keepPreviousData,
  });
}

/** How many entries the filters match (counted up to the server's cap). */
export function useAuditCount(filters: AuditFilters) {
  return useQuery({
    queryKey: ['audit-logs', 'count', filters],
    queryFn: async () => (await api<AuditLogPage>(`/admin/audit-logs${listQuery(filters, 1)}`)).pagination,
  });
}

/** The administrators who have entries, for the person filter. */
export function useAuditUsers() {
  return useQuery({
    queryKey: ['audit-logs', 'users'],
    queryFn: async () => (await api<{ results: AuditLogUser[] }>('/admin/audit-logs/users?pageSize=100')).results,
  });
}

export function useAuditSettings() {
  return useQuery({
    queryKey: ['audit-logs', 'settings'],
    queryFn: async () => (await api<{ data: { retentionDays: number } }>('/admin/audit-logs/settings')).data,
  });
}
