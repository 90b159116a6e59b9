/**
 * The audit log: every administrator's change recorded in the change's own transaction (the trail
 * the document service and the admin routes record through), listed by the admin API
 * (`/admin/audit-logs`) and `vellum audit`, kept `auditLogs.retentionDays` by a leased job.
 */
import type { Database } from '../../core/database/connection.js';
import { AuditReads } from './reads.js';
import { AuditRetention, type RetentionJob } from './retention.js';
import { AuditLog, type IdentifyActor } from './trail.js';

export { auditTables } from './tables.js';
export { AuditLog, type ActorIdentity, type IdentifyActor } from './trail.js';
export { AuditReads } from './reads.js';
export { AuditRetention, retentionDays, type RetentionJob } from './retention.js';
export { parseAuditQuery, COUNT_CAP, MAX_PAGE_SIZE, type AuditQuery } from './query.js';
/** The audit log's admin routes, loaded with the admin API's first request (app/admin-api.ts). */
export const loadAuditRoutes = async () => (await import('./routes.js')).registerAuditRoutes;
export type { AuditLogEntry, AuditLogPage, AuditLogUser } from './contract.js';

export interface Audit {
  /** Where changes are recorded (the document service's and the services' trail). */
  log: AuditLog;
  reads: AuditReads;
  retention: AuditRetention;
  retentionDays: number;
  /** The leased retention job, for the node's scheduler. */
  job: RetentionJob;
}

/** The audit log of a node or a command, keeping entries `days` (retentionDays of `config/admin`, read before the database opens). */
export function createAudit(database: Database, days: number, identify: IdentifyActor): Audit {
  const retention = new AuditRetention(database, days);
  return {
    log: new AuditLog(database, identify),
    reads: new AuditReads(database.system),
    retention,
    retentionDays: days,
    job: retention.job(),
  };
}
