/**
 * Vellum leaves media out of the answers of a caller who may not list files
 * (`plugin::upload.content-api.find`); Strapi shows a document's media to whoever reads the
 * document. A project coming from Strapi whose Public role reads articles with images would see
 * them vanish without a word, so start-up names each role in that case, with the grant that
 * restores them (docs/security.md "Access control").
 */
import type { ContentType, Schema } from '../../core/schema/model.js';
import { reachableComponents } from '../../core/schema/reachable.js';

const FILES_READ = 'plugin::upload.content-api.find';

/** Whether a type holds media, itself or in a component or zone entry it may contain. */
function holdsMedia(schema: Schema, type: ContentType): boolean {
  return [type, ...reachableComponents(schema, type)].some((model) =>
    Object.values(model.attributes).some((attribute) => attribute.kind === 'media'),
  );
}

/** The content-types, readable with `actions`, whose media such a reader does not see. */
export function hiddenMediaTypes(schema: Schema, actions: ReadonlySet<string>): string[] {
  if (actions.has(FILES_READ)) return [];
  return [...schema.contentTypes.values()]
    .filter((type) => !type.builtIn && (actions.has(`${type.uid}.find`) || actions.has(`${type.uid}.findOne`)))
    .filter((type) => holdsMedia(schema, type))
    .map((type) => type.uid);
}

/** One warning line for a role whose readers lose media, or none. */
export function mediaGrantWarning(
  schema: Schema,
  role: { name: string; type: string },
  actions: ReadonlySet<string>,
): string | undefined {
  const types = hiddenMediaTypes(schema, actions);
  if (types.length === 0) return undefined;
  return (
    `role "${role.name}" may read ${types.join(', ')} but not ${FILES_READ}: the media of these types is left out of its answers ` +
    `(Strapi shows it). To show it: vellum permissions grant ${role.type} ${FILES_READ} (docs/security.md "Access control")`
  );
}
