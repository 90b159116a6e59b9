/**
 * A type's i18n turned on or off: its release actions' locales follow, as Strapi 5.54's
 * content-releases sets them when it syncs its content-types: turned on, every action of the type
 * gets the default locale (`enableContentTypeLocalized`), turned off, none
 * (`disableContentTypeLocalized`; two actions of one document in two locales then both name it
 * without a locale, as Strapi leaves them). In every release, published ones too; statuses follow
 * from the re-check the changed schema brings (revalidate.ts).
 */
import type { Database } from '../../core/database/connection.js';
import { shaped } from '../../core/database/system-tables.js';
import type { ContentType } from '../../core/schema/model.js';
import { RELEASE_ACTIONS_TABLE, type ReleaseActionRow } from './tables.js';

/** One statement per type, in one transaction: running it again (another node) changes nothing. */
export async function alignActionLocales(
  database: Database,
  types: readonly ContentType[],
  defaultLocale: string,
): Promise<void> {
  if (types.length === 0) return;
  await database.write(async (trx) => {
    for (const type of types) {
      const update = shaped<ReleaseActionRow>(trx)
        .updateTable(RELEASE_ACTIONS_TABLE)
        .where('content_type', '=', type.uid);
      if (type.localized) await update.set({ locale: defaultLocale }).where('locale', 'is', null).execute();
      else await update.set({ locale: null }).where('locale', 'is not', null).execute();
    }
  });
}
