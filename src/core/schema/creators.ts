/**
 * The creator fields (`createdBy`, `updatedBy`) of a content-type with `options.populateCreatorFields`:
 * its rows' `created_by_id` and `updated_by_id` name administrators, rows of Strapi's `admin_users`
 * (features/users-permissions keeps that table). They can be populated on the content API, with
 * the administrator's public fields only, as Strapi 5.54 answers them (checked on it: `id`,
 * `documentId`, `firstname`, `lastname`, `username`, `preferedLanguage`, `createdAt`, `updatedAt`,
 * `publishedAt`; never the email, password, codes or state). Without the option they never appear.
 */
import type { ContentType, Model, ScalarAttribute } from './model.js';

export const CREATOR_FIELDS = { createdBy: 'created_by_id', updatedBy: 'updated_by_id' } as const;
export type CreatorField = keyof typeof CREATOR_FIELDS;

const scalar = (name: string, column: string): ScalarAttribute => ({
  kind: 'scalar',
  name,
  type: 'string',
  column,
  unique: false,
  required: false,
  private: false,
  localized: false,
  configurable: false,
});

const scalars = [
  scalar('firstname', 'firstname'),
  scalar('lastname', 'lastname'),
  scalar('username', 'username'),
  scalar('preferedLanguage', 'prefered_language'),
];

/** Strapi's `admin::user` as the creator fields show it: a read-only model over `admin_users`. */
export const CREATOR_MODEL: ContentType = {
  modelType: 'contentType',
  kind: 'collectionType',
  uid: 'admin::user',
  displayName: 'User',
  collectionName: 'admin_users',
  table: 'admin_users',
  componentLinkTable: 'admin_users_cmps',
  attributes: Object.fromEntries(scalars.map((attribute) => [attribute.name, attribute])),
  scalars,
  file: '(built-in) admin::user',
  singularName: 'user',
  pluralName: 'users',
  draftAndPublish: false,
  localized: false,
  populateCreatorFields: false,
  managerVisible: false,
  builderVisible: false,
  builtIn: true,
};

/**
 * Strapi's `admin::user` attributes that are private: a filter on them is refused with their path
 * (`Invalid key email at createdBy.email`), unknown names with the creator field's.
 */
export const ADMIN_PRIVATE_FIELDS = new Set([
  'email',
  'password',
  'resetPasswordToken',
  'registrationToken',
  'isActive',
  'roles',
  'blocked',
]);

/** Whether `name` is a creator field `model` shows (its type sets `populateCreatorFields`). */
export const isCreatorField = (model: Model, name: string): name is CreatorField =>
  (name === 'createdBy' || name === 'updatedBy') && model.modelType === 'contentType' && model.populateCreatorFields;
