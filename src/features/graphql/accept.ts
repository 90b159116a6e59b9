/**
 * The media type of a GraphQL answer, from the request's `Accept`, as Apollo Server 4 (Strapi
 * 5.54's) chooses it: `chooseContentTypeForSingleResultResponse`, which asks negotiator 0.6 to
 * pick among JSON, `application/graphql-response+json` (the GraphQL-over-HTTP media type) and
 * JSON with the callback spec. No `Accept` (or an empty one) is JSON; an `Accept` none of them
 * satisfies is null, which Apollo answers with a 406 once the operation has run (docs/graphql.md
 * "Requests"). The answers are pinned in accept.test.ts from Apollo's own function.
 */

export const APPLICATION_JSON = 'application/json; charset=utf-8';
export const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json; charset=utf-8';
const GRAPHQL_CALLBACK_JSON = 'application/json; callbackSpec=1.0; charset=utf-8';

/** What Apollo offers, in its order (the order breaks ties). */
const OFFERED = [APPLICATION_JSON, GRAPHQL_RESPONSE_JSON, GRAPHQL_CALLBACK_JSON];

interface Range {
  type: string;
  subtype: string;
  params: Record<string, string | undefined>;
  q: number;
  /** Its position in the header. */
  order: number;
}

const MEDIA_RANGE = /^\s*([^\s/;]+)\/([^;\s]+)\s*(?:;(.*))?$/;

/** Splits on `separator` outside double quotes (negotiator's splitMediaTypes and splitParameters). */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts = text.split(separator);
  const joined: string[] = [parts[0]!];
  for (const part of parts.slice(1)) {
    const last = joined.length - 1;
    if ((joined[last]!.split('"').length - 1) % 2 === 0) joined.push(part);
    else joined[last] += separator + part;
  }
  return joined;
}

/** One media range (negotiator's parseMediaType): parameters up to `q`, whose value is the quality. */
function parseRange(text: string, order: number): Range | null {
  const match = MEDIA_RANGE.exec(text);
  if (!match) return null;
  const params: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  let q = 1;
  if (match[3] !== undefined) {
    for (const parameter of splitOutsideQuotes(match[3], ';').map((piece) => piece.trim())) {
      const equals = parameter.indexOf('=');
      const key = (equals < 0 ? parameter : parameter.slice(0, equals)).toLowerCase();
      const raw = equals < 0 ? undefined : parameter.slice(equals + 1);
      const value = raw !== undefined && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
      if (key === 'q') {
        // Whatever follows is an accept extension, not a parameter.
        q = parseFloat(value ?? '');
        break;
      }
      params[key] = value;
    }
  }
  return { type: match[1]!, subtype: match[2]!, params, q, order };
}

interface Priority {
  /** Specificity: 4 the type matched, 2 the subtype, 1 the parameters. */
  s: number;
  q: number;
  /** The range's position in the header. */
  o: number;
  /** The offer's position. */
  i: number;
}

/** How a range matches an offer (negotiator's specify), or null. */
function specify(offered: Range, range: Range, index: number): Priority | null {
  let s = 0;
  if (range.type.toLowerCase() === offered.type.toLowerCase()) s |= 4;
  else if (range.type !== '*') return null;
  if (range.subtype.toLowerCase() === offered.subtype.toLowerCase()) s |= 2;
  else if (range.subtype !== '*') return null;
  const keys = Object.keys(range.params);
  if (keys.length > 0) {
    const all = keys.every(
      (key) =>
        range.params[key] === '*' ||
        (range.params[key] ?? '').toLowerCase() === (offered.params[key] ?? '').toLowerCase(),
    );
    if (!all) return null;
    s |= 1;
  }
  return { s, q: range.q, o: range.order, i: index };
}

const PARSED_OFFERS = OFFERED.map((offer) => parseRange(offer, 0)!);

/**
 * Answers by header, at most `KEPT` of them: clients send a handful of distinct values, and a parse
 * took 5-9 us here (a load of 19), 0.03-0.1 us from this map; once or twice per GraphQL request.
 */
const answers = new Map<string, string | null>();
const KEPT = 100;

/** The media type to answer in, or null when the `Accept` allows none of Apollo's. */
export function responseMediaType(accept: string | undefined): string | null {
  if (!accept) return APPLICATION_JSON;
  let answer = answers.get(accept);
  if (answer === undefined) {
    answer = negotiate(accept);
    if (answers.size >= KEPT) answers.clear();
    answers.set(accept, answer);
  }
  return answer;
}

function negotiate(accept: string): string | null {
  const ranges = splitOutsideQuotes(accept, ',')
    .map((text, order) => parseRange(text.trim(), order))
    .filter((range): range is Range => range !== null);
  const priorities = OFFERED.map((_offer, index) => {
    // The most specific range that matches, then the highest quality, then the first in the header.
    let best: Priority = { s: 0, q: 0, o: -1, i: index };
    for (const range of ranges) {
      const spec = specify(PARSED_OFFERS[index]!, range, index);
      if (spec && (best.s - spec.s || best.q - spec.q || best.o - spec.o) < 0) best = spec;
    }
    return best;
  });
  const accepted = priorities
    .filter((priority) => priority.q > 0)
    .sort((a, b) => b.q - a.q || b.s - a.s || a.o - b.o || a.i - b.i);
  return accepted.length > 0 ? OFFERED[accepted[0]!.i]! : null;
}
