/**
 * A document's versions rebuilt from their rows: each row holds what its write changed
 * (core/documents/history.ts), so the content of a version is the fold of its document's rows up
 * to it, in order. A `create` (or a `full` row, which retention writes when it deletes the rows
 * before it) starts again; an `update` sets the values it names and edits the relation lists;
 * `publish` and `unpublish` change the status only; `discard` goes back to the content last
 * published. The fold reads each row once: a document's chain is bounded by retention
 * (`history.maxVersionsPerDocument`).
 */
import type { HistoryRef, HistoryRelationChange } from '../../core/documents/service.js';

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

/** Each row's content, by row id, for rows given in order (oldest first) of one document and locale. */
export function foldChain(rows: readonly ChainRow[]): Map<number, FoldedState> {
  const states = new Map<number, FoldedState>();
  let state = EMPTY;
  let published: FoldedState | null = null;
  for (const row of rows) {
    const data = parse(row.data);
    const relations = (base: Record<string, HistoryRef[]>) => {
      const next = { ...base };
      for (const [name, change] of Object.entries(data.r ?? {})) next[name] = applyRelation(next[name] ?? [], change);
      return next;
    };
    switch (row.kind) {
      case 'create':
        state = { values: { ...data.v }, relations: relations({}) };
        break;
      case 'full':
        state = { values: { ...data.v }, relations: relations({}) };
        published = data.p ?? null;
        break;
      case 'update':
        state = { values: { ...state.values, ...data.v }, relations: relations(state.relations) };
        break;
      case 'unpublish':
        published = null;
        break;
      case 'discard':
        state = published ?? state;
        break;
      default:
        break;
    }
    if (row.status === 'published') published = state;
    states.set(row.id, state);
  }
  return states;
}

/** A `full` row's data for `state` (retention's rewrite of the oldest row it keeps). */
export function fullData(state: FoldedState, published: FoldedState | null): string {
  return JSON.stringify({ v: state.values, r: state.relations, p: published });
}

/** The content last published after the rows given (what `fullData` keeps for a later `discard`). */
export function publishedAfter(rows: readonly ChainRow[], states: Map<number, FoldedState>): FoldedState | null {
  let published: FoldedState | null = null;
  for (const row of rows) {
    if (row.kind === 'full') published = parse(row.data).p ?? null;
    if (row.kind === 'unpublish') published = null;
    if (row.status === 'published') published = states.get(row.id) ?? null;
  }
  return published;
}
