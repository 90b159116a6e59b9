/**
 * The read budget: how many items (documents, components, media files, each counted once per
 * place in the answer) one read may return. A nested populate multiplies (a page of 100 articles,
 * each with its category, each with its articles, ...): without a budget one request could build
 * an answer of millions of documents. Items are counted level by level as they are read, and every
 * statement reads at most one row more than the budget still holds, so a read over it stops with a
 * CostLimitError before the next level exists, never after the answer is built.
 */
import { CostLimitError } from '../../errors.js';

export class ReadBudget {
  private used = 0;

  /**
   * @param limit the items the read may return
   * @param setting where the limit is configured, named in the error (`api.rest.costLimit`)
   */
  constructor(
    readonly limit: number,
    readonly setting: string,
  ) {}

  /** No limit: Vellum's own reads of what it wrote (a draft checked before publishing). */
  static unlimited(): ReadBudget {
    return new ReadBudget(Number.POSITIVE_INFINITY, 'none');
  }

  /**
   * The most rows one statement needs to read: one more than the budget holds tells it is over.
   * Undefined without a limit.
   */
  get statementLimit(): number | undefined {
    return Number.isFinite(this.limit) ? Math.max(0, this.limit - this.used) + 1 : undefined;
  }

  /** A statement read `rows` rows: more than the budget still holds ends the read. */
  read(rows: number): void {
    if (this.used + rows > this.limit) throw this.exceeded();
  }

  /** Counts `items` more items of the answer; over the limit, the read stops. */
  spend(items: number): void {
    this.used += items;
    if (this.used > this.limit) throw this.exceeded();
  }

  private exceeded(): CostLimitError {
    return new CostLimitError(
      `The answer would hold more than ${this.limit} documents, components and files (${this.setting}): ask for smaller pages, fewer populated relations or fewer levels`,
      { limit: this.limit, setting: this.setting },
    );
  }
}
