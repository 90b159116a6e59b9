/**
 * Automatic persisted queries, as Apollo Server 4 keeps them for Strapi 5.54 (on by default, in
 * memory): a query sent with its SHA-256 is kept once its document is valid, and a later request
 * may send the hash alone. A hash not kept answers `PersistedQueryNotFound`, and the client sends
 * the query again with it. Each node keeps its own, as each Strapi process does.
 */
import { createHash } from 'node:crypto';

/** Apollo's bounded cache holds 30 MiB; here the queries' characters together. */
const MAX_CHARACTERS = 30 * 2 ** 20;

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export class PersistedQueries {
  /** By hash, least recently used first. */
  private readonly queries = new Map<string, string>();
  private characters = 0;

  constructor(private readonly maxCharacters = MAX_CHARACTERS) {}

  get(hash: string): string | undefined {
    const query = this.queries.get(hash);
    if (query !== undefined) {
      this.queries.delete(hash);
      this.queries.set(hash, query);
    }
    return query;
  }

  keep(hash: string, query: string): void {
    if (query.length > this.maxCharacters) return;
    const previous = this.queries.get(hash);
    if (previous !== undefined) {
      this.queries.delete(hash);
      this.characters -= previous.length;
    }
    this.queries.set(hash, query);
    this.characters += query.length;
    for (const [oldest, kept] of this.queries) {
      if (this.characters <= this.maxCharacters) break;
      this.queries.delete(oldest);
      this.characters -= kept.length;
    }
  }
}
