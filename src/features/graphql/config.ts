import { z } from 'zod';
import { asRecord } from '../../core/objects.js';
import { parseConfig } from '../../core/config/validate.js';

/** `config/plugins` -> `graphql.config`, with the defaults of a new Strapi project (docs/graphql.md, docs/decisions.md "The contract"). */
export interface GraphqlConfig {
  endpoint: string;
  shadowCRUD: boolean;
  /** GraphiQL at the endpoint for browsers; on outside production unless forced. */
  playground: boolean;
  depthLimit: number;
  amountLimit: number;
  /** Estimated result items an operation may ask for (lists multiply by their page size). */
  costLimit: number;
  /** Root fields (aliases and fragments included) one operation may have; refused before it runs. */
  maxRootFields: number;
  introspection: boolean;
  /**
   * Whether error messages leave out graphql-js' "Did you mean ...?" suggestions, which name fields,
   * arguments, types and enum values to whoever guesses near them: on in production, as Apollo's
   * `hideSchemaDetailsFromClientErrors` (read from `apolloServer`) when it is set.
   */
  hideSuggestions: boolean;
  /**
   * Apollo's CSRF prevention, on in Strapi 5.54 (`apolloServer.csrfPrevention`): the headers one
   * of which a request without a JSON (non-simple) content type must carry; null when switched off.
   */
  csrfPreventionHeaders: readonly string[] | null;
  /**
   * true: the earlier shape (`data { id attributes }`); false: Strapi 5's flat shape.
   * Unset, a project depending on `@strapi/strapi` 5 gets the flat shape, any other the earlier one.
   */
  v4CompatibilityMode: boolean;
}

/**
 * Items an operation may return, estimated before executing (limits.ts) and counted while
 * executing. A page of 100 documents with four nested lists is estimated at 10,100; 1,000 aliases
 * of a page of 100 at 100,000.
 */
const DEFAULT_COST_LIMIT = 25_000;

const schema = z.object({
  endpoint: z.string().startsWith('/').default('/graphql'),
  shadowCRUD: z.boolean().default(true),
  playgroundAlways: z.boolean().default(false),
  // Strapi 5's successor of playgroundAlways: true, false, or a function of `strapi` answering one.
  landingPage: z.unknown().optional(),
  depthLimit: z.number().int().positive().default(10),
  amountLimit: z.number().int().positive().default(100),
  costLimit: z.number().int().positive().default(DEFAULT_COST_LIMIT),
  // A page of a real front end has a few dozen; 5,000 aliased article(id) took 5.6-7.1 s and 100 MB.
  maxRootFields: z.number().int().positive().default(100),
  introspection: z.boolean().optional(),
  v4CompatibilityMode: z.boolean().optional(),
  // Apollo-specific settings of a Strapi project are accepted; hideSchemaDetailsFromClientErrors and csrfPrevention are read.
  apolloServer: z
    .object({
      hideSchemaDetailsFromClientErrors: z.boolean().optional(),
      csrfPrevention: z
        .union([z.boolean(), z.object({ requestHeaders: z.array(z.string()).optional() }).passthrough()])
        .optional(),
    })
    .passthrough()
    .optional(),
});

/** Apollo's `recommendedCsrfPreventionRequestHeaders`. */
const CSRF_HEADERS = ['x-apollo-operation-name', 'apollo-require-preflight'];

/** Apollo Server 4's reading of `csrfPrevention`: on unless false, with its own headers when given. */
function csrfHeaders(setting: boolean | { requestHeaders?: string[] } | undefined): readonly string[] | null {
  if (setting === false) return null;
  if (setting === true || setting === undefined) return CSRF_HEADERS;
  return setting.requestHeaders ?? CSRF_HEADERS;
}

/** As Strapi decides: playgroundAlways or landingPage true win, then landingPage false, then the environment. */
function playgroundOn(playgroundAlways: boolean, landingPage: unknown, production: boolean): boolean {
  if (playgroundAlways || landingPage === true) return true;
  if (landingPage === undefined) return !production;
  // A function gets Strapi's `strapi`; Vellum has none to give, and serves no custom landing page.
  if (typeof landingPage !== 'function') return false;
  try {
    return (landingPage as (strapi: unknown) => unknown)(undefined) === true;
  } catch {
    return false;
  }
}

/**
 * @param strapiMajor the major version of `@strapi/strapi` the project's package.json depends on:
 * 5 and later make Strapi 5's flat shape the default, as Strapi's own default is.
 */
export function parseGraphqlConfig(
  plugins: Record<string, unknown>,
  environment: string,
  strapiMajor?: number,
): GraphqlConfig {
  const section = asRecord(plugins.graphql);
  const { playgroundAlways, landingPage, introspection, apolloServer, v4CompatibilityMode, ...rest } = parseConfig(
    schema,
    asRecord(section.config),
    'config/plugins',
    'graphql.config.',
  );
  const production = environment === 'production';
  return {
    ...rest,
    v4CompatibilityMode: v4CompatibilityMode ?? !(strapiMajor !== undefined && strapiMajor >= 5),
    playground: playgroundOn(playgroundAlways, landingPage, production),
    introspection: introspection ?? !production,
    hideSuggestions: apolloServer?.hideSchemaDetailsFromClientErrors ?? production,
    csrfPreventionHeaders: csrfHeaders(apolloServer?.csrfPrevention),
  };
}
