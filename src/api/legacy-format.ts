/**
 * The earlier REST format (docs/rest.md "Earlier response format (v4)"), served when a request carries `Strapi-Response-Format: v4`:
 * attributes nested under `attributes` (`id` and `documentId` beside them), populated relations
 * and media wrapped in `{ data }`. Components and dynamic zones stay plain objects, with their own
 * relations and media wrapped.
 */
import { FILE_UID, type Model, type Schema } from '../core/schema/model.js';

type Doc = Record<string, unknown>;

const LEGACY_HEADER = 'strapi-response-format';

export const wantsLegacyFormat = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers[LEGACY_HEADER] === 'v4';

function shapeFields(schema: Schema, model: Model, value: Doc): Doc {
  const out: Doc = {};
  for (const [key, field] of Object.entries(value)) {
    const attribute = model.attributes[key];
    if (key === 'localizations' && model.modelType === 'contentType') {
      out[key] = { data: (field as Doc[]).map((d) => legacyDocument(schema, model, d)) };
      continue;
    }
    if (!attribute || field === undefined) {
      out[key] = field;
      continue;
    }
    switch (attribute.kind) {
      case 'relation':
      case 'media': {
        const target =
          attribute.kind === 'relation'
            ? schema.contentTypes.get(attribute.target)!
            : schema.contentTypes.get(FILE_UID);
        if (!target) {
          out[key] = field;
          break;
        }
        if (field !== null && !Array.isArray(field) && 'count' in (field as Doc)) {
          // Strapi shapes a count like an entry without id: { data: { attributes: { count } } }.
          out[key] = { data: { attributes: field } };
          break;
        }
        const wrap = (d: Doc) => legacyDocument(schema, target, d);
        out[key] = { data: Array.isArray(field) ? field.map(wrap) : field === null ? null : wrap(field as Doc) };
        break;
      }
      case 'component': {
        const component = schema.components.get(attribute.component)!;
        const shape = (d: Doc) => shapeFields(schema, component, d);
        out[key] = Array.isArray(field) ? field.map(shape) : field === null ? null : shape(field as Doc);
        break;
      }
      case 'dynamiczone':
        out[key] = (field as Doc[]).map((d) => {
          const component = schema.components.get(d.__component as string);
          return component ? shapeFields(schema, component, d) : d;
        });
        break;
      default:
        out[key] = field;
    }
  }
  return out;
}

/** `{ id, documentId, attributes }` for a document of `model` (Strapi 5 keeps documentId beside id). */
function legacyDocument(schema: Schema, model: Model, document: Doc): Doc {
  const { id, documentId, ...rest } = document;
  return documentId === undefined
    ? { id, attributes: shapeFields(schema, model, rest) }
    : { id, documentId, attributes: shapeFields(schema, model, rest) };
}

export function legacyData(schema: Schema, model: Model, data: Doc | Doc[] | null): Doc | Doc[] | null {
  if (data === null) return null;
  return Array.isArray(data) ? data.map((d) => legacyDocument(schema, model, d)) : legacyDocument(schema, model, data);
}
