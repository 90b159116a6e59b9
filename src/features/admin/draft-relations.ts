/**
 * How many relations of documents' drafts point to documents with no published version: Strapi
 * 5.54's `countDraftRelations` and `countManyEntriesDraftRelations` (its document-manager and
 * `utils/draft`), which its panel asks before publishing one document or a selection ("N relations
 * are not published yet"). Each draft's relations to draft-and-publish types, directly or in its
 * components and dynamic zones (not to its own type, whose links publishing keeps), are read as
 * their targets' documentIds (and locale, for a localized target); a link counts when its target
 * has no published version (in that locale). Strapi counts bidirectional manyToMany links apart
 * (`draftM2mLinks`: publishing keeps them, they show once the target is published) from the others
 * (`unpublishedRelations`: publishing drops them); the count of many documents sums both. Two reads
 * per page of 100 documents, plus one per target type.
 */
import type { DocumentService, TypeDocuments } from '../../core/documents/service.js';
import { ReadBudget } from '../../core/documents/service.js';
import type { Document } from '../../core/documents/rows.js';
import type { ContentType, Model, Schema } from '../../core/schema/model.js';
import { isPlainObject } from '../../core/objects.js';

/** The documents one read takes (Strapi's largest page). */
const PAGE = 100;

type Populate = Record<string, unknown>;

/** Strapi's `getDeepPopulateDraftCount`: the relations that may point to a draft, and how to read them. */
function draftPopulate(schema: Schema, model: Model): Populate | undefined {
  const populate: Populate = {};
  for (const attribute of Object.values(model.attributes)) {
    if (attribute.kind === 'relation') {
      const target = schema.contentTypes.get(attribute.target);
      if (!target?.draftAndPublish || attribute.target === model.uid) continue;
      populate[attribute.name] = { fields: target.localized ? ['documentId', 'locale'] : ['documentId'] };
    } else if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      const inner = component && draftPopulate(schema, component);
      if (inner) populate[attribute.name] = { populate: inner };
    } else if (attribute.kind === 'dynamiczone') {
      const on: Populate = {};
      for (const uid of attribute.components) {
        const component = schema.components.get(uid);
        const inner = component && draftPopulate(schema, component);
        if (inner) on[uid] = { populate: inner };
      }
      if (Object.keys(on).length > 0) populate[attribute.name] = { on };
    }
  }
  return Object.keys(populate).length > 0 ? populate : undefined;
}

interface Link {
  target: ContentType;
  /** A bidirectional manyToMany link (Strapi's `isBidirectionalManyToMany`). */
  m2m: boolean;
  documentId: string;
  /** The target's locale (localized targets only): its own, else the linking draft's. */
  locale: string | null;
}

/** The links of one draft (or component) to draft-and-publish documents (Strapi's `collectDraftRelationLinks`). */
function linksOf(schema: Schema, model: Model, value: Document, locale: string | null, links: Link[]): void {
  for (const attribute of Object.values(model.attributes)) {
    const field = value[attribute.name];
    if (field === null || field === undefined) continue;
    if (attribute.kind === 'relation') {
      const target = schema.contentTypes.get(attribute.target);
      if (!target?.draftAndPublish || attribute.target === model.uid) continue;
      const m2m = attribute.relation === 'manyToMany' && Boolean(attribute.inversedBy || attribute.mappedBy);
      for (const entry of (Array.isArray(field) ? field : [field]) as Document[]) {
        if (typeof entry?.documentId !== 'string') continue;
        const entryLocale = typeof entry.locale === 'string' ? entry.locale : locale;
        links.push({ target, m2m, documentId: entry.documentId, locale: target.localized ? entryLocale : null });
      }
    } else if (attribute.kind === 'component') {
      const component = schema.components.get(attribute.component);
      if (!component) continue;
      for (const item of (Array.isArray(field) ? field : [field]) as Document[])
        linksOf(schema, component, item, locale, links);
    } else if (attribute.kind === 'dynamiczone' && Array.isArray(field)) {
      for (const item of field as Document[]) {
        const component = schema.components.get(String(item.__component));
        if (component) linksOf(schema, component, item, locale, links);
      }
    }
  }
}

const key = (documentId: string, locale: string | null) => `${documentId}\u0000${locale ?? ''}`;

/** The links of `links` that point to a document (or locale) without a published version. */
async function unpublished(service: DocumentService, links: Link[]): Promise<Link[]> {
  const found: Link[] = [];
  const byTarget = new Map<ContentType, Link[]>();
  for (const link of links) byTarget.set(link.target, [...(byTarget.get(link.target) ?? []), link]);
  for (const [target, targetLinks] of byTarget) {
    const ids = [...new Set(targetLinks.map((link) => link.documentId))];
    const published = new Set<string>();
    for (let start = 0; start < ids.length; start += PAGE) {
      const { results } = await service.of(target).findMany(
        {
          status: 'published',
          locale: target.localized ? '*' : undefined,
          filters: { documentId: { $in: ids.slice(start, start + PAGE) } },
          fields: target.localized ? ['documentId', 'locale'] : ['documentId'],
          pagination: { page: 1, pageSize: PAGE * (target.localized ? service.i18n.locales.length : 1) },
        },
        { budget: ReadBudget.unlimited() },
      );
      for (const version of results)
        published.add(key(String(version.documentId), target.localized ? String(version.locale) : null));
    }
    found.push(...targetLinks.filter((link) => !published.has(key(link.documentId, link.locale))));
  }
  return found;
}

/**
 * The documentIds a query names: `documentIds[0]=a&documentIds[1]=b`, `documentIds[]=a` or
 * `documentIds=a` (past the query parser's 100 indexes, an object of them).
 */
export function queriedIds(value: unknown): string[] {
  const listed = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? [value]
      : isPlainObject(value)
        ? Object.values(value)
        : [];
  return listed.filter((id): id is string => typeof id === 'string' && id !== '');
}

/** The drafts' links (in `locale`: the default one when none is named), read a page of documents at a time. */
async function draftLinks(
  service: DocumentService,
  type: ContentType,
  documentIds: string[],
  locale: unknown,
  populate: Populate,
): Promise<Link[]> {
  const documents: TypeDocuments = service.of(type);
  const ids = [...new Set(documentIds)];
  const links: Link[] = [];
  for (let start = 0; start < ids.length; start += PAGE) {
    const { results } = await documents.findMany(
      {
        // Drafts, as Strapi reads them: a type without draft and publish reads its relations' drafts too.
        status: 'draft',
        locale,
        filters: { documentId: { $in: ids.slice(start, start + PAGE) } },
        fields: type.localized ? ['documentId', 'locale'] : ['documentId'],
        populate,
        pagination: { page: 1, pageSize: PAGE },
      },
      { budget: ReadBudget.unlimited() },
    );
    for (const draft of results)
      linksOf(service.schema, type, draft, typeof draft.locale === 'string' ? draft.locale : null, links);
  }
  return links;
}

/** The drafts' links to unpublished documents, summed (in `locale`: the default one when none is named). */
export async function countManyDraftRelations(
  service: DocumentService,
  type: ContentType,
  documentIds: string[],
  locale: unknown,
): Promise<number> {
  const populate = draftPopulate(service.schema, type);
  if (!populate) return 0;
  return (await unpublished(service, await draftLinks(service, type, documentIds, locale, populate))).length;
}

/** Strapi's answer for one document: its draft's links to unpublished documents, in two counts. */
export interface DraftRelationCounts {
  unpublishedRelations: number;
  draftM2mLinks: number;
}

/** Strapi's `EMPTY_DRAFT_RELATION_COUNTS`. */
export const NO_DRAFT_RELATIONS: DraftRelationCounts = { unpublishedRelations: 0, draftM2mLinks: 0 };

/** One document's draft (in `locale`): its links to unpublished documents; none when it has no draft there. */
export async function countDraftRelations(
  service: DocumentService,
  type: ContentType,
  documentId: string,
  locale: unknown,
): Promise<DraftRelationCounts> {
  const populate = draftPopulate(service.schema, type);
  if (!populate) return NO_DRAFT_RELATIONS;
  const links = await unpublished(service, await draftLinks(service, type, [documentId], locale, populate));
  const draftM2mLinks = links.filter((link) => link.m2m).length;
  return { unpublishedRelations: links.length - draftM2mLinks, draftM2mLinks };
}
