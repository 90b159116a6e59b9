/**
 * A document's versions rebuilt from their rows: each row holds what its write changed
 * (core/documents/history.ts), so the content of a version is the fold of its document's rows up
 * to it, in order. A `create` (or a `full` row, which retention writes when it deletes the rows
 * before it) starts again; an `update` sets the values it names and edits the relation lists;
 * `publish` and `unpublish` change the status only; `discard` goes back to the content last
 * published. The fold reads each row once: a document's rows are bounded by retention
 * (`history.maxVersionsPerDocument`).
 */
import type { HistoryRef, HistoryRelationChange } from '../../core/documents/service.js';
import type { ContentType } from '../../core/schema/model.js';

/** A version's content: attribute values, and each relation as the documents it names, in order. */
export interface FoldedState {
  values: Record<string, unknown>;
  relations: Record<string, HistoryRef[]>;
}

/** A row as the fold reads it. */
export interface ChainRow {
  id: number;
  kind: string;
  status: string;
  data: string;
  /** Its locale (null without i18n); rows without one fold as one locale. */
  locale?: string | null;
}

/** A row's data: `{ v, r }` (values, relation changes); a `full` row also `p`, the content last published. */
interface RowData {
  v?: Record<string, unknown>;
  r?: Record<string, HistoryRelationChange | HistoryRef[]>;
  p?: FoldedState | null;
}

const EMPTY: FoldedState = { values: {}, relations: {} };

const sameRef = (a: HistoryRef, b: HistoryRef): boolean => a.documentId === b.documentId && a.locale === b.locale;

const bare = (ref: HistoryRef): HistoryRef => ({ documentId: ref.documentId, locale: ref.locale });

/** A relation's list after a change (`set` replaces; `disconnect`, then `connect` at its position). */
export function applyRelation(list: HistoryRef[], change: HistoryRelationChange | HistoryRef[]): HistoryRef[] {
  if (Array.isArray(change)) return change.map(bare);
  let next = change.set ? change.set.map(bare) : [...list];
  for (const ref of change.disconnect ?? []) next = next.filter((item) => !sameRef(item, ref));
  for (const ref of change.connect ?? []) {
    next = next.filter((item) => !sameRef(item, ref));
    const position = ref.position;
    let at = next.length;
    if (position && 'start' in position) at = 0;
    else if (position && 'before' in position) {
      const found = next.findIndex((item) => item.documentId === position.before);
      if (found >= 0) at = found;
    } else if (position && 'after' in position) {
      const found = next.findIndex((item) => item.documentId === position.after);
      if (found >= 0) at = found + 1;
    }
    next.splice(at, 0, bare(ref));
  }
  return next;
}

function parse(text: string): RowData {
  try {
    const data = JSON.parse(text) as unknown;
    return data && typeof data === 'object' ? (data as RowData) : {};
  } catch {
    return {};
  }
}

/** The attributes a localized type's locales share: non-localized, relations excepted (shared-attributes.ts's rule). */
export function sharedNames(type: ContentType): Set<string> {
  if (!type.localized) return new Set();
  return new Set(
    Object.values(type.attributes)
      .filter((attribute) => !attribute.localized && attribute.kind !== 'relation')
      .map((attribute) => attribute.name),
  );
}

/** The values of `values` whose names are in `names` (`true`) or not (`false`). */
function part(values: Record<string, unknown> | undefined, names: ReadonlySet<string>, inside: boolean) {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([name]) => names.has(name) === inside));
}

export interface FoldedDocument {
  /** Each row's content, by row id. */
  states: Map<number, FoldedState>;
  /** The content its locale had published just before each row (null: nothing published): what a `full` row keeps. */
  publishedBefore: Map<number, FoldedState | null>;
}

/**
 * Each row's content for rows given in order (oldest first) of one document, every locale.
 * `shared`: the attributes the locales share (non-localized scalars, media, components, zones),
 * one value per document as the writes keep them (core/documents/operations/shared-attributes.ts):
 * a write in any locale sets them for all, publishing a locale publishes them for all, a discarded
 * draft brings back the published ones for all. The rest belongs to the row's locale.
 */
export function foldDocument(rows: readonly ChainRow[], shared: ReadonlySet<string> = new Set()): FoldedDocument {
  const states = new Map<number, FoldedState>();
  const publishedBefore = new Map<number, FoldedState | null>();
  const locals = new Map<string | null, FoldedState>();
  const publishedLocal = new Map<string | null, FoldedState | null>();
  let sharedValues: Record<string, unknown> = {};
  let publishedShared: Record<string, unknown> = {};
  const merged = (local: FoldedState): FoldedState => ({
    values: { ...local.values, ...sharedValues },
    relations: local.relations,
  });
  for (const row of rows) {
    const locale = row.locale ?? null;
    const data = parse(row.data);
    const before = publishedLocal.get(locale);
    publishedBefore.set(
      row.id,
      before ? { values: { ...before.values, ...publishedShared }, relations: before.relations } : null,
    );
    let local = locals.get(locale) ?? EMPTY;
    const relations = (base: Record<string, HistoryRef[]>) => {
      const next = { ...base };
      for (const [name, change] of Object.entries(data.r ?? {})) next[name] = applyRelation(next[name] ?? [], change);
      return next;
    };
    const own = part(data.v, shared, false);
    const common = part(data.v, shared, true);
    switch (row.kind) {
      case 'create':
        local = { values: own, relations: relations({}) };
        sharedValues = { ...sharedValues, ...common };
        break;
      case 'full':
        local = { values: own, relations: relations({}) };
        sharedValues = { ...sharedValues, ...common };
        if (data.p) {
          publishedLocal.set(locale, { values: part(data.p.values, shared, false), relations: data.p.relations });
          publishedShared = { ...publishedShared, ...part(data.p.values, shared, true) };
        } else publishedLocal.set(locale, null);
        break;
      case 'update':
        local = { values: { ...local.values, ...own }, relations: relations(local.relations) };
        sharedValues = { ...sharedValues, ...common };
        break;
      case 'unpublish':
        publishedLocal.set(locale, null);
        break;
      case 'discard': {
        const published = publishedLocal.get(locale);
        if (published) {
          local = published;
          sharedValues = { ...sharedValues, ...publishedShared };
        }
        break;
      }
      default:
        break;
    }
    if (row.status === 'published') {
      publishedLocal.set(locale, local);
      // Every shared attribute, those never set as null: a discard brings back exactly these.
      publishedShared = Object.fromEntries([...shared].map((name) => [name, sharedValues[name] ?? null]));
    }
    locals.set(locale, local);
    states.set(row.id, merged(local));
  }
  return { states, publishedBefore };
}

/** A `full` row's data for `state` (retention's rewrite of the oldest row it keeps). */
export function fullData(state: FoldedState, published: FoldedState | null): string {
  return JSON.stringify({ v: state.values, r: state.relations, p: published });
}
