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

const COHORTS: Record<string, string> = {
  draft: 'never-published',
  published: 'has-published-version',
  'published-modified': 'modified',
  'published-unmodified': 'unmodified',
};

/** The query without its `__status` filters, and the publication cohort they name (the last one). */
export function statusFilter(query: Query): { query: Query; publicationFilter?: string } {
  const filters = query.filters as { $and?: unknown } | undefined;
  if (!filters || !Array.isArray(filters.$and)) return { query };
  let publicationFilter: string | undefined;
  const rest: unknown[] = [];
  for (const filter of filters.$and) {
    const wanted = (filter as { __status?: { $eq?: unknown } } | null)?.__status?.$eq;
    if (wanted == null) {
      rest.push(filter);
      continue;
    }
    publicationFilter = COHORTS[String(wanted)];
    if (!publicationFilter)
      throw new ValidationError(`Invalid status filter: expected one of ${Object.keys(COHORTS).join(', ')}`);
  }
  if (publicationFilter === undefined) return { query };
  const { filters: _filters, ...others } = query;
  return { query: rest.length ? { ...others, filters: { ...filters, $and: rest } } : others, publicationFilter };
}
