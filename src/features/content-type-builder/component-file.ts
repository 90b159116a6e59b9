/**
 * A new component's file as the builder writes it (Strapi has no component generator; its builder
 * is how a Strapi project gets one): `src/components/<category>/<name>.json` with Strapi's
 * collection name, for `vellum generate component`.
 */
import { join, relative } from 'node:path';
import { SchemaBuilder } from './builder.js';
import type { Attributes } from './models.js';

export function newComponentFile(
  projectDir: string,
  component: { category: string; displayName: string; icon?: string; attributes: Attributes },
): { uid: string; path: string; text: string } {
  const builder = new SchemaBuilder(projectDir, { contentTypes: new Map(), components: new Map() });
  const file = builder.createComponent({ ...component, config: {} });
  return { uid: file.uid, path: relative(projectDir, join(file.dir, file.filename)), text: file.text() };
}
