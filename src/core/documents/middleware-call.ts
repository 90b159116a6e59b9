/**
 * A facade call through the Document Service middlewares (`CallHooks`, filled by the Strapi
 * runtime), after the stored locales are read again when the call names a code this node does
 * not know yet. Without middlewares the call runs as it is.
 */
import type { ContentType } from '../schema/model.js';
import type { DocumentContext } from './context.js';
import type { DocumentParams } from './params.js';

export function throughMiddlewares<T>(
  ctx: DocumentContext,
  type: ContentType,
  action: string,
  params: DocumentParams,
  call: (params: DocumentParams) => Promise<T>,
): Promise<T> {
  const run = (): Promise<T> => {
    const middlewares = ctx.middlewares;
    if (!middlewares?.active) return call(params);
    // `context.params` shows the status a call without one reads or writes (published, as REST).
    let shown = params;
    if (params.status === undefined) {
      const { status: _status, ...rest } = params;
      shown = { status: 'published', ...rest };
    }
    return middlewares.run(type, action, shown, call) as Promise<T>;
  };
  const refresh = ctx.locales?.refreshFor(params);
  return refresh ? refresh.then(run) : run();
}
