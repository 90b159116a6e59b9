/**
 * What Strapi 5.54's admin panel sends to its content manager, as random operations (the
 * `--api content-manager` mode of run.ts). Edits are the fields an editor changes; the engine
 * turns them into the request the panel makes (cm-forms.ts): the whole form of the version read
 * just before, with the edits over it.
 */
import fc from 'fast-check';
import { dataArb, localeArb, nOf, type Locale, type Op } from './ops.js';
import type { Schema, TypeInfo } from './schema.js';

export const CM_INVALID_KINDS = [
  'body-not-object',
  'unknown-attribute',
  'wrong-type',
  'bad-enum',
  'required-empty-publish',
  'unknown-document',
  'bad-locale',
  'bulk-empty',
  'clone-unknown',
] as const;
export type CmInvalidKind = (typeof CM_INVALID_KINDS)[number];

export type CmOp =
  /** New document from the create page: the default form with the edits, saved or published. */
  | { op: 'cm-create'; type: string; edits: Record<string, unknown>; publish: boolean; locale?: Locale }
  /**
   * Save (PUT) the whole form of the draft with the edits; on a locale the document lacks it
   * creates it (the panel's form then starts empty, or `fill` with another locale's values).
   * `keepIds`: edits of components change the form's items in place (their ids sent), else replace them.
   */
  | {
      op: 'cm-save';
      type: string;
      n: number;
      edits: Record<string, unknown>;
      keepIds: boolean;
      fill: boolean;
      locale?: Locale;
    }
  /** Publish: with the whole form (the panel's), or no body. */
  | { op: 'cm-publish'; type: string; n: number; edits: Record<string, unknown>; body: boolean; locale?: Locale }
  /** Unpublish (body `{ discardDraft }` as the panel sends it, or none) and discard. */
  | {
      op: 'cm-action';
      type: string;
      n: number;
      action: 'unpublish' | 'discard';
      body: 'none' | 'keep' | 'discard-draft';
      locale?: Locale;
    }
  /** Delete one locale, or the whole document (`locale=*`, the panel's "delete all locales"). */
  | { op: 'cm-delete'; type: string; n: number; locale?: Locale | '*' }
  /** Duplicate: the source's form with the edits, POSTed to clone/:documentId. */
  | { op: 'cm-clone'; type: string; n: number; edits: Record<string, unknown>; locale?: Locale }
  | {
      op: 'cm-bulk';
      type: string;
      ns: number[];
      action: 'bulkPublish' | 'bulkUnpublish' | 'bulkDelete';
      locale?: Locale;
    }
  | {
      op: 'cm-single';
      type: string;
      action: 'save' | 'publish' | 'unpublish' | 'discard' | 'delete';
      edits: Record<string, unknown>;
      locale?: Locale;
    }
  | { op: 'cm-invalid'; type: string; n: number; kind: CmInvalidKind; locale?: Locale };

/** A few edits of a type's fields, as the panel sends them. */
function editsArb(schema: Schema, type: TypeInfo, forceLabel = false): fc.Arbitrary<Record<string, unknown>> {
  return dataArb(schema, type.attributes, 0, type.label, forceLabel, 'panel');
}

export function cmOpArb(schema: Schema): fc.Arbitrary<Op> {
  const arbs: { arbitrary: fc.Arbitrary<Op>; weight: number }[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<Op>) => arbs.push({ arbitrary, weight });
  for (const type of schema.types.values()) {
    const t = fc.constant(type.uid);
    const locale = type.i18n ? fc.option(localeArb, { nil: undefined, freq: 2 }) : fc.constant(undefined);
    if (type.kind === 'singleType') {
      add(
        3,
        fc.record({
          op: fc.constant('cm-single' as const),
          type: t,
          action: type.draftAndPublish
            ? fc.constantFrom(
                'save' as const,
                'save' as const,
                'publish' as const,
                'unpublish' as const,
                'discard' as const,
                'delete' as const,
              )
            : fc.constantFrom('save' as const, 'save' as const, 'delete' as const),
          edits: editsArb(schema, type),
          locale,
        }),
      );
      continue;
    }
    add(
      5,
      fc.record({
        op: fc.constant('cm-create' as const),
        type: t,
        edits: editsArb(schema, type, true),
        publish: type.draftAndPublish ? fc.boolean() : fc.constant(false),
        locale: type.i18n ? fc.option(fc.constant<Locale>('fr'), { nil: undefined, freq: 4 }) : fc.constant(undefined),
      }),
    );
    add(
      8,
      fc.record({
        op: fc.constant('cm-save' as const),
        type: t,
        n: nOf,
        edits: editsArb(schema, type),
        keepIds: fc.boolean(),
        fill: type.i18n ? fc.boolean() : fc.constant(false),
        locale,
      }),
    );
    if (type.draftAndPublish) {
      add(
        4,
        fc.record({
          op: fc.constant('cm-publish' as const),
          type: t,
          n: nOf,
          edits: fc.oneof(fc.constant({}), editsArb(schema, type)),
          body: fc.boolean(),
          locale,
        }),
      );
      add(
        3,
        fc.record({
          op: fc.constant('cm-action' as const),
          type: t,
          n: nOf,
          action: fc.constantFrom('unpublish' as const, 'discard' as const),
          body: fc.constantFrom('none' as const, 'keep' as const, 'discard-draft' as const),
          locale,
        }),
      );
    }
    add(
      1,
      fc.record({
        op: fc.constant('cm-delete' as const),
        type: t,
        n: nOf,
        locale: type.i18n
          ? fc.option(fc.constantFrom<Locale | '*'>('en', 'fr', '*'), { nil: undefined, freq: 2 })
          : fc.constant(undefined),
      }),
    );
    add(
      2,
      fc.record({
        op: fc.constant('cm-clone' as const),
        type: t,
        n: nOf,
        edits: editsArb(schema, type),
        locale,
      }),
    );
    add(
      2,
      fc.record({
        op: fc.constant('cm-bulk' as const),
        type: t,
        ns: fc.uniqueArray(nOf, { minLength: 1, maxLength: 3 }),
        action: type.draftAndPublish
          ? fc.constantFrom('bulkPublish' as const, 'bulkUnpublish' as const, 'bulkDelete' as const)
          : fc.constant('bulkDelete' as const),
        locale,
      }),
    );
    add(
      1,
      fc.record({
        op: fc.constant('cm-invalid' as const),
        type: t,
        n: nOf,
        kind: fc.constantFrom(...CM_INVALID_KINDS),
        locale,
      }),
    );
  }
  return fc.oneof(...arbs);
}
