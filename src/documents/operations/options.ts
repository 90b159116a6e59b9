import type { Status } from '../../query/types.js';

/** The version a write targets: resolved status and locale (null for types without i18n). */
export interface WriteOptions {
  status: Status;
  locale: string | null;
}
