/**
 * The order of a relation list after a `connect`/`disconnect` write, as Strapi 5.54 computes it
 * (@strapi/database's entity manager and relations-orderer, read and checked against the real
 * server). Keys are opaque strings: the caller maps targets (or, on the inverse side, owners) to
 * keys and anchors to the same keys.
 *
 * - `disconnect` removes, except what the same write also connects (that is a move).
 * - A `before`/`after` anchor that this write disconnects is replaced by the nearest surviving
 *   neighbour of the anchor, so the item lands where the removed one was.
 * - `connect` items apply one after the other; an item anchored on an item connected later in the
 *   same list waits for it (a topological order); an anchor that is neither linked nor connected
 *   is refused ("needs to be connected first"), or, with `options: { strict: false }`, puts the
 *   item at the end.
 * - An item without a position, or with `end`, goes to the end, also when it is already linked
 *   (it moves); `start` to the front.
 * - The same target twice with the same position is connected once; with different positions it
 *   is refused; a cycle of anchors is refused.
 */

export type OrderPosition = { before: string } | { after: string } | { start: true } | { end: true };

export interface ConnectStep {
  key: string;
  position?: OrderPosition;
  /** Where the step came from in the body (its index in `connect`), for error paths. */
  index: number;
}

/** A connect list Strapi refuses; `index` is the offending item's place in `connect`. */
export class ConnectOrderError extends Error {
  constructor(
    message: string,
    readonly index: number,
    readonly key: string,
    /** Set when the item's anchor is neither linked nor connected (the caller names it). */
    readonly unconnectedAnchor?: string,
  ) {
    super(message);
  }
}

const anchorOf = (position: OrderPosition | undefined): string | undefined =>
  position && 'before' in position ? position.before : position && 'after' in position ? position.after : undefined;

const samePosition = (a: OrderPosition | undefined, b: OrderPosition | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Exact repeats dropped; the same key at two different positions refused. */
function withoutRepeats(connect: ConnectStep[]): ConnectStep[] {
  const byKey = new Map<string, ConnectStep>();
  const out: ConnectStep[] = [];
  for (const step of connect) {
    const earlier = byKey.get(step.key);
    if (earlier && samePosition(earlier.position, step.position)) continue;
    if (earlier)
      throw new ConnectOrderError(
        `The relation with id ${step.key} is already connected. You cannot connect the same relation twice.`,
        step.index,
        step.key,
      );
    byKey.set(step.key, step);
    out.push(step);
  }
  return out;
}

/** Anchors on removed items move to the removed item's nearest surviving neighbour. */
function reanchored(current: string[], removed: Set<string>, connect: ConnectStep[]): ConnectStep[] {
  const connected = new Set(connect.map((step) => step.key));
  const groups = new Map<string, { before: ConnectStep[]; after: ConnectStep[] }>();
  for (const step of connect) {
    const anchor = anchorOf(step.position);
    if (anchor === undefined || !removed.has(anchor) || !current.includes(anchor)) continue;
    const group = groups.get(anchor) ?? { before: [], after: [] };
    groups.set(anchor, group);
    ('before' in step.position! ? group.before : group.after).push(step);
  }
  if (groups.size === 0) return connect;
  const neighbour = (anchor: string, direction: 1 | -1): string | undefined => {
    for (let i = current.indexOf(anchor) + direction; i >= 0 && i < current.length; i += direction) {
      const candidate = current[i]!;
      if (!removed.has(candidate) && !connected.has(candidate)) return candidate;
    }
    return undefined;
  };
  const moved = new Map<ConnectStep, OrderPosition>();
  for (const [anchor, { before, after }] of groups) {
    let previous = neighbour(anchor, -1);
    const next = neighbour(anchor, 1);
    for (const step of [...before, ...after]) {
      moved.set(
        step,
        previous !== undefined ? { after: previous } : next !== undefined ? { before: next } : { start: true },
      );
      previous = step.key;
    }
  }
  return connect.map((step) => (moved.has(step) ? { ...step, position: moved.get(step)! } : step));
}

/** Strapi's sortConnectArray: each item after the connect item it is anchored on. */
function sorted(connect: ConnectStep[], linked: Set<string>, strict: boolean): ConnectStep[] {
  const earlier = new Set<string>();
  let needsSorting = false;
  for (const step of connect) {
    const anchor = anchorOf(step.position);
    if (anchor === undefined || (!linked.has(anchor) && !earlier.has(anchor))) needsSorting = true;
    earlier.add(step.key);
  }
  if (!needsSorting) return connect;
  const byKey = new Map(connect.map((step) => [step.key, step]));
  const done = new Set<string>();
  const out: ConnectStep[] = [];
  const visit = (step: ConnectStep, branch: Set<string>): void => {
    const anchor = anchorOf(step.position);
    if (anchor !== undefined && branch.has(anchor)) {
      throw new ConnectOrderError(
        'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
        step.index,
        step.key,
      );
    }
    if (done.has(step.key)) return;
    done.add(step.key);
    if (anchor === undefined || linked.has(anchor)) return void out.push(step);
    const anchorStep = byKey.get(anchor);
    if (anchorStep) {
      visit(anchorStep, new Set([...branch, step.key]));
      out.push(step);
    } else if (strict) {
      throw new ConnectOrderError(
        `The relation with id ${step.key} needs its anchor ${anchor} to be connected first.`,
        step.index,
        step.key,
        anchor,
      );
    } else out.push({ ...step, position: { end: true } });
  };
  for (const step of connect) visit(step, new Set());
  return out;
}

/** The list after a partial write (`connect` and `disconnect`), from the current list; `strict: false` is Strapi's `options: { strict: false }`. */
export function orderAfterConnect(
  current: string[],
  disconnect: string[],
  connect: ConnectStep[],
  strict = true,
): string[] {
  const steps = withoutRepeats(connect);
  const connected = new Set(steps.map((step) => step.key));
  const removed = new Set(disconnect.filter((key) => !connected.has(key)));
  const positioned = reanchored(current, removed, steps);
  let list = current.filter((key) => !removed.has(key));
  for (const step of sorted(positioned, new Set(list), strict)) {
    list = list.filter((key) => key !== step.key);
    const position = step.position;
    if (!position || 'end' in position) list.push(step.key);
    else if ('start' in position) list.unshift(step.key);
    else {
      const anchor = anchorOf(position)!;
      const at = list.indexOf(anchor);
      // Only an item anchored on itself gets here (Strapi answers a 500).
      if (at < 0)
        throw new ConnectOrderError(
          `The relation with id ${step.key} cannot be positioned relative to itself.`,
          step.index,
          step.key,
        );
      list.splice('before' in position ? at : at + 1, 0, step.key);
    }
  }
  return list;
}

/** The list a `set` gives: its order, each target once (the first time it is named). */
export const orderAfterSet = (keys: string[]): string[] => [...new Set(keys)];
