/**
 * Who asks, as one content-type's documents see the caller (type-documents.ts): what it may read
 * (ParseOptions, drafts), the read budget it spends, and the change groups its reads note for the
 * response cache. The first step of every call, before the middlewares and the lifecycle events.
 */
import type { RestConfig } from '../config/load.js';
import { ForbiddenError } from '../errors.js';
import type { ParseOptions } from '../query/parse/index.js';
import type { FindOneQuery } from '../query/types.js';
import type { ContentType } from '../schema/model.js';
import type { CallerOptions, DocumentContext } from './context.js';
import { readDependencies } from './dependencies.js';
import type { DocumentParams } from './params.js';
import { ReadBudget } from './read/budget.js';

export class Callers {
  /** ParseOptions of a caller without read restrictions: the same object every time. */
  private readonly open: ParseOptions;

  constructor(
    private readonly ctx: DocumentContext,
    private readonly type: ContentType,
    private readonly rest: RestConfig,
  ) {
    this.open = { rest, i18n: ctx.i18n };
  }

  /** The caller's budget, or one of `api.rest.costLimit` for this read alone. */
  budget(caller: CallerOptions | undefined): ReadBudget {
    return caller?.budget ?? new ReadBudget(this.rest.costLimit, 'api.rest.costLimit');
  }

  /** The one place ParseOptions are built: `api.rest` pagination, the locales, what the caller may read. */
  parseOptions(caller: CallerOptions | undefined): ParseOptions {
    return caller?.canRead ? { ...this.open, canRead: caller.canRead } : this.open;
  }

  /**
   * The caller of a read as `params` ask it. A read of drafts (`status: 'draft'`) or of publication
   * cohorts (which tell whether a document has a draft) needs the caller's `canReadDrafts` for this
   * type, or it is a 403. In a read of drafts, relations to the draft-and-publish types whose drafts
   * it may not read are left out, as those it may not read (their drafts would show).
   */
  reader(params: DocumentParams, caller: CallerOptions | undefined): CallerOptions | undefined {
    const drafts = caller?.canReadDrafts;
    if (!drafts) return caller;
    const cohorts =
      (params.publicationFilter !== undefined && params.publicationFilter !== null) ||
      (params.hasPublishedVersion !== undefined && params.hasPublishedVersion !== null);
    if (this.type.draftAndPublish && (params.status === 'draft' || cohorts) && !drafts(this.type)) {
      throw new ForbiddenError(`This caller may not read drafts of ${this.type.uid}`);
    }
    return draftReader(caller, params.status === 'draft');
  }

  /**
   * The caller as project code sees the documents (`cacheable` false: a middleware or a lifecycle
   * subscriber may see them): such code reads json values as values, not as the raw text REST
   * copies into its answers.
   */
  seen(caller: CallerOptions | undefined, cacheable: boolean): CallerOptions {
    return caller?.rawJson && !cacheable ? { canRead: caller.canRead, budget: caller.budget } : (caller ?? {});
  }

  /**
   * `query`, its change groups noted where the caller collects them (`CallerOptions.dependsOn`),
   * limited to the documents the caller created when it may read only those (`createdBy`).
   */
  noted<Q extends FindOneQuery>(caller: CallerOptions | undefined, query: Q): Q {
    const into = caller?.dependsOn;
    if (into) for (const group of readDependencies(this.ctx.schema, this.type, query)) into.add(group);
    const limited = caller?.createdBy === undefined ? query : { ...query, createdBy: caller.createdBy };
    return caller?.unlinkedFrom === undefined ? limited : { ...limited, unlinkedFrom: caller.unlinkedFrom };
  }
}

/**
 * The caller of a read of drafts (`draft`), when it says whose drafts it may read: it reads the
 * types whose drafts it may read among those it may read. The caller itself otherwise.
 */
export function draftReader(caller: CallerOptions | undefined, draft: boolean): CallerOptions | undefined {
  const drafts = caller?.canReadDrafts;
  if (!draft || !drafts) return caller;
  const { canRead } = caller;
  return { ...caller, canRead: (type) => (!canRead || canRead(type)) && (!type.draftAndPublish || drafts(type)) };
}
