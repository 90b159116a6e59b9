/**
 * What Strapi 5.54 answered to `GET /content-manager/init` on the relation-matrix fixture, as its
 * super admin, taken on 2026-11-29 (Strapi started by test/differential/harness.ts on the project,
 * as test/differential/content-manager-models.diff.ts starts it; `/content-types` and `/components`
 * answered the same lists). Pinned by test/admin/content-manager-models.test.ts. Strapi's copy of
 * the project has no `oneWay` or `manyWay` relation (Strapi 5.54 refuses them in a schema), so they
 * are in none of these.
 */

/** `fieldSizes`, in full. */
export const FIELD_SIZES = {
  dynamiczone: { default: 12, isResizable: false },
  component: { default: 12, isResizable: false },
  json: { default: 12, isResizable: false },
  richtext: { default: 12, isResizable: false },
  blocks: { default: 12, isResizable: false },
  checkbox: { default: 4, isResizable: true },
  boolean: { default: 4, isResizable: true },
  date: { default: 4, isResizable: true },
  time: { default: 4, isResizable: true },
  biginteger: { default: 4, isResizable: true },
  decimal: { default: 4, isResizable: true },
  float: { default: 4, isResizable: true },
  integer: { default: 4, isResizable: true },
  number: { default: 4, isResizable: true },
  datetime: { default: 6, isResizable: true },
  email: { default: 6, isResizable: true },
  enumeration: { default: 6, isResizable: true },
  media: { default: 6, isResizable: true },
  password: { default: 6, isResizable: true },
  relation: { default: 6, isResizable: true },
  string: { default: 6, isResizable: true },
  text: { default: 6, isResizable: true },
  timestamp: { default: 6, isResizable: true },
  uid: { default: 6, isResizable: true },
};

/** The content-types it shows (`isDisplayed`), sorted: the project's and the content API's users. */
export const SHOWN = [
  'api::badge.badge',
  'api::guide.guide',
  'api::label.label',
  'api::owner.owner',
  'api::page.page',
  'api::target.target',
  'plugin::users-permissions.user',
];

/** The content-types it lists hidden, sorted: its plugins' and admin's internal types. */
export const HIDDEN = [
  'admin::api-token',
  'admin::api-token-permission',
  'admin::permission',
  'admin::role',
  'admin::session',
  'admin::transfer-token',
  'admin::transfer-token-permission',
  'admin::user',
  'plugin::content-releases.release',
  'plugin::content-releases.release-action',
  'plugin::i18n.locale',
  'plugin::review-workflows.workflow',
  'plugin::review-workflows.workflow-stage',
  'plugin::upload.file',
  'plugin::upload.folder',
  'plugin::users-permissions.permission',
  'plugin::users-permissions.role',
];

/** `api::owner.owner` in full: relations of every kind, components, a zone, the creator fields. */
export const OWNER = {
  uid: 'api::owner.owner',
  isDisplayed: true,
  apiID: 'owner',
  kind: 'collectionType',
  info: { singularName: 'owner', pluralName: 'owners', displayName: 'Owner' },
  options: { draftAndPublish: true },
  attributes: {
    id: { type: 'integer' },
    name: { type: 'string' },
    oneToOneBi: {
      type: 'relation',
      relation: 'oneToOne',
      target: 'api::target.target',
      inversedBy: 'oneToOneInv',
      targetModel: 'api::target.target',
      relationType: 'oneToOne',
    },
    oneToOneUni: {
      type: 'relation',
      relation: 'oneToOne',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'oneToOne',
    },
    oneToManyBi: {
      type: 'relation',
      relation: 'oneToMany',
      target: 'api::target.target',
      mappedBy: 'manyToOneInv',
      targetModel: 'api::target.target',
      relationType: 'oneToMany',
    },
    oneToManyUni: {
      type: 'relation',
      relation: 'oneToMany',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'oneToMany',
    },
    manyToOneBi: {
      type: 'relation',
      relation: 'manyToOne',
      target: 'api::target.target',
      inversedBy: 'oneToManyInv',
      targetModel: 'api::target.target',
      relationType: 'manyToOne',
    },
    manyToOneUni: {
      type: 'relation',
      relation: 'manyToOne',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'manyToOne',
    },
    manyToManyBi: {
      type: 'relation',
      relation: 'manyToMany',
      target: 'api::target.target',
      inversedBy: 'manyToManyInv',
      targetModel: 'api::target.target',
      relationType: 'manyToMany',
    },
    manyToManyUni: {
      type: 'relation',
      relation: 'manyToMany',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'manyToMany',
    },
    badge: {
      type: 'relation',
      relation: 'oneToOne',
      target: 'api::badge.badge',
      inversedBy: 'holder',
      targetModel: 'api::badge.badge',
      relationType: 'oneToOne',
    },
    labels: {
      type: 'relation',
      relation: 'manyToMany',
      target: 'api::label.label',
      targetModel: 'api::label.label',
      relationType: 'manyToMany',
    },
    block: { type: 'component', component: 'matrix.links', repeatable: false },
    blocks: { type: 'component', component: 'matrix.links', repeatable: true },
    zone: { type: 'dynamiczone', components: ['matrix.links', 'matrix.nested'] },
    createdAt: { type: 'datetime' },
    updatedAt: { type: 'datetime' },
    createdBy: {
      type: 'relation',
      relation: 'oneToOne',
      target: 'admin::user',
      configurable: false,
      writable: false,
      visible: false,
      useJoinTable: false,
      private: true,
      targetModel: 'admin::user',
      relationType: 'oneToOne',
    },
    updatedBy: {
      type: 'relation',
      relation: 'oneToOne',
      target: 'admin::user',
      configurable: false,
      writable: false,
      visible: false,
      useJoinTable: false,
      private: true,
      targetModel: 'admin::user',
      relationType: 'oneToOne',
    },
    documentId: { type: 'string' },
  },
};

/** The component `matrix.links` in full: relations inside a component. */
export const LINKS = {
  uid: 'matrix.links',
  isDisplayed: true,
  apiID: 'links',
  category: 'matrix',
  info: { displayName: 'Links' },
  attributes: {
    id: { type: 'integer' },
    caption: { type: 'string' },
    oneToOne: {
      type: 'relation',
      relation: 'oneToOne',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'oneToOne',
    },
    oneToMany: {
      type: 'relation',
      relation: 'oneToMany',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'oneToMany',
    },
    manyToOne: {
      type: 'relation',
      relation: 'manyToOne',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'manyToOne',
    },
    manyToMany: {
      type: 'relation',
      relation: 'manyToMany',
      target: 'api::target.target',
      targetModel: 'api::target.target',
      relationType: 'manyToMany',
    },
    documentId: { type: 'string' },
  },
};

/** The component `matrix.nested` in full: a component inside a component. */
export const NESTED = {
  uid: 'matrix.nested',
  isDisplayed: true,
  apiID: 'nested',
  category: 'matrix',
  info: { displayName: 'Nested' },
  attributes: {
    id: { type: 'integer' },
    heading: { type: 'string' },
    links: { type: 'component', component: 'matrix.links', repeatable: true },
    documentId: { type: 'string' },
  },
};
