/**
 * The root fields of one query operation run a few at a time. graphql-js starts every root field
 * of an operation in one synchronous pass: 100 aliased `article(id)` parsed, compiled and sent
 * their statements in one turn of the event loop, and `/_health` waited behind it (max 88 ms,
 * `npm run bench:attack`, 100,000 articles, two such operations in flight). With a few at a time
 * each answer from the database starts the next root field, and other requests are served in
 * between. Two reader threads (SQLite) or a pool of ten connections are kept busy by four.
 */
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';

const ROOT_CONCURRENCY = 4;

/** Counts the root fields running for one operation; the others wait their turn, in order. */
export class RootSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await work();
    } finally {
      // The slot passes to the next waiting field as it is (running stays the same), or frees.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** The part of the context (GraphqlContext) this wrapper keeps its slots in. */
interface SlotsContext {
  rootSlots?: RootSlots;
}

/** Wraps every field of the schema's query type: its resolver runs in one of the operation's slots. */
export function limitRootConcurrency(schema: GraphQLSchema, size = ROOT_CONCURRENCY): void {
  const query = schema.getQueryType();
  if (!query) return;
  for (const field of Object.values(query.getFields())) {
    const resolve: GraphQLFieldResolver<unknown, SlotsContext> = field.resolve ?? defaultFieldResolver;
    field.resolve = (source, args, context: SlotsContext, info) => {
      context.rootSlots ??= new RootSlots(size);
      return context.rootSlots.run(() => resolve(source, args, context, info));
    };
  }
}
