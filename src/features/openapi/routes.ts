/**
 * The document over HTTP: `GET /openapi.json` (the text `vellum openapi generate` writes) and
 * `GET /openapi`, the reference page rendered from it. Both public, and registered only where the
 * project serves them (docs/openapi.md "Serving the document"): the document names every
 * content-type and attribute, which a production site need not tell.
 */
import type { FastifyInstance } from 'fastify';
import { PAGE_CSP, referencePage } from './page.js';
import type { OpenApiDocument } from './spec.js';

const DOCUMENT_PATH = '/openapi.json';
const PAGE_PATH = '/openapi';

/** The document's text, as the CLI writes it (two-space JSON, as Strapi's command). */
export const documentText = (document: OpenApiDocument): string => JSON.stringify(document, null, 2);

/**
 * Registers both routes. `document` is called on the first request, once every route of the node
 * is registered (project routes come last), and its answer kept for the node's life: the routes
 * and the schema do not change under a running node (`vellum develop` starts a new one).
 */
export function registerOpenApiRoutes(app: FastifyInstance, document: () => OpenApiDocument): void {
  let built: { json: string; page: string } | undefined;
  const answers = () => {
    if (!built) {
      const value = document();
      built = { json: documentText(value), page: referencePage(value, DOCUMENT_PATH) };
    }
    return built;
  };
  app.get(DOCUMENT_PATH, async (_request, reply) => reply.type('application/json; charset=utf-8').send(answers().json));
  app.get(PAGE_PATH, async (_request, reply) =>
    reply.header('content-security-policy', PAGE_CSP).type('text/html; charset=utf-8').send(answers().page),
  );
}
