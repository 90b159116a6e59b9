/**
 * Relation values that name an entry by its numeric `id` (a number, a string of digits, `{id}`,
 * in `set`, `connect`, `disconnect` or a position's `before`/`after`), as Strapi 5 accepts them.
 * An id names one row (one version, one locale) of the target; Vellum links documents, so the id
 * stands for that row's document in that row's locale. Strapi links the row itself: a draft given
 * a published row's id links nothing it shows. An unknown id in `set` or `connect` is a 400 (as in
 * Strapi); in `disconnect` it disconnects nothing (as in Strapi).
 */
import type { Db } from '../../database/dialect.js';
import { ValidationError } from '../../errors.js';
import type { ContentType, RelationAttribute } from '../../schema/model.js';
import type { Position, RelationInput, RelationRef } from '../input.js';

type Path = (string | number)[];

/** The `before`/`after` anchor of a connect position (a documentId or an entry id), if any. */
export const anchorOf = (position: Position | undefined): string | number | undefined =>
  position && 'before' in position ? position.before : position && 'after' in position ? position.after : undefined;

/** Whether any ref or position anchor of the input names an entry id. */
function namesIds(input: RelationInput): boolean {
  const refs = [...(input.set ?? []), ...(input.connect ?? []), ...(input.disconnect ?? [])];
  return refs.some((ref) => ref.id !== undefined || typeof anchorOf(ref.position) === 'number');
}

/**
 * The input with every entry id replaced by its document (and locale, unless the ref names one).
 * `visible` false: the writer may not read `target`, whose ids are all unknown to it.
 */
export async function resolveEntryIds(
  db: Db,
  target: ContentType,
  attribute: RelationAttribute,
  input: RelationInput,
  visible = true,
): Promise<RelationInput> {
  if (!namesIds(input)) return input;
  const refs = [...(input.set ?? []), ...(input.connect ?? []), ...(input.disconnect ?? [])];
  const ids = new Set<number>();
  for (const ref of refs) {
    if (ref.id !== undefined) ids.add(ref.id);
    const anchor = anchorOf(ref.position);
    if (typeof anchor === 'number') ids.add(anchor);
  }
  const rows = visible
    ? await db
        .selectFrom(target.table)
        .select(['id', 'document_id', 'locale'])
        .where('id', 'in', [...ids])
        .execute()
    : [];
  const byId = new Map(
    rows.map((row) => [
      Number(row.id),
      { documentId: row.document_id as string, locale: (row.locale as string | null) ?? undefined },
    ]),
  );

  const fail = (path: Path, message: string, value: unknown): never => {
    throw ValidationError.fromFieldErrors([
      { path: [attribute.name, ...path], message, name: 'ValidationError', value },
    ]);
  };
  const resolve = (ref: RelationRef, path: Path): RelationRef | undefined => {
    let resolved = ref;
    if (ref.id !== undefined) {
      const row = byId.get(ref.id);
      if (!row) {
        if (path[0] === 'disconnect') return undefined;
        fail(path, `${attribute.name}: no ${target.singularName} with id ${ref.id}`, ref.id);
      }
      const { id: _id, ...rest } = ref;
      resolved = {
        ...rest,
        documentId: row!.documentId,
        locale: ref.locale ?? (target.localized ? row!.locale : undefined),
        byId: true,
      };
    }
    const anchor = anchorOf(ref.position);
    if (typeof anchor === 'number') {
      const row = byId.get(anchor);
      if (!row)
        fail(
          [...path, 'position'],
          `${attribute.name}: no ${target.singularName} with id ${anchor} to position against`,
          anchor,
        );
      resolved = {
        ...resolved,
        position: 'before' in ref.position! ? { before: row!.documentId } : { after: row!.documentId },
      };
    }
    return resolved;
  };
  const list = (refs: RelationRef[] | undefined, key: string) =>
    refs?.map((ref, i) => resolve(ref, [key, i])).filter((ref): ref is RelationRef => ref !== undefined);
  const output: RelationInput = {};
  if (input.set) output.set = list(input.set, 'set');
  if (input.connect) output.connect = list(input.connect, 'connect');
  if (input.disconnect) output.disconnect = list(input.disconnect, 'disconnect');
  return output;
}
