/**
 * The reads that compare a Strapi with the Vellum its content moved to (or back): every type's
 * documents in every locale and status, populated, filtered, one by one, with users, files and
 * locales. Answers are compared whole, row ids aside (each database numbers its rows).
 */
export const PAGE = 'pagination[pageSize]=100&sort[0]=documentId:asc';
const LOCALIZED = `${PAGE}&sort[1]=locale:asc`;

const ARTICLE_POPULATE =
  'populate[author][populate][0]=avatar&populate[category]=true&populate[tags]=true&populate[cover]=true&populate[gallery]=true' +
  '&populate[seo][populate][0]=shareImage&populate[links]=true&populate[blocks][on][shared.media][populate][0]=file' +
  '&populate[blocks][on][shared.quote]=true&populate[blocks][on][shared.rich-text]=true';

/** Paths on the content API, for a project with the blog's schema. */
export const BLOG_QUERIES: string[] = [
  `/api/articles?${LOCALIZED}&${ARTICLE_POPULATE}`,
  `/api/articles?${LOCALIZED}&status=draft&${ARTICLE_POPULATE}`,
  `/api/articles?${LOCALIZED}&locale=fr&${ARTICLE_POPULATE}`,
  `/api/articles?${LOCALIZED}&locale=fr&status=draft`,
  `/api/articles?${LOCALIZED}&locale=de`,
  `/api/articles?${LOCALIZED}&filters[views][$gt]=500&fields[0]=title&fields[1]=views`,
  `/api/articles?${LOCALIZED}&filters[tags][name][$contains]=1&populate[tags]=true`,
  `/api/articles?${LOCALIZED}&filters[author][name][$startsWith]=A&populate[author]=true`,
  `/api/articles?${LOCALIZED}&filters[kind][$eq]=news&status=draft&fields[0]=title&fields[1]=kind`,
  `/api/articles?pagination[page]=2&pagination[pageSize]=7&sort=views:desc&fields[0]=views`,
  `/api/authors?${PAGE}&populate[avatar]=true&populate[articles][fields][0]=title`,
  `/api/categories?${PAGE}&populate[articles][fields][0]=title&populate[articles][sort][0]=documentId`,
  `/api/tags?${PAGE}&populate[articles][fields][0]=title&populate[articles][sort][0]=documentId`,
  `/api/global?populate[defaultSeo][populate][0]=shareImage`,
  `/api/upload/files?sort[0]=hash:asc`,
  `/api/i18n/locales`,
  `/api/users?sort=username`,
];

/** Strapi answers these without a stable order or with ids only: left out of the comparison. */
const DROPPED = new Set(['id']);

/** An answer without row ids (each database numbers its rows), for comparison. */
export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (DROPPED.has(key)) continue;
      out[key] = normalize(inner);
    }
    return out;
  }
  return value;
}

/** One document's reads, for every documentId a list answered. */
export const findOneQueries = (plural: string, documentId: string, locale?: string | null): string[] => [
  `/api/${plural}/${documentId}?populate=*${locale ? `&locale=${locale}` : ''}`,
  `/api/${plural}/${documentId}?status=draft&populate=*${locale ? `&locale=${locale}` : ''}`,
];
