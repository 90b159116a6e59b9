/**
 * A project opened for an import or an export, without HTTP: its configuration, schema and
 * database (synchronised as a starting node synchronises it), the document service with the
 * stored locales, users-and-permissions, and the media library's storage provider. The app opens
 * it (src/app/open-project.ts): transfer knows no Strapi runtime.
 */
import type { VellumConfig } from '../../core/config/load.js';
import type { Database } from '../../core/database/connection.js';
import type { DocumentService } from '../../core/documents/service.js';
import type { Schema } from '../../core/schema/model.js';
import type { Auth } from '../users-permissions/index.js';
import type { UploadConfig, UploadProvider } from '../upload/index.js';

/** A webhook as archives carry it (Strapi's `strapi::webhook`, never Vellum's signing secret). */
export interface TransferWebhook {
  name: string;
  url: string;
  headers: Record<string, string>;
  events: string[];
  isEnabled: boolean;
}

export interface TransferProject {
  dir: string;
  config: VellumConfig;
  schema: Schema;
  database: Database;
  documents: DocumentService;
  auth: Auth;
  upload: UploadConfig;
  provider: UploadProvider;
  /** The project's webhooks: listed for an export, created (checked as the admin API checks them) by an import. */
  webhooks: {
    list(): Promise<TransferWebhook[]>;
    create(webhook: TransferWebhook): Promise<void>;
  };
  /** The locales config/plugins lists. */
  configuredLocales: string[];
  /** The project's schema file of a model as written (built-in types: undefined). */
  rawSchema(file: string): Record<string, unknown> | undefined;
  close(): Promise<void>;
}
