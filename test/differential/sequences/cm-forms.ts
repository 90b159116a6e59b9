/**
 * The requests Strapi 5.54's admin panel sends for content-manager operations (cm-ops.ts), built
 * per server from what that server answered: the edit view's form is the draft as its GET answers
 * it (admin/src/pages/EditView/utils/data.ts `transformDocument`: fields of the schema only, nulls
 * dropped but booleans', relations as an empty `{ connect, disconnect }`, `__temp_key__` on
 * repeatable items), or for a new document / locale the schema defaults with, for a new locale, the
 * non-localized scalars and media of `meta.availableLocales[0]` (hooks/useDocument.ts); the whole
 * form is sent on save, publish and clone, edits over it.
 *
 * "Fill in from another locale" is modelled without its endpoint (Vellum has none): the other
 * locale's form, component ids dropped, relations left empty.
 */
import type { Response } from '../../helpers/http.js';
import type { Locale, Op } from './ops.js';
import type { CmOp } from './cm-ops.js';
import type { Attribute, Schema, TypeInfo } from './schema.js';

export type Form = Record<string, unknown>;
type Attributes = Record<string, Attribute>;

/** Fields of the edit view's `DOCUMENT_META_FIELDS`, dropped from the form. */
const META = new Set(['id', 'createdBy', 'updatedBy', 'publishedBy', 'createdAt', 'updatedAt', 'publishedAt']);

const tempKeys = (items: unknown[]) =>
  items.map((item, i) => (item && typeof item === 'object' ? { ...item, __temp_key__: `a${i}` } : item));

function traverse(schema: Schema, attributes: Attributes, data: Form): Form {
  const out: Form = {};
  for (const [key, value] of Object.entries(data)) {
    const a = attributes[key];
    // An attribute Strapi's copy lacks (one-way relations): the panel of either server knows it.
    if (!a && schema.stripped.has(key)) continue;
    if (key === '__component' || key === '__temp_key__' || !a) {
      out[key] = value;
      continue;
    }
    if (value === null || value === undefined) {
      if (a.type === 'boolean') out[key] = value;
      continue;
    }
    if (a.type === 'password') out[key] = '';
    else if (a.type === 'relation') out[key] = { connect: [], disconnect: [] };
    else if (a.type === 'component') {
      const inner = schema.components.get(a.component!)!.attributes;
      out[key] = a.repeatable
        ? tempKeys((value as Form[]).map((item) => traverse(schema, inner, item)))
        : traverse(schema, inner, value as Form);
    } else if (a.type === 'dynamiczone')
      out[key] = tempKeys(
        (value as Form[]).map((item) =>
          traverse(schema, schema.components.get(String(item.__component))?.attributes ?? {}, item),
        ),
      );
    else out[key] = value;
  }
  return out;
}

/** The edit view's form of a version as a content-manager GET answers it. */
export function panelForm(schema: Schema, type: TypeInfo, data: Form): Form {
  const fields = Object.fromEntries(Object.entries(data).filter(([k]) => k in type.attributes && !META.has(k)));
  return traverse(schema, type.attributes, fields);
}

function defaults(schema: Schema, attributes: Attributes): Form {
  const out: Form = {};
  for (const [key, a] of Object.entries(attributes)) {
    if (a.default !== undefined) out[key] = a.default;
    else if (a.type === 'component' && a.required)
      out[key] = a.repeatable ? [] : defaults(schema, schema.components.get(a.component!)!.attributes);
    else if (a.type === 'dynamiczone' && a.required) out[key] = [];
  }
  return out;
}

/** The create page's form; a new locale's takes the non-localized scalars and media of a sibling. */
export function defaultForm(schema: Schema, type: TypeInfo, sibling?: Form): Form {
  const form = defaults(schema, type.attributes);
  if (sibling)
    for (const [key, a] of Object.entries(type.attributes))
      if (!a.localized && !['component', 'dynamiczone', 'relation'].includes(a.type) && key in sibling)
        form[key] = sibling[key];
  return traverse(schema, type.attributes, form);
}

function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'id')
      .map(([k, v]) => [k, withoutIds(v)]),
  );
}

/** "Fill in from another locale" (see the header): that locale's form, without component ids. */
export function filledForm(schema: Schema, type: TypeInfo, other: Form): Form {
  const form = panelForm(schema, type, other);
  for (const [key, a] of Object.entries(type.attributes))
    if ((a.type === 'component' || a.type === 'dynamiczone') && key in form) form[key] = withoutIds(form[key]);
  return form;
}

/**
 * The edits (resolved) over a form. `keepIds`: a component edit changes the form's items in place
 * (same ids, `__temp_key__`), else it replaces them (new items, as "add an entry" makes them).
 */
export function applyEdits(schema: Schema, attributes: Attributes, form: Form, edits: Form, keepIds: boolean): Form {
  const out: Form = { ...form };
  for (const [key, edit] of Object.entries(edits)) {
    const a = attributes[key];
    const current = form[key];
    if (a?.type === 'component' && keepIds && edit && current) {
      const inner = schema.components.get(a.component!)!.attributes;
      if (a.repeatable && Array.isArray(edit) && Array.isArray(current)) {
        const items = current.map((item, i) =>
          i < edit.length ? applyEdits(schema, inner, item as Form, edit[i] as Form, true) : item,
        );
        out[key] = [
          ...items,
          ...tempKeys(edit.slice(current.length)).map((e, i) => ({ ...(e as Form), __temp_key__: `b${i}` })),
        ];
        continue;
      }
      if (!a.repeatable && !Array.isArray(edit) && !Array.isArray(current)) {
        out[key] = applyEdits(schema, inner, current as Form, edit as Form, true);
        continue;
      }
    }
    out[key] =
      Array.isArray(edit) && (a?.type === 'dynamiczone' || (a?.type === 'component' && a.repeatable))
        ? tempKeys(edit)
        : edit;
  }
  return out;
}

export interface CmRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

/** What the request builder needs of the run (engine.ts implements it). */
export interface CmContext {
  schema: Schema;
  prefix: string;
  missing: string;
  /** This side's documentId of the n-th document of a type (its label added), or `missing`. */
  documentId(type: string, n: number, labels: Set<string>): string;
  resolve(value: unknown, labels: Set<string>): unknown;
  /** A content-manager request to this side. */
  cm(method: 'GET', path: string): Promise<Response>;
}

const CT = '/content-manager/collection-types';
const ST = '/content-manager/single-types';
const q = (params: Record<string, string | undefined>) => {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined);
  return parts.length ? `?${parts.map(([k, v]) => `${k}=${v}`).join('&')}` : '';
};

/** The form of a document in a locale, as the panel's edit view starts it on this side. */
async function currentForm(ctx: CmContext, type: TypeInfo, path: string, locale: Locale | undefined, fill: boolean) {
  const res = await ctx.cm('GET', path + q({ locale }));
  const body = (res.body ?? {}) as { data?: Form; meta?: { availableLocales?: Form[] } };
  if (res.status === 200 && body.data && 'id' in body.data) return panelForm(ctx.schema, type, body.data);
  const sibling = body.meta?.availableLocales?.[0];
  if (fill && type.i18n) {
    const other = await ctx.cm('GET', path + q({ locale: locale === 'fr' ? 'en' : 'fr' }));
    const data = (other.body as { data?: Form } | null)?.data;
    if (other.status === 200 && data && 'id' in data) return filledForm(ctx.schema, type, data);
  }
  return defaultForm(ctx.schema, type, sibling);
}

/** The request a content-manager operation is on one side, and the labels of the documents it names. */
export async function cmRequest(ctx: CmContext, op: Op & CmOp): Promise<{ request: CmRequest; labels: Set<string> }> {
  const labels = new Set<string>();
  const type = ctx.schema.types.get(op.type)!;
  const uid = type.uid;
  const edits = (e: Form) => ctx.resolve(e, labels) as Form;
  const done = (request: CmRequest) => ({ request, labels });
  switch (op.op) {
    case 'cm-create': {
      const form = applyEdits(ctx.schema, type.attributes, defaultForm(ctx.schema, type), edits(op.edits), false);
      const path = `${CT}/${uid}${op.publish ? '/actions/publish' : ''}`;
      return done({ method: 'POST', path: path + q({ locale: op.locale }), body: form });
    }
    case 'cm-save': {
      const path = `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}`;
      const form = await currentForm(ctx, type, path, op.locale, op.fill);
      const body = applyEdits(ctx.schema, type.attributes, form, edits(op.edits), op.keepIds);
      return done({ method: 'PUT', path: path + q({ locale: op.locale }), body });
    }
    case 'cm-publish': {
      const path = `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}`;
      const body = op.body
        ? applyEdits(
            ctx.schema,
            type.attributes,
            await currentForm(ctx, type, path, op.locale, false),
            edits(op.edits),
            true,
          )
        : undefined;
      return done({ method: 'POST', path: `${path}/actions/publish` + q({ locale: op.locale }), body });
    }
    case 'cm-action': {
      const path = `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}/actions/${op.action}` + q({ locale: op.locale });
      const body = op.body === 'none' ? undefined : { discardDraft: op.body === 'discard-draft' };
      return done({ method: 'POST', path, body });
    }
    case 'cm-delete':
      return done({
        method: 'DELETE',
        path: `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}` + q({ locale: op.locale }),
      });
    case 'cm-clone': {
      const source = ctx.documentId(uid, op.n, labels);
      const form = await currentForm(ctx, type, `${CT}/${uid}/${source}`, op.locale, false);
      // A copy's unique fields must change (the panel's validation asks): the edits name the label.
      const body = applyEdits(ctx.schema, type.attributes, form, edits(op.edits), false);
      return done({ method: 'POST', path: `${CT}/${uid}/clone/${source}` + q({ locale: op.locale }), body });
    }
    case 'cm-bulk': {
      const documentIds = [...new Set(op.ns.map((n) => ctx.documentId(uid, n, labels)))];
      return done({
        method: 'POST',
        path: `${CT}/${uid}/actions/${op.action}` + q({ locale: op.locale }),
        body: { documentIds },
      });
    }
    case 'cm-single': {
      const path = `${ST}/${uid}`;
      const withLocale = path + q({ locale: op.locale });
      switch (op.action) {
        case 'save': {
          const form = await currentForm(ctx, type, path, op.locale, false);
          return done({
            method: 'PUT',
            path: withLocale,
            body: applyEdits(ctx.schema, type.attributes, form, edits(op.edits), true),
          });
        }
        case 'delete':
          return done({ method: 'DELETE', path: withLocale });
        case 'publish': {
          const form = await currentForm(ctx, type, path, op.locale, false);
          return done({
            method: 'POST',
            path: `${path}/actions/publish` + q({ locale: op.locale }),
            body: applyEdits(ctx.schema, type.attributes, form, edits(op.edits), true),
          });
        }
        default:
          return done({ method: 'POST', path: `${path}/actions/${op.action}` + q({ locale: op.locale }) });
      }
    }
    case 'cm-invalid':
      return done(invalid(ctx, type, op, labels));
  }
}

function invalid(
  ctx: CmContext,
  type: TypeInfo,
  op: Extract<CmOp, { op: 'cm-invalid' }>,
  labels: Set<string>,
): CmRequest {
  const uid = type.uid;
  const path = `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}` + q({ locale: op.locale });
  const attributes = Object.entries(type.attributes);
  const first = (pred: (t: string) => boolean) => attributes.find(([, a]) => pred(a.type))?.[0];
  const label = type.label ?? 'x';
  switch (op.kind) {
    case 'body-not-object':
      return { method: 'PUT', path, body: ['not', 'an', 'object'] };
    case 'unknown-attribute':
      return { method: 'PUT', path, body: { notAnAttribute: 1 } };
    case 'wrong-type': {
      const number = first((t) => t === 'integer' || t === 'decimal' || t === 'boolean');
      return { method: 'PUT', path, body: number ? { [number]: 'not a number' } : { [label]: { nested: true } } };
    }
    case 'bad-enum': {
      const e = first((t) => t === 'enumeration');
      return { method: 'PUT', path, body: e ? { [e]: 'not-in-enum' } : { [label]: ['a'] } };
    }
    case 'required-empty-publish': {
      const required = attributes.find(([, a]) => a.required && a.type === 'string')?.[0] ?? label;
      // Publishing a type without draft and publish is a deliberate 400 (Strapi: a 500): a save there.
      if (!type.draftAndPublish) return { method: 'PUT', path, body: { [required]: '' } };
      return {
        method: 'POST',
        path: `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}/actions/publish` + q({ locale: op.locale }),
        body: { [required]: '' },
      };
    }
    case 'unknown-document':
      return {
        method: 'PUT',
        path: `${CT}/${uid}/${ctx.missing}` + q({ locale: op.locale }),
        body: { [label]: `${ctx.prefix}-u` },
      };
    case 'bad-locale':
      return {
        method: 'PUT',
        path: `${CT}/${uid}/${ctx.documentId(uid, op.n, labels)}?locale=xx-not-a-locale`,
        body: {},
      };
    case 'bulk-empty':
      return { method: 'POST', path: `${CT}/${uid}/actions/bulkPublish`, body: { documentIds: [] } };
    case 'clone-unknown':
      return { method: 'POST', path: `${CT}/${uid}/clone/${ctx.missing}`, body: { [label]: `${ctx.prefix}-c` } };
  }
}
