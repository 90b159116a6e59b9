/**
 * Events leaving the node: webhooks (their store is the documents' outbox; delivery from every
 * node), cron jobs run once per tick across nodes, and scheduled publishing. Nodes keep no state:
 * everything is in the database, and every node runs the same workers.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { VellumConfig } from '../../core/config/load.js';
import type { Database } from '../../core/database/connection.js';
import type { DocumentService } from '../../core/documents/service.js';
import { configFail, CronService, every, LeaseScheduler } from './cron.js';
import { Deliveries } from './delivery.js';
import { ScheduledActions } from './schedules.js';
import type { WebhookStore } from './webhooks.js';

export { eventTables } from './tables.js';
export { WebhookStore, type Webhook } from './webhooks.js';
export { CronService } from './cron.js';
export { callWebhook, type DeliveryLogEntry } from './delivery.js';
export type { Deliveries } from './delivery.js';
export { ScheduledActions, type ScheduledAction } from './schedules.js';

type Log = (message: string, error?: unknown) => void;

/** The file a project's cron tasks come from, to name it in errors: `config/cron-tasks.*` when there is one (Strapi's place), else `config/server`. */
function tasksFile(projectDir: string): string {
  for (const ext of ['.js', '.ts', '.cjs', '.mjs'])
    if (existsSync(join(projectDir, 'config', `cron-tasks${ext}`))) return `config/cron-tasks${ext}`;
  return 'config/server';
}

/** `config/server` `cron.tasks` when `cron.enabled`, checked now: a bad task stops start-up naming its file and key. */
export function addConfiguredTasks(cron: CronService, config: VellumConfig): void {
  if (config.server.cron.enabled) cron.add(config.server.cron.tasks, configFail(tasksFile(config.projectDir)));
}

export interface NodeEvents {
  deliveries: Deliveries;
  schedules: ScheduledActions;
  scheduler: LeaseScheduler;
  /** Starts this node's workers: webhook delivery, the cron jobs (the project's and Vellum's own). */
  start(strapi: unknown): void;
  stop(): Promise<void>;
}

export interface EventsOptions {
  database: Database;
  config: VellumConfig;
  documents: DocumentService;
  webhooks: WebhookStore;
  cron: CronService;
  log: Log;
}

const HOUR = 3_600_000;

/** This node's webhook delivery, cron jobs and scheduled actions; nothing runs until `start`. */
export function createEvents(options: EventsOptions): NodeEvents {
  const { database, config, documents, webhooks, cron, log } = options;
  const deliveries = new Deliveries(database, config.server.webhooks, log);
  const scheduler = new LeaseScheduler(database, log);
  const schedules = new ScheduledActions(database, documents, log);
  // Scheduled actions are one-entry releases: the releases' leased job publishes them.
  scheduler.add({
    key: 'vellum:webhook-log',
    next: every(HOUR),
    due: () => deliveries.prunable(),
    run: () => deliveries.prune(),
  });
  let off: (() => void) | undefined;
  return {
    deliveries,
    schedules,
    scheduler,
    start(strapi) {
      cron.attach(scheduler, { strapi });
      cron.start();
      scheduler.start();
      off = webhooks.onCommitted(() => deliveries.kick());
      deliveries.start();
    },
    async stop() {
      off?.();
      cron.stop();
      await Promise.all([scheduler.stop(), deliveries.stop()]);
    },
  };
}
export { registerAdminEventRoutes, type AdminEvents } from './admin-routes.js';
