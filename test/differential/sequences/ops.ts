/**
 * Random write sequences as data: operations on documents referenced by creation order (`n`,
 * taken modulo the documents of that type the run has), with markers (`$ref`, `$media`, `$text`)
 * that each server's run resolves to its own documentIds, ids and the run's unique prefix. As
 * plain data they shrink with fast-check and print as HTTP requests.
 */
import fc from 'fast-check';
import type { CmOp } from './cm-ops.js';
import type { Attribute, Schema, TypeInfo } from './schema.js';

export type Locale = 'en' | 'fr';
export type RefForm = 'documentId' | 'object' | 'id' | 'idObject';
export interface RefMarker {
  $ref: { type: string; n: number; form: RefForm; locale?: Locale };
}

export type Op =
  | { op: 'create'; type: string; data: Record<string, unknown>; draft: boolean; locale?: Locale }
  | { op: 'update'; type: string; n: number; data: Record<string, unknown>; draft: boolean; locale?: Locale }
  | { op: 'action'; type: string; n: number; action: 'publish' | 'unpublish' | 'discard-draft'; locale?: Locale }
  | { op: 'delete'; type: string; n: number; locale?: Locale }
  | { op: 'single-put'; type: string; data: Record<string, unknown>; locale?: Locale }
  | { op: 'single-delete'; type: string }
  | { op: 'invalid'; type: string; n: number; kind: InvalidKind }
  | CmOp;

export const INVALID_KINDS = [
  'data-not-object',
  'no-data',
  'unknown-attribute',
  'wrong-type',
  'bad-enum',
  'required-empty',
  'integer-64',
  'missing-relation',
  'unknown-document',
  'bad-locale',
  'bad-status',
  'component-unknown',
] as const;
export type InvalidKind = (typeof INVALID_KINDS)[number];

const TO_MANY = new Set(['oneToMany', 'manyToMany']);
export const isToMany = (a: Attribute) => a.type === 'relation' && TO_MANY.has(a.relation ?? '');

export const nOf = fc.nat(5);
export const localeArb = fc.constantFrom<Locale>('en', 'fr');

function refArb(schema: Schema, target: string): fc.Arbitrary<RefMarker> {
  const targetType = schema.types.get(target);
  return fc
    .record({
      n: nOf,
      form: fc.constantFrom<RefForm>('documentId', 'documentId', 'documentId', 'object', 'object', 'id', 'idObject'),
      locale: targetType?.i18n ? fc.option(localeArb, { nil: undefined, freq: 3 }) : fc.constant(undefined),
    })
    .map(({ n, form, locale }) => ({ $ref: { type: target, n, form, ...(locale ? { locale } : {}) } }));
}

function relationArb(schema: Schema, a: Attribute): fc.Arbitrary<unknown> {
  const ref = refArb(schema, a.target!);
  const position = fc.oneof(
    fc.constant({ start: true }),
    fc.constant({ end: true }),
    ref.map((r) => ({ before: r })),
    ref.map((r) => ({ after: r })),
  );
  const connectItem = fc.oneof(
    { arbitrary: ref, weight: 2 },
    {
      arbitrary: fc.record({ ref, position }).map(({ ref: r, position: p }) => ({ $conn: { ref: r, position: p } })),
      weight: 3,
    },
  );
  if (isToMany(a)) {
    return fc.oneof(
      fc.array(ref, { maxLength: 3 }),
      fc.record({ connect: fc.array(connectItem, { minLength: 1, maxLength: 3 }) }),
      fc.record({ disconnect: fc.array(ref, { minLength: 1, maxLength: 2 }) }),
      fc.record({ set: fc.array(ref, { maxLength: 3 }) }),
      fc.record({
        connect: fc.array(connectItem, { minLength: 1, maxLength: 2 }),
        disconnect: fc.array(ref, { minLength: 1, maxLength: 1 }),
      }),
    );
  }
  return fc.oneof(
    ref,
    fc.constant(null),
    fc.record({ connect: fc.array(ref, { minLength: 1, maxLength: 1 }) }),
    fc.record({ disconnect: fc.array(ref, { minLength: 1, maxLength: 1 }) }),
    fc.record({ set: fc.array(ref, { maxLength: 1 }) }),
  );
}

/**
 * How values are written: as the content API takes them, or as Strapi's admin panel sends them
 * (relations as `{ connect, disconnect }` of `{ id, documentId, locale }` items, media as file objects).
 */
export type DataMode = 'content' | 'panel';

/** A relation as the panel's relation field sends it (cm-ops.ts resolves the markers per side). */
export interface PanelRelation {
  $panel: { connect: { ref: RefMarker; position?: 'start' | 'end' }[]; disconnect: RefMarker[] };
}

function panelRelationArb(schema: Schema, a: Attribute): fc.Arbitrary<PanelRelation> {
  const ref = refArb(schema, a.target!).map((r) => ({ $ref: { ...r.$ref, form: 'object' as RefForm } }));
  const item = fc.record({
    ref,
    position: fc.option(fc.constantFrom<'start' | 'end'>('start', 'end'), { nil: undefined, freq: 3 }),
  });
  const toMany = isToMany(a);
  return fc
    .record({
      connect: fc.array(item, { maxLength: toMany ? 2 : 1 }),
      disconnect: fc.array(ref, { maxLength: toMany ? 2 : 1 }),
    })
    .map(({ connect, disconnect }) => ({
      $panel: { connect: connect.map((c) => (c.position ? c : { ref: c.ref })), disconnect },
    }));
}

function componentArb(
  schema: Schema,
  uid: string,
  depth: number,
  withName: boolean,
  mode: DataMode = 'content',
): fc.Arbitrary<Record<string, unknown>> {
  const data = dataArb(schema, schema.components.get(uid)!.attributes, depth + 1, undefined, false, mode);
  return withName ? data.map((d) => ({ __component: uid, ...d })) : data;
}

function valueArb(
  schema: Schema,
  name: string,
  a: Attribute,
  depth: number,
  label: string | undefined,
  mode: DataMode = 'content',
): fc.Arbitrary<unknown> {
  const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 6 });
  if (name === label || a.unique) return fc.constantFrom('a', 'b', 'c').map((s) => ({ $text: s }));
  switch (a.type) {
    case 'string':
    case 'text':
    case 'richtext':
      return nullable(fc.constantFrom('x', 'hello', 'y z'));
    case 'email':
      return fc.constantFrom('a', 'b').map((s) => ({ $email: s }));
    case 'uid':
      return nullable(fc.constantFrom('a', 'b').map((s) => ({ $text: s })));
    case 'integer':
      return nullable(fc.integer({ min: -3, max: 2000 }));
    case 'biginteger':
      return nullable(fc.constantFrom('0', '9007199254740993'));
    case 'decimal':
    case 'float':
      return nullable(fc.constantFrom(0, 1.5, -2.25));
    case 'boolean':
      return nullable(fc.boolean());
    case 'date':
      return nullable(fc.constantFrom('2024-01-02', '2023-12-31'));
    case 'datetime':
      return nullable(fc.constant('2024-01-02T03:04:05.000Z'));
    case 'time':
      return nullable(fc.constant('12:30:00.000'));
    case 'enumeration':
      return nullable(fc.constantFrom(...(a.enum ?? ['x'])));
    case 'json':
      return fc.constantFrom({ a: 1 }, [1, 2], 'text', null);
    case 'blocks':
      return nullable(fc.constant([{ type: 'paragraph', children: [{ type: 'text', text: 'block' }] }]));
    case 'relation':
      return mode === 'panel' ? panelRelationArb(schema, a) : relationArb(schema, a);
    case 'media': {
      const file = fc.nat(2).map((n) => (mode === 'panel' ? { $mediaFile: n } : { $media: n }));
      return a.multiple ? fc.array(file, { maxLength: 3 }) : nullable(file);
    }
    case 'component':
      if (depth > 1) return fc.constant(null);
      return a.repeatable
        ? fc.array(componentArb(schema, a.component!, depth, false, mode), { maxLength: 2 })
        : nullable(componentArb(schema, a.component!, depth, false, mode));
    case 'dynamiczone':
      if (depth > 1) return fc.constant([]);
      return fc.array(fc.oneof(...(a.components ?? []).map((uid) => componentArb(schema, uid, depth, true, mode))), {
        maxLength: 2,
      });
    default:
      return fc.constant(null);
  }
}

/** A random subset of attributes; required ones (and the label) mostly present. */
export function dataArb(
  schema: Schema,
  attributes: Record<string, Attribute>,
  depth: number,
  label: string | undefined,
  forceLabel = false,
  mode: DataMode = 'content',
): fc.Arbitrary<Record<string, unknown>> {
  const entries = Object.entries(attributes).filter(([, a]) => a.type !== 'password');
  const parts = entries.map(([name, a]) => {
    // A create always names a uid with a targetField: Strapi stores null where Vellum generates
    // it (docs/coming-from-strapi.md), which would end most sequences at their first create.
    const uidOnCreate = forceLabel && a.type === 'uid' && a.targetField;
    const present = (forceLabel && name === label) || uidOnCreate ? 1000 : a.required ? 8 : 3;
    const value = uidOnCreate
      ? fc.constantFrom('a', 'b').map((t) => ({ $text: t }))
      : valueArb(schema, name, a, depth, label, mode);
    return fc.option(value, { nil: undefined, freq: present });
  });
  return fc.tuple(...parts).map((values) => {
    const out: Record<string, unknown> = {};
    entries.forEach(([name], i) => {
      // fc.option's nil is "absent": undefined never reaches the body.
      if (values[i] !== undefined) out[name] = values[i];
    });
    return out;
  });
}

/** Relation-only data: one relation attribute, with every write form. */
function relationDataArb(schema: Schema, type: TypeInfo): fc.Arbitrary<Record<string, unknown>> | undefined {
  const relations = Object.entries(type.attributes).filter(([, a]) => a.type === 'relation');
  if (!relations.length) return undefined;
  return fc.oneof(...relations.map(([name, a]) => relationArb(schema, a).map((v) => ({ [name]: v }))));
}

export function opArb(schema: Schema): fc.Arbitrary<Op> {
  const arbs: { arbitrary: fc.Arbitrary<Op>; weight: number }[] = [];
  for (const type of schema.types.values()) {
    const locale = type.i18n ? fc.option(localeArb, { nil: undefined, freq: 2 }) : fc.constant(undefined);
    if (type.kind === 'singleType') {
      arbs.push({
        arbitrary: fc.record({
          op: fc.constant('single-put' as const),
          type: fc.constant(type.uid),
          data: dataArb(schema, type.attributes, 0, undefined),
          locale,
        }),
        weight: 2,
      });
      arbs.push({
        arbitrary: fc.record({ op: fc.constant('single-delete' as const), type: fc.constant(type.uid) }),
        weight: 1,
      });
      continue;
    }
    const draft = type.draftAndPublish ? fc.boolean() : fc.constant(false);
    arbs.push({
      arbitrary: fc.record({
        op: fc.constant('create' as const),
        type: fc.constant(type.uid),
        data: dataArb(schema, type.attributes, 0, type.label, true),
        draft,
        locale: type.i18n ? fc.option(fc.constant<Locale>('fr'), { nil: undefined, freq: 4 }) : fc.constant(undefined),
      }),
      weight: 6,
    });
    arbs.push({
      arbitrary: fc.record({
        op: fc.constant('update' as const),
        type: fc.constant(type.uid),
        n: nOf,
        data: dataArb(schema, type.attributes, 0, type.label),
        draft,
        locale,
      }),
      weight: 4,
    });
    const relations = relationDataArb(schema, type);
    if (relations)
      arbs.push({
        arbitrary: fc.record({
          op: fc.constant('update' as const),
          type: fc.constant(type.uid),
          n: nOf,
          data: relations,
          draft,
          locale,
        }),
        weight: 6,
      });
    if (type.draftAndPublish) {
      arbs.push({
        arbitrary: fc.record({
          op: fc.constant('action' as const),
          type: fc.constant(type.uid),
          n: nOf,
          action: fc.constantFrom('publish' as const, 'unpublish' as const, 'discard-draft' as const),
          locale,
        }),
        weight: 3,
      });
    }
    arbs.push({
      arbitrary: fc.record({ op: fc.constant('delete' as const), type: fc.constant(type.uid), n: nOf, locale }),
      weight: 1,
    });
    arbs.push({
      arbitrary: fc.record({
        op: fc.constant('invalid' as const),
        type: fc.constant(type.uid),
        n: nOf,
        kind: fc.constantFrom(...INVALID_KINDS),
      }),
      weight: 1,
    });
  }
  return fc.oneof(...arbs);
}
