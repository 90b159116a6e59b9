/**
 * The content manager list's status filter as Strapi 5.54's panel sends it,
 * `filters[$and][i][__status][$eq]=draft|published|published-modified|published-unmodified`, made
 * the document service's publication cohort (`publicationFilter`) over the drafts the list shows:
 * never published, with a published version, modified since (the draft newer), or not. Strapi's
 * controller turns it into `status` and its own filters (`normalizeStatusFromFilters`); the
 * documents listed are the same.
 */
import { ValidationError } from '../../core/errors.js';

type Query = Record<string, unknown>;

/** Each choice: the versions Strapi lists (published ones for the published choices) and their cohort. */
const COHORTS: Record<string, { status: 'draft' | 'published'; cohort?: string }> = {
  draft: { status: 'draft', cohort: 'never-published' },
  published: { status: 'published' },
  'published-modified': { status: 'published', cohort: 'modified' },
  'published-unmodified': { status: 'published', cohort: 'unmodified' },
};

/** The query without its `__status` filters, and the versions and cohort they name (the last one). */
export function statusFilter(query: Query): {
  query: Query;
  status?: 'draft' | 'published';
  publicationFilter?: string;
} {
  const filters = query.filters as { $and?: unknown } | undefined;
  if (!filters || !Array.isArray(filters.$and)) return { query };
  let chosen: { status: 'draft' | 'published'; cohort?: string } | undefined;
  const rest: unknown[] = [];
  for (const filter of filters.$and) {
    const wanted = (filter as { __status?: { $eq?: unknown } } | null)?.__status?.$eq;
    if (wanted == null) {
      rest.push(filter);
      continue;
    }
    chosen = COHORTS[String(wanted)];
    if (!chosen) throw new ValidationError(`Invalid status filter: expected one of ${Object.keys(COHORTS).join(', ')}`);
  }
  if (chosen === undefined) return { query };
  const { filters: _filters, ...others } = query;
  return {
    query: rest.length ? { ...others, filters: { ...filters, $and: rest } } : others,
    status: chosen.status,
    publicationFilter: chosen.cohort,
  };
}
