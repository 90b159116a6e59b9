/**
 * The model of expected state for the sequence properties (test/properties/sequences.test.ts):
 * documents of a localized draft-and-publish type as the content API should hold them, one
 * version (attribute values, normalized as a read answers them) per locale and status, and the
 * order rules of a relation list. Pure functions: every frame condition the properties check is
 * written here once, as what a write leaves unchanged.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Version = Record<string, Json>;
export interface LocaleVersions {
  draft: Version;
  published: Version | null;
}

export interface Doc {
  /** Its name in a printed sequence: doc0, doc1, ... */
  name: string;
  documentId: string;
  locales: Map<string, LocaleVersions>;
}

/** What the model must know of a content-type. */
export interface TypeSpec {
  plural: string;
  defaultLocale: string;
  /** Every compared attribute, with its value in a version that never set it (schema default, null or []). */
  initial: Version;
  /** Attributes the locales share (`localized` not true, relations excepted): one value per status. */
  shared: ReadonlySet<string>;
}

const clone = <T extends Json>(value: T): T => structuredClone(value);

export class Model {
  readonly docs: Doc[] = [];
  constructor(readonly spec: TypeSpec) {}

  /** Documents that still have a locale. */
  get live(): Doc[] {
    return this.docs.filter((doc) => doc.locales.size > 0);
  }

  private sharedOf(version: Version): Version {
    return Object.fromEntries(Object.entries(version).filter(([name]) => this.spec.shared.has(name)));
  }

  /** POST (in `locale`); without `draftOnly` the new draft is published at once. */
  create(name: string, documentId: string, locale: string, data: Version, draftOnly: boolean): void {
    const draft = { ...clone(this.spec.initial), ...clone(data) };
    this.docs.push({
      name,
      documentId,
      locales: new Map([[locale, { draft, published: draftOnly ? null : clone(draft) }]]),
    });
  }

  /**
   * A partial PUT of one locale: the names in `data` change, nothing else. A locale the document
   * lacks starts from the shared values of the document's other drafts (a null sent for one of
   * them counts as left out). Shared values written reach
   * every other locale's draft. Without `draftOnly`, the locale is published afterwards.
   */
  update(doc: Doc, locale: string, data: Version, draftOnly: boolean): void {
    let versions = doc.locales.get(locale);
    if (!versions) {
      // A new locale takes the shared values its body leaves out or sends as null (docs/rest.md "Writes: relations and locales").
      data = Object.fromEntries(
        Object.entries(data).filter(([name, value]) => !(this.spec.shared.has(name) && value === null)),
      );
      const source = [...doc.locales.values()][0];
      const draft = { ...clone(this.spec.initial), ...(source ? this.sharedOf(clone(source.draft)) : {}) };
      versions = { draft, published: null };
      doc.locales.set(locale, versions);
    }
    Object.assign(versions.draft, clone(data));
    const written = this.sharedOf(data);
    for (const [other, { draft }] of doc.locales) if (other !== locale) Object.assign(draft, clone(written));
    if (!draftOnly) this.publish(doc, locale);
  }

  /** The published version becomes a copy of the draft; the other published locales take its shared values. */
  publish(doc: Doc, locale: string): void {
    const versions = doc.locales.get(locale)!;
    versions.published = clone(versions.draft);
    const shared = this.sharedOf(versions.draft);
    for (const [other, { published }] of doc.locales)
      if (other !== locale && published) Object.assign(published, clone(shared));
  }

  /** Removes the published version; the draft stays as it is. */
  unpublish(doc: Doc, locale: string): void {
    doc.locales.get(locale)!.published = null;
  }

  /** The draft becomes a copy of the published version; the other drafts take its shared values. */
  discard(doc: Doc, locale: string): void {
    const versions = doc.locales.get(locale)!;
    versions.draft = clone(versions.published!);
    const shared = this.sharedOf(versions.draft);
    for (const [other, { draft }] of doc.locales) if (other !== locale) Object.assign(draft, clone(shared));
  }

  /** Both versions of the locale go; the other locales stay as they are. */
  delete(doc: Doc, locale: string): void {
    doc.locales.delete(locale);
  }

  /** Every version the type should hold in `status`: documentId, locale and values. */
  rows(status: 'draft' | 'published'): { doc: Doc; locale: string; version: Version }[] {
    const rows: { doc: Doc; locale: string; version: Version }[] = [];
    for (const doc of this.docs) {
      for (const [locale, versions] of doc.locales) {
        const version = status === 'draft' ? versions.draft : versions.published;
        if (version) rows.push({ doc, locale, version });
      }
    }
    return rows;
  }
}

/** A position in a `connect` item, naming other entries by key. */
export type Position = { start: true } | { end: true } | { before: string } | { after: string };

/**
 * The list a `connect` leaves (Strapi's documented order rules): items are placed one after the
 * other; an item without position goes to the end, an entry already linked moves there.
 */
export function connect(list: readonly string[], items: readonly { key: string; position?: Position }[]): string[] {
  const result = [...list];
  for (const { key, position } of items) {
    const at = result.indexOf(key);
    if (at >= 0) result.splice(at, 1);
    if (!position || 'end' in position) result.push(key);
    else if ('start' in position) result.unshift(key);
    else if ('before' in position) result.splice(result.indexOf(position.before), 0, key);
    else result.splice(result.indexOf(position.after) + 1, 0, key);
  }
  return result;
}

export const disconnect = (list: readonly string[], keys: readonly string[]): string[] =>
  list.filter((key) => !keys.includes(key));

/**
 * The other side's list of one target after a `set` or `connect` on an owner: a link that stays
 * keeps its place there, a new link goes to the end, a removed one leaves (Strapi writes only the
 * written side's order column of links that already exist).
 */
export function inverseAfter(list: readonly string[], owner: string, linked: boolean): string[] {
  if (!linked) return list.filter((key) => key !== owner);
  return list.includes(owner) ? [...list] : [...list, owner];
}
