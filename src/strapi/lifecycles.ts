/**
 * Database lifecycles, as Strapi's `strapi.db.lifecycles`: subscribers see an event before and
 * after each read or write of a content-type's rows (`beforeCreate`, `afterCreate`, ...,
 * `afterCount`). As in Strapi they fire per database row, not per document: a published create
 * writes a draft row and a published row, so it fires `beforeCreate`/`afterCreate` twice.
 *
 * The core calls it through its LifecycleHooks (core/documents/hooks.ts). It is empty by default,
 * and every caller asks `covers(uid)` first, so a project without subscribers pays one
 * array-length check per call. Project code subscribes (lifecycles files, `strapi.db.lifecycles.subscribe`).
 *
 * A subscriber is a function (called for every event of every model) or an object of handlers
 * by action, optionally limited to `models` (uids). `event.state` is kept per subscriber between
 * the `before` and the `after` of one event. A handler that throws aborts the read or write (a
 * write rolls back: nothing is written).
 */
import type { LifecycleAction, LifecycleHooks, LifecycleStates } from '../core/documents/hooks.js';
import type { Attribute, ContentType } from '../core/schema/model.js';

export { LIFECYCLE_ACTIONS, type LifecycleAction, type LifecycleStates } from '../core/documents/hooks.js';

/** What `event.model` shows of a content-type: Strapi's database metadata, in its shape. */
export interface ModelMetadata {
  uid: string;
  singularName: string;
  tableName: string;
  attributes: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface LifecycleEvent {
  action: LifecycleAction;
  model: ModelMetadata;
  /** The query's parameters (`where`, `data`, `select`, `populate`, ...): a `before` handler may change them. */
  params: Record<string, unknown>;
  /** `after` handlers only: what the query answers; a handler may change or replace it. */
  result?: unknown;
  /** Shared by the `before` and `after` of one event, per subscriber. */
  state: Record<string, unknown>;
}

type Handler = (event: LifecycleEvent) => unknown;
export type FunctionSubscriber = Handler;
export type ObjectSubscriber = { models?: string[] } & { [action in LifecycleAction]?: Handler };
export type Subscriber = FunctionSubscriber | ObjectSubscriber;

function attributeMetadata(attribute: Attribute): Record<string, unknown> {
  switch (attribute.kind) {
    case 'scalar':
      return {
        type: attribute.type,
        ...(attribute.required ? { required: true } : {}),
        ...(attribute.unique ? { unique: true } : {}),
        ...(attribute.private ? { private: true } : {}),
      };
    case 'relation':
      return {
        type: 'relation',
        relation: attribute.relation,
        target: attribute.target,
        ...(attribute.inversedBy ? { inversedBy: attribute.inversedBy } : {}),
        ...(attribute.mappedBy ? { mappedBy: attribute.mappedBy } : {}),
      };
    case 'component':
      return { type: 'component', component: attribute.component, repeatable: attribute.repeatable };
    case 'dynamiczone':
      return { type: 'dynamiczone', components: attribute.components };
    case 'media':
      return { type: 'media', multiple: attribute.multiple, allowedTypes: attribute.allowedTypes ?? undefined };
  }
}

const metadata = new WeakMap<ContentType, ModelMetadata>();

/** `event.model` of a content-type (built once per type). */
export function modelMetadata(type: ContentType): ModelMetadata {
  let found = metadata.get(type);
  if (!found) {
    const attributes: Record<string, Record<string, unknown>> = {
      id: { type: 'increments' },
      documentId: { type: 'string' },
    };
    for (const [name, attribute] of Object.entries(type.attributes)) attributes[name] = attributeMetadata(attribute);
    Object.assign(attributes, {
      createdAt: { type: 'datetime' },
      updatedAt: { type: 'datetime' },
      publishedAt: { type: 'datetime' },
      locale: { type: 'string' },
    });
    found = {
      uid: type.uid,
      singularName: type.singularName,
      tableName: type.table,
      collectionName: type.collectionName,
      info: { singularName: type.singularName, pluralName: type.pluralName, displayName: type.displayName },
      attributes,
      kind: type.kind,
      modelType: 'contentType',
      options: { draftAndPublish: type.draftAndPublish },
      pluginOptions: type.localized ? { i18n: { localized: true } } : {},
    };
    metadata.set(type, found);
  }
  return found;
}

export class Lifecycles implements LifecycleHooks {
  private subscribers: Subscriber[] = [];
  private disabled = false;

  /** Adds a subscriber; returns the function that removes it. */
  subscribe(subscriber: Subscriber): () => void {
    if (typeof subscriber !== 'function' && (typeof subscriber !== 'object' || subscriber === null)) {
      throw new TypeError('Invalid subscriber. Expected function or object');
    }
    this.subscribers.push(subscriber);
    return () => {
      const at = this.subscribers.indexOf(subscriber);
      if (at >= 0) this.subscribers.splice(at, 1);
    };
  }

  clear(): void {
    this.subscribers = [];
  }

  disable(): void {
    this.disabled = true;
  }

  enable(): void {
    this.disabled = false;
  }

  /** Whether any subscriber may see an event of this model: false costs callers nothing more. */
  covers(uid: string): boolean {
    if (this.subscribers.length === 0 || this.disabled) return false;
    return this.subscribers.some((s) => typeof s === 'function' || !s.models || s.models.includes(uid));
  }

  /** Whether a subscriber handles this action on this model (a function subscriber handles all). */
  wants(uid: string, action: LifecycleAction): boolean {
    if (this.subscribers.length === 0 || this.disabled) return false;
    return this.subscribers.some(
      (s) => typeof s === 'function' || (action in s && (!s.models || s.models.includes(uid))),
    );
  }

  /**
   * Runs the subscribers of `action` in the order they subscribed, each awaited, on one event
   * object per subscriber sharing `params` and `result` (as Strapi: a handler changes them in
   * place; assigning another object to `event.result` or `event.params` changes nothing).
   * `states` carries each subscriber's `event.state` from a `before` run to the matching `after`
   * run. Never called inside a write transaction (see row-events.ts).
   */
  async run(
    action: LifecycleAction,
    type: ContentType,
    properties: { params: Record<string, unknown>; result?: unknown },
    states: LifecycleStates = new Map(),
  ): Promise<LifecycleStates> {
    if (this.disabled) return states;
    const model = modelMetadata(type);
    for (const subscriber of [...this.subscribers]) {
      let handler: Handler | undefined;
      if (typeof subscriber === 'function') handler = subscriber;
      else if (action in subscriber && (!subscriber.models || subscriber.models.includes(type.uid)))
        handler = subscriber[action];
      else continue;
      const event: LifecycleEvent = { action, model, state: states.get(subscriber) ?? {}, params: properties.params };
      if ('result' in properties) event.result = properties.result;
      if (typeof handler === 'function') await handler.call(subscriber, event);
      if (event.state) states.set(subscriber, event.state);
    }
    return states;
  }
}
