/**
 * The schema an action's validity was checked against, as a short digest stored on the action
 * (`checked_schema`): a type's attributes (every property: required, lengths, patterns, relations,
 * components...), those of the components it reaches, and whether it is localized. Strapi 5.54's
 * content-releases re-checks a type's actions when its `attributes` differ from the copy of the
 * schema it stored at the last start (`revalidateChangedContentTypes`; turning i18n on or off
 * changes them too: its plugin marks the `locale` attribute private or not); Vellum compares each
 * action's digest with the type's, so a change made while no node ran counts, and one of a
 * component the type uses too (Strapi's comparison does not look into components).
 */
import { createHash } from 'node:crypto';
import type { ContentType, Schema } from '../../core/schema/model.js';
import { reachableComponents } from '../../core/schema/reachable.js';

const digests = new WeakMap<ContentType, string>();

/** A JSON value with object keys sorted and patterns as text: equal schemas give equal text. */
function canonical(value: unknown): unknown {
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (value instanceof Set) return [...value].map(canonical);
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

/** The digest of what `type`'s publish rules depend on in `schema` (16 hex digits). */
export function checkedSchemaOf(schema: Schema, type: ContentType): string {
  let digest = digests.get(type);
  if (digest === undefined) {
    const components = reachableComponents(schema, type);
    const text = JSON.stringify(
      canonical({
        localized: type.localized,
        attributes: type.attributes,
        components: Object.fromEntries(components.map((component) => [component.uid, component.attributes])),
      }),
    );
    digest = createHash('sha256').update(text).digest('hex').slice(0, 16);
    digests.set(type, digest);
  }
  return digest;
}
