/**
 * The releases' settings, as Strapi 5.54's content-releases settings service keeps them: one value
 * in the core store (`strapi.store({ type: 'core', name: 'content-releases' })`, key `settings`),
 * `{ defaultTimezone }`, null by default. A change that changes something is audited as
 * `release.settings.update` with `{ changes: { field: { before, after } } }`, in the same
 * transaction as the write.
 */
import type { Database } from '../../core/database/connection.js';
import { coreStore } from '../../core/database/store.js';
import { recordAudit, type Audited } from '../../core/documents/service.js';
import { isPlainObject } from '../../core/objects.js';
import type { ReleaseSettings as Settings } from './contract.js';
import { parseSettings } from './validation.js';

const DEFAULTS: Settings = { defaultTimezone: null };
const WHERE = { type: 'core', name: 'content-releases', key: 'settings' };

export class ReleaseSettingsStore {
  constructor(private readonly database: Database) {}

  private store() {
    return coreStore(
      () => this.database.db,
      (fn) => this.database.write(fn),
    );
  }

  /** `GET /content-releases/settings`: the stored settings over the defaults. */
  async find(): Promise<Settings> {
    const stored = await this.store().get(WHERE);
    return { ...DEFAULTS, ...(isPlainObject(stored) ? stored : {}) };
  }

  /** `PUT /content-releases/settings`: stores the body (checked) as the settings; answers it as given. */
  async update(body: unknown, audited?: Audited): Promise<Partial<Settings>> {
    const settings = parseSettings(body);
    const previous: Record<string, unknown> = { ...(await this.find()) };
    const next: Record<string, unknown> = settings;
    const changes: Record<string, { before: unknown; after: unknown }> = {};
    for (const key of new Set([...Object.keys(previous), ...Object.keys(next)])) {
      const before = previous[key] ?? null;
      const after = next[key] ?? null;
      if (before !== after) changes[key] = { before, after };
    }
    await this.store().set({ ...WHERE, value: settings }, async (trx) => {
      if (Object.keys(changes).length > 0)
        await recordAudit(trx, audited, {
          action: 'release.settings.update',
          subject: 'content-releases',
          changed: Object.keys(changes),
          details: { changes },
        });
    });
    return settings;
  }
}
