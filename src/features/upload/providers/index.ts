import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ProjectError } from '../../../core/errors.js';
import type { UploadConfig } from '../config.js';
import { localProvider } from './local.js';
import type { ProviderModule, UploadProvider } from './types.js';

export type { ProviderFile, UploadProvider } from './types.js';

/**
 * The configured provider: `local`, or a package resolved from the project the way Strapi does
 * (`aws-s3` -> `@strapi/provider-upload-aws-s3`, else the name as a package or path).
 */
export async function loadProvider(config: UploadConfig, projectDir: string): Promise<UploadProvider> {
  if (config.provider === 'local') return localProvider(join(config.publicDir, 'uploads'));
  const require = createRequire(join(projectDir, 'package.json'));
  const candidates = [
    `@strapi/provider-upload-${config.provider}`,
    `strapi-provider-upload-${config.provider}`,
    config.provider,
  ];
  for (const name of candidates) {
    let path: string;
    try {
      path = require.resolve(name);
    } catch {
      continue;
    }
    const loaded = (await import(pathToFileURL(path).href)) as Partial<ProviderModule> & {
      default?: Partial<ProviderModule>;
    };
    const module = typeof loaded.init === 'function' ? loaded : loaded.default;
    if (typeof module?.init !== 'function')
      throw new ProjectError(`upload provider ${name} does not export init()`, 'config/plugins');
    return module.init(config.providerOptions);
  }
  throw new ProjectError(
    `upload provider "${config.provider}" not found (tried ${candidates.join(', ')})`,
    'config/plugins',
  );
}
