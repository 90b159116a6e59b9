/**
 * Prettier over the generated text, as Strapi formats it: the project's Prettier configuration when
 * one is found from its folder up, else Strapi's (single quotes, two spaces). Prettier loads only
 * when types are generated: `vellum start` never loads it.
 */
import { join } from 'node:path';

export async function formatTypes(text: string, projectDir: string): Promise<string> {
  const prettier = await import('prettier');
  const file = await prettier.resolveConfigFile(join(projectDir, 'package.json'));
  const config = (file ? await prettier.resolveConfig(file) : null) ?? {
    singleQuote: true,
    useTabs: false,
    tabWidth: 2,
  };
  return prettier.format(text, { ...config, parser: 'typescript' });
}
