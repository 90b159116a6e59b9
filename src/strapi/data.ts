/**
 * The data side of the `strapi` object project code receives (strapi.ts makes the rest):
 * `strapi.db` (query engine, lifecycles), `strapi.query(uid)` (v4's name for `strapi.db.query`),
 * `strapi.entityService`, `strapi.store`, and `strapi.documents.use(middleware)`. The registries (lifecycles, document
 * middlewares) exist from the start, so `register` may subscribe; the rest works once the node's
 * database is open (`start`).
 */
import type { CoreStore } from '../core/database/store.js';
import type { DocumentService } from '../core/documents/service.js';
import type { DocumentMiddleware, DocumentMiddlewares } from './document-middlewares.js';
import type { Lifecycles } from './lifecycles.js';
import type { Schema } from '../core/schema/model.js';
import { createStrapiDb } from './database.js';
import { createEntityService, type EntityDocuments } from './entity-service.js';
import { createStrapiStore } from './store.js';

export interface DataServices {
  documents: DocumentService;
  store: CoreStore;
}

export interface DataApis {
  /** Gives the APIs the node's services, once its database is open. */
  start(services: DataServices): void;
}

export function attachDataApis(
  strapi: Record<string, unknown>,
  options: {
    schema: Schema;
    lifecycles: Lifecycles;
    middlewares: DocumentMiddlewares;
    warn: (message: string) => void;
  },
): DataApis {
  let services: DataServices | undefined;
  const running = (what: string): DataServices => {
    if (!services)
      throw new Error(`${what} is available from bootstrap on, once the database is open (not during register)`);
    return services;
  };
  const db = createStrapiDb(options.schema, options.lifecycles, () => services?.documents.engine, options.warn);
  const use = (middleware: DocumentMiddleware) => {
    options.middlewares.use(middleware);
    return strapi.documents;
  };
  // `strapi.documents(uid)` (strapi.ts: Strapi 5's Document Service) gets its `use`.
  const documents = strapi.documents as (uid: string) => EntityDocuments;
  Object.assign(documents, { use });
  Object.assign(strapi, {
    db,
    query: (uid: string) => db.query(uid),
    entityService: createEntityService(
      options.schema,
      (uid) => documents(uid),
      (uid) => db.query(uid),
    ),
    store: createStrapiStore(() => running('strapi.store').store),
  });
  return {
    start(given) {
      services = given;
    },
  };
}
