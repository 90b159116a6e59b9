/**
 * Document Service middlewares, as Strapi 5's `strapi.documents.use(middleware)`: each call of the
 * facade (findMany, findFirst, findOne, count, create, update, delete, publish, unpublish,
 * discardDraft), whoever makes it (REST, GraphQL, project code), runs through them in the order
 * they were added. A middleware gets `context` (`uid`, `contentType`, `action`, `params`) and
 * `next`; the call runs with `context.params` as the middlewares left it, and answers what the
 * first middleware answers. As in Strapi, changing `context.uid` or `context.action` changes
 * nothing. Without middlewares the facade calls the operation directly.
 */
import type { CallHooks } from '../core/documents/hooks.js';
import type { ContentType } from '../core/schema/model.js';
import { modelMetadata, type ModelMetadata } from './lifecycles.js';

export interface DocumentMiddlewareContext {
  uid: string;
  contentType: ModelMetadata;
  action: string;
  params: Record<string, unknown>;
}

export type DocumentMiddleware = (context: DocumentMiddlewareContext, next: () => Promise<unknown>) => unknown;

export class DocumentMiddlewares implements CallHooks {
  private readonly list: DocumentMiddleware[] = [];

  /** Adds a middleware; returns the function that removes it. */
  use(middleware: DocumentMiddleware): () => void {
    if (typeof middleware !== 'function')
      throw new TypeError('A document middleware must be a function (context, next) => ...');
    this.list.push(middleware);
    return () => {
      const at = this.list.indexOf(middleware);
      if (at >= 0) this.list.splice(at, 1);
    };
  }

  get active(): boolean {
    return this.list.length > 0;
  }

  /** Runs the middlewares around `call`, which gets `context.params` as they left it. */
  async run<T>(
    type: ContentType,
    action: string,
    params: Record<string, unknown>,
    call: (params: Record<string, unknown>) => Promise<T>,
  ): Promise<unknown> {
    const context: DocumentMiddlewareContext = { uid: type.uid, contentType: modelMetadata(type), action, params };
    const list = [...this.list];
    let index = 0;
    const next = async (): Promise<unknown> =>
      index < list.length ? list[index++]!(context, next) : call(context.params);
    return next();
  }
}
