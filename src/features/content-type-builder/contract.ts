/**
 * What the admin panel (admin/src) reads of the Content-Type Builder's API and sends to it:
 * `GET /content-type-builder/schema` (format.ts `describeSchema`), `GET /reserved-names`
 * (strings.ts) and the batch of `POST /update-schema` (validation.ts). A refused batch answers
 * `400 {"error": "<message>"}`; outside `vellum develop` every write answers 403 `PolicyError`.
 */

/** An attribute as the schema file writes it, with its name (a relation with `targetAttribute`). */
export interface BuilderAttribute {
  name: string;
  type: string;
  [option: string]: unknown;
}

export interface BuilderContentType {
  uid: string;
  modelName: string;
  kind: 'collectionType' | 'singleType';
  globalId: string;
  options: { draftAndPublish?: boolean; [option: string]: unknown };
  pluginOptions?: Record<string, unknown>;
  plugin?: string;
  collectionName?: string;
  info: { displayName: string; singularName: string; pluralName: string; description?: string };
  modelType: 'contentType';
  attributes: BuilderAttribute[];
  /** False for Strapi's own types the builder does not show. */
  visible: boolean;
  /** The relation kinds other types may make to this one: null for any, [] for none. */
  restrictRelationsTo: string[] | null;
}

export interface BuilderComponent {
  uid: string;
  modelName: string;
  globalId: string;
  modelType: 'component';
  collectionName: string;
  category: string;
  info: { displayName: string; icon?: string; description?: string };
  attributes: BuilderAttribute[];
}

/** `GET /content-type-builder/schema`'s `data`: every model by uid. */
export interface BuilderSchema {
  contentTypes: Record<string, BuilderContentType>;
  components: Record<string, BuilderComponent>;
}

/** `GET /content-type-builder/reserved-names`: snake case; an entry ending in `*` is a prefix. */
export interface ReservedNames {
  models: string[];
  attributes: string[];
}

export type AttributeChange =
  | { action: 'create' | 'update'; name: string; properties: Record<string, unknown> }
  | { action: 'delete'; name: string };

export type ContentTypeChange =
  | {
      action: 'create' | 'update';
      uid: string;
      kind: 'collectionType' | 'singleType';
      displayName: string;
      /** Read on creation only: the names never change afterwards. */
      singularName?: string;
      pluralName?: string;
      description?: string;
      draftAndPublish: boolean;
      pluginOptions?: Record<string, unknown>;
      attributes: AttributeChange[];
    }
  | { action: 'delete'; uid: string };

export type ComponentChange =
  | {
      action: 'create' | 'update';
      uid: string;
      category: string;
      displayName: string;
      icon?: string;
      description?: string;
      attributes: AttributeChange[];
    }
  | { action: 'delete'; uid: string };

/** `POST /content-type-builder/update-schema`'s body: answered `{}` once written. */
export interface UpdateSchemaBody {
  data: { components: ComponentChange[]; contentTypes: ContentTypeChange[] };
}
