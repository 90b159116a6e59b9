/**
 * The attributes Strapi 5.54's loader adds to every content-type's schema, as its schema files never
 * write them: the timestamps, `publishedAt`, the creator fields (`createdBy`, `updatedBy`, one-way
 * relations to `admin::user`) and the locale fields. Strapi's export carries them in each schema
 * (features/transfer) and its content manager lists the timestamps and creator fields after a
 * model's own (features/content-type-builder); both take them from here. Fresh objects each call:
 * callers spread and extend them.
 */
import type { ContentType } from './model.js';

type RawAttribute = Record<string, unknown>;

/** The names of the timestamps and creator fields, in the order Strapi adds them. */
export const STRAPI_TIMESTAMPS = ['createdAt', 'updatedAt'] as const;
export const STRAPI_CREATOR_FIELDS = ['createdBy', 'updatedBy'] as const;

const creator = (): RawAttribute => ({
  type: 'relation',
  relation: 'oneToOne',
  target: 'admin::user',
  configurable: false,
  writable: false,
  visible: false,
  useJoinTable: false,
  private: true,
});

/** Every attribute Strapi's loader adds to `type`, in Strapi's order. */
export function strapiLoaderAttributes(
  type: Pick<ContentType, 'uid' | 'table' | 'localized'>,
): Record<string, RawAttribute> {
  return {
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    publishedAt: { type: 'datetime', configurable: false, writable: true, visible: true },
    createdBy: creator(),
    updatedBy: creator(),
    locale: { writable: true, private: !type.localized, configurable: false, visible: false, type: 'string' },
    localizations: {
      type: 'relation',
      relation: 'oneToMany',
      target: type.uid,
      writable: false,
      private: !type.localized,
      configurable: false,
      visible: false,
      unstable_virtual: true,
      joinColumn: { name: 'document_id', referencedColumn: 'document_id', referencedTable: type.table },
    },
  };
}
