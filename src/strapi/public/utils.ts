/**
 * What a project's `require('@strapi/utils')` gets in Vellum (project/modules.ts resolves the name
 * here): `errors` (thrown by project code, answered as Strapi answers them), `env` (the helper of
 * config files), and `policy` helpers. Other utilities of Strapi's package are not provided.
 */
import { createEnv } from '../../core/config/env.js';
import { errors } from '../errors.js';

export { errors };

/** `env('NAME', fallback)`, `env.int`, `env.bool`, ... over the process environment. */
export const env = createEnv(process.env);

/** Strapi's `policy.createPolicy` and `createPolicyContext`. */
export const policy = {
  createPolicy<T>(options: { name?: string; validator?: (config: unknown) => void; handler: T }) {
    return {
      name: options.name ?? 'unnamed',
      validator: options.validator ?? (() => undefined),
      handler: options.handler,
    };
  },
  createPolicyContext(type: string, ctx: object) {
    return Object.assign(
      {
        is: (value: string) => value === type,
        get type() {
          return type;
        },
      },
      ctx,
    );
  },
};

export default { errors, env, policy };

/** The file of this module, for the resolve hook of ES modules. */
export const moduleUrl = import.meta.url;
