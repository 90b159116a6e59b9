/**
 * Generated TypeScript types, as `strapi ts:generate-types` writes them: `types/generated/
 * contentTypes.d.ts` and `components.d.ts` of a project, the same text as Strapi 5.54's for the
 * same schemas (compared side by side), so that a TypeScript project type-checks against either.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { archiveSchemas, type TransferProject } from '../transfer/index.js';
import { formatTypes } from './format.js';
import { renderSchemas, type StrapiSchema } from './render.js';

export const GENERATED_TYPES_DIR = join('types', 'generated');

/** The two files' text for a project's schema (Strapi's own types included). */
export async function generatedTypes(
  project: Pick<TransferProject, 'schema' | 'rawSchema'> & { dir: string },
  warn: (message: string) => void = () => undefined,
): Promise<{ contentTypes: string; components: string }> {
  const schemas = archiveSchemas(project) as StrapiSchema[];
  const render = async (registry: 'ContentTypeSchemas' | 'ComponentSchemas', modelType: StrapiSchema['modelType']) => {
    const { text, formatted } = renderSchemas(
      registry,
      schemas.filter((schema) => schema.modelType === modelType),
      warn,
    );
    return formatted ? text : formatTypes(text, project.dir);
  };
  return {
    contentTypes: await render('ContentTypeSchemas', 'contentType'),
    components: await render('ComponentSchemas', 'component'),
  };
}

/** Writes `types/generated/contentTypes.d.ts` and `components.d.ts`; answers their paths. */
export async function writeGeneratedTypes(
  project: Pick<TransferProject, 'schema' | 'rawSchema'> & { dir: string },
  warn?: (message: string) => void,
): Promise<string[]> {
  const { contentTypes, components } = await generatedTypes(project, warn);
  const dir = join(project.dir, GENERATED_TYPES_DIR);
  mkdirSync(dir, { recursive: true });
  const files = [join(dir, 'contentTypes.d.ts'), join(dir, 'components.d.ts')];
  writeFileSync(files[0]!, contentTypes);
  writeFileSync(files[1]!, components);
  return files;
}
