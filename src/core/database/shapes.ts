/**
 * Statements compiled once per shape. Kysely builds a tree of frozen nodes for every statement and
 * compiles it to text each time it runs (~7 µs a statement; ~18% of a whole `PUT`'s CPU with its
 * garbage, spread over ~20 call sites of the write path: docs/performance.md "Writes, fourth pass"). A call site
 * that runs the same statement for other values names its shape instead: a key for everything that
 * changes the text (tables, columns, how many values, which conditions), the values, and a builder
 * that Kysely compiles the first time with placeholders in place of the values. Every later run
 * binds the values to that compiled text and goes straight to the driver.
 *
 * Kept per database (a Kysely instance and its transactions share one dialect adapter, so the
 * dialect is in the key), at most `SHAPES` each, the oldest dropped first. Values are always bound,
 * never written into the text. `VELLUM_CHECK_SHAPES=1` (the integration tests) compiles every run
 * again and throws when the text or the placement of the values differs from the kept one: a key
 * that leaves out something the builder varies on.
 */
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';

// dialect.ts's Db, named here: dialect.ts compiles its inserts through this module.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

/** Shapes kept per database. The write path uses ~150 for the blog's types. */
export const SHAPES = 500;

/** Stands for the value at `index` while a shape is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

/** A bound parameter of a shape: the value at `slot`, or a constant the builder bound itself (a limit). */
type Parameter = { slot: number } | { constant: unknown };

interface Shape {
  compiled: CompiledQuery;
  parameters: Parameter[];
}

/** What a shape's builder makes: a query builder, or `sql` (a RawBuilder compiles against the database). */
export interface Buildable {
  compile(db: Db): CompiledQuery<unknown>;
}

const shapesOf = new WeakMap<object, Map<string, Shape>>();
const CHECK = process.env.VELLUM_CHECK_SHAPES === '1';

/**
 * The parts of a shape's key, each with its length, so that no two lists of parts give one key (a
 * part's type is the call site's: `true` and `'true'` at one place would meet).
 */
export const shapeKey = (...parts: readonly (string | number | boolean | null | undefined)[]): string => {
  let key = '';
  for (const part of parts) {
    if (part === undefined) key += '?';
    else if (part === null) key += '!';
    else {
      const text = String(part);
      key += `${text.length}:${text}`;
    }
  }
  return key;
};

function compileShape(
  db: Db,
  values: readonly unknown[],
  build: (slots: readonly unknown[]) => Buildable,
  prefix: string,
): Shape {
  const slots = values.map((_, index) => new Slot(index));
  const built = build(slots).compile(db);
  const compiled = prefix ? { ...built, sql: prefix + built.sql } : built;
  const used = new Set<number>();
  const parameters = compiled.parameters.map((parameter): Parameter => {
    if (!(parameter instanceof Slot)) return { constant: parameter };
    used.add(parameter.index);
    return { slot: parameter.index };
  });
  // A value the builder dropped or wrote into the text (sql.lit, sql.raw) is a bug of the call site.
  if (used.size !== values.length)
    throw new Error(`A statement shape binds ${used.size} of its ${values.length} values`);
  return { compiled, parameters };
}

const sameShape = (a: Shape, b: Shape): boolean =>
  a.compiled.sql === b.compiled.sql && JSON.stringify(a.parameters) === JSON.stringify(b.parameters);

/** The shapes kept for `db`'s database, or undefined where they cannot be shared (plugins). */
function shapes(db: Db): Map<string, Shape> | undefined {
  const executor = db.getExecutor();
  if (executor.plugins.length > 0) return undefined;
  let kept = shapesOf.get(executor.adapter);
  if (!kept) shapesOf.set(executor.adapter, (kept = new Map()));
  return kept;
}

/**
 * The statement of shape `key` with `values` bound, compiled from `build` the first time. `prefix`
 * goes before its text (the driver's marks, dialect.ts's ARRAY_ROWS and INLINE), kept with it.
 */
export function compiledShape(
  db: Db,
  key: string,
  values: readonly unknown[],
  build: (slots: readonly unknown[]) => Buildable,
  prefix = '',
): CompiledQuery {
  const kept = shapes(db);
  if (prefix) key = prefix + key;
  let shape = kept?.get(key);
  if (!shape) {
    shape = compileShape(db, values, build, prefix);
    if (kept) {
      if (kept.size >= SHAPES) kept.delete(kept.keys().next().value!);
      kept.set(key, shape);
    }
  } else if (CHECK && !sameShape(shape, compileShape(db, values, build, prefix))) {
    throw new Error(`The statement shape ${JSON.stringify(key)} compiled to another statement`);
  }
  const parameters = shape.parameters.map((parameter) =>
    'slot' in parameter ? values[parameter.slot] : parameter.constant,
  );
  return { ...shape.compiled, parameters };
}

/** Runs the statement of shape `key` with `values` bound (see compiledShape). */
export function runShape<R = Record<string, unknown>>(
  db: Db,
  key: string,
  values: readonly unknown[],
  build: (slots: readonly unknown[]) => Buildable,
): Promise<QueryResult<R>> {
  return db.executeQuery<R>(compiledShape(db, key, values, build) as CompiledQuery<R>);
}

/** How many shapes `db`'s database keeps (for tests). */
export const keptShapes = (db: Db): number => shapes(db)?.size ?? 0;
