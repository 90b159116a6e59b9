/**
 * Releases' data for the panel (docs/releases.md): the pages of releases by tab, one release and
 * its actions grouped by content-type, and the time zone arithmetic of the schedule form (a date
 * and time read in a chosen zone, sent as the UTC instant Strapi's panel sends).
 */
import { useQuery } from '@tanstack/react-query';
import type {
  ListedReleaseAction,
  ReleaseActionsPage,
  ReleasePage,
  ReleaseSettings,
  ReleaseWithCount,
} from '../../src/features/releases/contract.ts';
import { api } from './api.ts';

export type { ListedReleaseAction, ReleaseWithCount };

export const RELEASES = {
  read: 'plugin::content-releases.read',
  create: 'plugin::content-releases.create',
  update: 'plugin::content-releases.update',
  delete: 'plugin::content-releases.delete',
  publish: 'plugin::content-releases.publish',
  createAction: 'plugin::content-releases.create-action',
  deleteAction: 'plugin::content-releases.delete-action',
  settingsRead: 'plugin::content-releases.settings.read',
  settingsUpdate: 'plugin::content-releases.settings.update',
} as const;

/** The releases' settings (the default time zone of new releases); not asked without `enabled`. */
export function useReleaseSettings(enabled = true) {
  return useQuery({
    queryKey: ['releases', 'settings'],
    queryFn: async () => (await api<{ data: ReleaseSettings }>('/content-releases/settings')).data,
    enabled,
  });
}

export type ReleaseTab = 'pending' | 'done';

export function useReleases(tab: ReleaseTab) {
  return useQuery({
    queryKey: ['releases', tab],
    queryFn: () =>
      api<ReleasePage>(`/content-releases?page=1&pageSize=100&filters[releasedAt][$notNull]=${tab === 'done'}`),
  });
}

export function useRelease(id: string) {
  return useQuery({
    queryKey: ['release', id],
    queryFn: async () => (await api<{ data: ReleaseWithCount }>(`/content-releases/${encodeURIComponent(id)}`)).data,
  });
}

export function useReleaseActions(id: string) {
  return useQuery({
    queryKey: ['release', id, 'actions'],
    queryFn: () =>
      api<ReleaseActionsPage>(
        `/content-releases/${encodeURIComponent(id)}/actions?page=1&pageSize=100&groupBy=contentType`,
      ),
  });
}

/** The pending releases an entry is not in yet (the edit view's "Add to release"). */
export function useReleasesWithout(contentType: string, documentId: string | undefined, locale: string | undefined) {
  const params = new URLSearchParams({ contentType, hasEntryAttached: 'false' });
  if (documentId) params.set('entryDocumentId', documentId);
  if (locale) params.set('locale', locale);
  return useQuery({
    queryKey: ['releases', 'without', contentType, documentId ?? null, locale ?? null],
    queryFn: async () =>
      (await api<{ data: ReleaseWithCount[] }>(`/content-releases/getByDocumentAttached?${params.toString()}`)).data,
  });
}

/** How far `zone`'s wall clock is ahead of UTC at the instant `at` (ms). */
function offsetAt(at: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const part = (name: string) => Number(parts.find((item) => item.type === name)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return wall - Math.floor(at / 1000) * 1000;
}

/** The UTC instant at which `zone`'s clocks read `date` (YYYY-MM-DD) `time` (HH:MM or HH:MM:SS); null when either is missing. */
export function zonedToUtc(date: string, time: string, zone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const clock = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!match || !clock) return null;
  const wall = Date.UTC(
    Number(match[1]),
    Number(match[2]) - 1,
    Number(match[3]),
    Number(clock[1]),
    Number(clock[2]),
    Number(clock[3] ?? 0),
  );
  // Twice: the offset of the first guess may differ across a change of the zone's clocks.
  let at = wall - offsetAt(wall, zone);
  at = wall - offsetAt(at, zone);
  return new Date(at);
}

/** What `zone`'s clocks read at `iso`: the date (YYYY-MM-DD) and time (HH:MM:SS) the form shows. */
export function zonedParts(iso: string, zone: string): { date: string; time: string } {
  const wall = new Date(new Date(iso).getTime() + offsetAt(new Date(iso).getTime(), zone)).toISOString();
  return { date: wall.slice(0, 10), time: wall.slice(11, 19) };
}

/** A scheduled time as the zone it was chosen in reads it: "31/01/2030, 09:00 (Europe/Paris)". */
export function zonedLabel(iso: string, zone: string | null): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  return zone
    ? `${new Date(iso).toLocaleString(undefined, { ...options, timeZone: zone })} (${zone})`
    : new Date(iso).toLocaleString(undefined, options);
}

/** The time zones offered: the runtime's list, the browser's own first. */
/** The time zones to choose from: `first` (the settings' default), else the browser's, first. */
export function timeZones(first?: string | null): string[] {
  const own = first || Intl.DateTimeFormat().resolvedOptions().timeZone;
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return [own, ...all.filter((zone) => zone !== own)];
}

export const RELEASE_STATUS_COLORS = {
  ready: 'green',
  blocked: 'orange',
  failed: 'red',
  done: 'blue',
  empty: 'gray',
} as const;

/** An entry's label in a release: its main field, else its documentId. */
export function entryLabel(action: ListedReleaseAction): string {
  const value = action.contentType.mainFieldValue;
  return typeof value === 'string' && value !== '' ? value : (action.entryDocumentId ?? '');
}
