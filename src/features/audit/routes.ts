/**
 * The audit log's admin API, at Strapi's paths and in its shapes: `GET /admin/audit-logs` (a page:
 * `{ results, pagination }`), `GET /admin/audit-logs/:id` (one entry), `GET /admin/audit-logs/users`
 * (the administrators who have entries, for the person filter), and Vellum's
 * `GET /admin/audit-logs/settings` (`{ retentionDays }`). An administrator only.
 */
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import { MAX_PAGE_SIZE, parseAuditQuery } from './query.js';
import type { AuditReads } from './reads.js';

export interface AuditRoutesOptions {
  reads: AuditReads;
  retentionDays: number;
  /** The administrator behind an Authorization header (a 401 otherwise). */
  authenticate(authorization: string | string[] | undefined): Promise<number>;
  prefix?: string;
}

/** A page number or size of the users list: Strapi's defaults (1, 10), within bounds. */
function pageNumber(value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : fallback;
  return Math.min(Math.max(number, 1), max);
}

export function registerAuditRoutes(app: FastifyInstance, options: AuditRoutesOptions): void {
  const { reads, authenticate } = options;
  const base = `${options.prefix ?? '/admin'}/audit-logs`;
  void app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => {
      await authenticate(request.headers.authorization);
    });
    admin.get(base, async (request) => reads.list(parseAuditQuery(isPlainObject(request.query) ? request.query : {})));
    admin.get(`${base}/users`, async (request) => {
      const query = isPlainObject(request.query) ? request.query : {};
      const page = pageNumber(query.page, 1);
      const pageSize = pageNumber(query.pageSize, 10, MAX_PAGE_SIZE);
      const actors = await reads.actors();
      return {
        results: actors.slice((page - 1) * pageSize, page * pageSize),
        pagination: { page, pageSize, pageCount: Math.ceil(actors.length / pageSize), total: actors.length },
      };
    });
    admin.get(`${base}/settings`, async () => ({ data: { retentionDays: options.retentionDays } }));
    admin.get<{ Params: { id: string } }>(`${base}/:id`, async (request) => {
      const { id } = request.params;
      if (!/^\d{1,15}$/.test(id)) throw new NotFoundError(`No audit log entry ${id}`);
      return reads.get(Number(id));
    });
  });
}
