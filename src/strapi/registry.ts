/**
 * The project's controllers, services, policies and middlewares by uid, as Strapi's registries
 * hold them: `api::<api>.<file>` for an API's files, `global::<file>` for `src/policies` and
 * `src/middlewares`. Controllers and services are made once, on first use, with `{ strapi }`. A
 * content-type without a controller or service file gets the core one (Strapi's generator always
 * writes them; Vellum does not require them).
 */
import { createCoreController, createCoreService } from './factories.js';
import type {
  Handler,
  Instance,
  Made,
  Middleware,
  MiddlewareFactory,
  PolicyEntry,
  ProjectRegistry,
  ResolvedPolicy,
  Runtime,
} from './runtime.js';

export type { MiddlewareFactory, PolicyEntry } from './runtime.js';

export class Registry implements ProjectRegistry {
  private readonly controllers = new Map<string, Made>();
  private readonly services = new Map<string, Made>();
  private readonly instances = new Map<string, Instance>();
  readonly policies = new Map<string, PolicyEntry>();
  readonly middlewares = new Map<string, MiddlewareFactory>();

  constructor(private readonly runtime: () => Runtime) {}

  addController(uid: string, made: Made): void {
    this.controllers.set(uid, made);
    this.instances.delete(`controller:${uid}`);
  }

  addService(uid: string, made: Made): void {
    this.services.set(uid, made);
  }

  controllerUids(): string[] {
    return [...this.controllers.keys()];
  }

  serviceUids(): string[] {
    return [...this.services.keys()];
  }

  private make(kind: 'controller' | 'service', uid: string): Instance | undefined {
    const key = `${kind}:${uid}`;
    const made = this.instances.get(key);
    if (made) return made;
    const runtime = this.runtime();
    let source = (kind === 'controller' ? this.controllers : this.services).get(uid);
    if (source === undefined && uid.startsWith('api::') && runtime.schema.contentTypes.has(uid)) {
      source = kind === 'controller' ? createCoreController(uid) : createCoreService(uid);
    }
    if (source === undefined) return undefined;
    const instance = typeof source === 'function' ? source({ strapi: runtime.strapi }) : source;
    this.instances.set(key, instance);
    return instance;
  }

  controller(uid: string): Instance | undefined {
    return this.make('controller', uid);
  }

  service(uid: string): Instance | undefined {
    return this.make('service', uid);
  }

  /** Strapi's lookup: the full name, then the name within the route's API (or plugin: `plugin::users-permissions`). */
  policy(name: string, apiName?: string): PolicyEntry | undefined {
    const namespace = apiName?.includes('::') ? apiName : `api::${apiName}`;
    return this.policies.get(name) ?? (apiName ? this.policies.get(`${namespace}.${name}`) : undefined);
  }

  /** Policies of a route's `config.policies`; unknown names throw, as Strapi refuses them. */
  resolvePolicies(list: unknown[], apiName: string): ResolvedPolicy[] {
    return list.map((item) => {
      // Inline functions: Strapi 5.54 refuses them ("Policy ... not found"); Vellum runs them.
      if (typeof item === 'function') return { handler: item as Handler, config: {} };
      const name = typeof item === 'string' ? item : (item as { name?: unknown } | null)?.name;
      const config = typeof item === 'object' && item !== null ? ((item as { config?: unknown }).config ?? {}) : {};
      const entry = typeof name === 'string' ? this.policy(name, apiName) : undefined;
      if (!entry) throw new Error(`Policy ${String(name)} not found.`);
      if (typeof entry === 'function') return { handler: entry, config };
      entry.validator?.(config);
      return { handler: entry.handler, config };
    });
  }

  /** Middlewares of a route's `config.middlewares` (names, `{ name, config }` or functions), made once per route. */
  resolveMiddlewares(list: unknown[]): Middleware[] {
    return list.map((item) => {
      if (typeof item === 'function') return item as Middleware;
      const name = typeof item === 'string' ? item : (item as { name?: unknown } | null)?.name;
      const config = typeof item === 'object' && item !== null ? ((item as { config?: unknown }).config ?? {}) : {};
      const factory = typeof name === 'string' ? this.middlewares.get(name) : undefined;
      if (!factory) throw new Error(`Middleware ${String(name)} not found.`);
      return this.instantiate(factory, String(name), config);
    });
  }

  instantiate(factory: MiddlewareFactory, name: string, config: unknown): Middleware {
    try {
      return factory(config, { strapi: this.runtime().strapi }) ?? ((_ctx, next) => next());
    } catch (error) {
      throw new Error(`Middleware "${name}": ${(error as Error).message}`);
    }
  }
}
