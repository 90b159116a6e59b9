/** What the admin panel (admin/src) reads of webhooks: a webhook and its delivery log entries. */
export type { Webhook } from './webhooks.js';
export type { DeliveryLogEntry } from './delivery.js';
