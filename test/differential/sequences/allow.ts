/**
 * The allow-list: differences Vellum makes on purpose (docs/coming-from-strapi.md says why), each with its reason,
 * and, with `--known`, bugs already reported and being fixed (so a local run does not find them
 * again and again; they are counted). Anything else fails the sequence. A difference allowed
 * ends its sequence: the two servers' states may have parted.
 */
import type { Response } from '../../helpers/http.js';
import type { Op } from './ops.js';
import type { Schema } from './schema.js';

export interface Difference {
  what: string;
  op: Op;
  found: string[];
  answers: Record<'strapi' | 'vellum', Response>;
  schema: Schema;
  /** The step wrote a locale the document did not have. */
  newLocale: boolean;
}

interface Allowance {
  name: string;
  reason: string;
  /** The states stay comparable: the sequence goes on (else it ends, as a pass). */
  continues?: boolean;
  /** Only with --known: a bug being fixed, not a deliberate difference. */
  known?: boolean;
  matches(d: Difference): boolean;
}

const json = (op: Op) => JSON.stringify(op);
const status = (d: Difference) => [d.answers.strapi.status, d.answers.vellum.status] as const;

/** Connect items whose position anchors on the item itself (same marker). */
function selfAnchored(op: Op): boolean {
  const walk = (v: unknown): boolean => {
    if (Array.isArray(v)) return v.some(walk);
    if (!v || typeof v !== 'object') return false;
    const o = v as Record<string, unknown>;
    if (o.$conn) {
      const { ref, position } = o.$conn as {
        ref: { $ref: { n: number } };
        position: Record<string, { $ref?: { n: number } }>;
      };
      const anchor = position.before ?? position.after;
      if (anchor?.$ref && anchor.$ref.n === ref.$ref.n) return true;
    }
    return Object.values(o).some(walk);
  };
  return 'data' in op && walk(op.data);
}

/** Whether generated data holds a marker matching `pred` anywhere. */
function some(v: unknown, pred: (o: Record<string, unknown>) => boolean): boolean {
  if (Array.isArray(v)) return v.some((x) => some(x, pred));
  if (!v || typeof v !== 'object') return false;
  const o = v as Record<string, unknown>;
  return pred(o) || Object.values(o).some((x) => some(x, pred));
}
const ID_FORMS = new Set(['id', 'idObject']);
/** A step that publishes (the content API's or the content manager's, one document or a batch). */
const publishes = (op: Op) =>
  (op.op === 'action' && op.action === 'publish') ||
  (op.op === 'update' && !op.draft) ||
  op.op === 'cm-publish' ||
  (op.op === 'cm-single' && op.action === 'publish') ||
  (op.op === 'cm-bulk' && op.action === 'bulkPublish');
/** A step that discards a draft. */
const discards = (op: Op) =>
  (op.op === 'action' && op.action === 'discard-draft') ||
  (op.op === 'cm-action' && (op.action === 'discard' || op.body === 'discard-draft')) ||
  (op.op === 'cm-single' && op.action === 'discard');
/** The state paths of a locale: the content API's (`$.en/draft`) and the content manager's (`$.cm en/draft`). */
const LOCALE_PATH = /^\$\.(?:cm )?(en|fr|-)\/(draft|published)\./;
const refForm = (r: unknown) => (r as { $ref?: { form: string } } | undefined)?.$ref?.form;

export const ALLOW_LIST: Allowance[] = [
  {
    name: 'self-anchored-position',
    reason:
      'connect with a position before/after the item itself: Strapi answers 500, Vellum a 400 (docs/coming-from-strapi.md)',
    matches: (d) => selfAnchored(d.op) && d.answers.strapi.status === 500,
  },
  {
    name: 'strapi-500-vellum-4xx',
    reason:
      'Strapi answers 500 (a crash, e.g. a position anchored on the item itself named once by id and once by documentId); Vellum refuses with a 4xx naming the problem (bad input is a 4xx, never a 500)',
    continues: true,
    matches: (d) =>
      d.what.startsWith('answers') &&
      d.answers.strapi.status === 500 &&
      d.answers.vellum.status >= 400 &&
      d.answers.vellum.status < 500,
  },
  {
    name: 'strapi-500-vellum-accepts',
    reason:
      'Strapi answers 500 (a crash, e.g. a repeatable component with relations in a new locale) on a write Vellum accepts; the states part there, the sequence ends',
    matches: (d) => d.what.startsWith('answers') && d.answers.strapi.status === 500 && d.answers.vellum.status < 300,
  },
  {
    name: 'integer-outside-32-bits',
    reason: 'Strapi stores integers outside 32 bits (SQLite does not check), Vellum refuses them with a 400',
    matches: (d) =>
      d.op.op === 'invalid' &&
      d.op.kind === 'integer-64' &&
      d.answers.strapi.status < 300 &&
      d.answers.vellum.status === 400,
  },
  {
    name: 'deleted-document-relations-first',
    reason:
      'a write naming relations to a deleted or unknown document: Strapi checks relations before answering 404 (docs/coming-from-strapi.md)',
    matches: (d) =>
      d.what.startsWith('answers') &&
      status(d)[0] === 400 &&
      status(d)[1] === 404 &&
      (/\$ref|missing-relation/.test(json(d.op)) ||
        /^Document with id .* not found$/.test(String(d.answers.strapi.body?.error?.message))) &&
      /not found/i.test(String(d.answers.strapi.body?.error?.message)),
  },
  // docs/coming-from-strapi.md (REST writes), deliberate differences from Strapi 5.54 (listed there with their reasons):
  {
    name: 'readme:delete-unknown-404',
    reason:
      "DELETE of an unknown document or of a locale the document lacks is a 404 (Strapi: 204 deleting nothing; its content manager's 200 `{}` when the document has other locales)",
    continues: true,
    matches: (d) =>
      (d.op.op === 'delete' || d.op.op === 'single-delete' || d.op.op === 'cm-delete') &&
      d.what.startsWith('answers') &&
      (d.answers.strapi.status === 204 || (d.op.op === 'cm-delete' && d.answers.strapi.status === 200)) &&
      d.answers.vellum.status === 404,
  },
  {
    name: 'readme:numeric-id-both-versions',
    reason: 'a numeric id links its document in both versions (Strapi links that one row)',
    matches: (d) =>
      'data' in d.op &&
      some(
        d.op.data,
        (o) =>
          ID_FORMS.has(refForm(o) ?? '') &&
          d.schema.types.get((o.$ref as { type: string }).type)?.draftAndPublish === true,
      ),
  },
  {
    name: 'readme:mixed-position-forms',
    reason: 'positions may mix ids and documentIds (Strapi: 400)',
    matches: (d) =>
      'data' in d.op &&
      d.answers.strapi.status === 400 &&
      some(d.op.data, (o) => {
        if (!o.$conn) return false;
        const { ref, position } = o.$conn as { ref: unknown; position: Record<string, unknown> };
        const anchor = position.before ?? position.after;
        return anchor !== undefined && ID_FORMS.has(refForm(ref) ?? '') !== ID_FORMS.has(refForm(anchor) ?? '');
      }),
  },
  {
    name: 'readme:publish-syncs-other-drafts',
    reason: "a publishing write also updates the other locales' drafts' shared values (Strapi leaves them stale)",
    matches: (d) => {
      const locale = 'locale' in d.op ? (d.op.locale ?? 'en') : 'en';
      return (
        publishes(d.op) &&
        d.what.startsWith('state') &&
        d.found.every((f) => LOCALE_PATH.test(f) && LOCALE_PATH.exec(f)![1] !== locale)
      );
    },
  },
  {
    name: 'readme:new-locale-copies-drafts',
    reason:
      "a new locale copies the shared values of the other locales' drafts (Strapi: a published version first, by publishedAt)",
    matches: (d) => d.newLocale,
  },
  {
    name: 'publish-locale-shared-sync',
    reason:
      "publishing one locale: Strapi skips its shared-value sync when its lookup picks an already-synced version (Vellum syncs every locale's published version)",
    matches: (d) => {
      const locale = 'locale' in d.op ? (d.op.locale ?? 'en') : 'en';
      return (
        publishes(d.op) &&
        d.what.startsWith('state') &&
        d.found.every(
          (f) => LOCALE_PATH.test(f) && LOCALE_PATH.exec(f)![2] === 'published' && LOCALE_PATH.exec(f)![1] !== locale,
        )
      );
    },
  },
  {
    name: 'readme:uid-from-target-field',
    reason:
      'a POST omitting a uid that has a targetField: Strapi stores null, Vellum generates it (creates always name it; this catches the rest)',
    matches: (d) =>
      (d.op.op === 'create' || d.op.op === 'cm-create' || d.op.op === 'cm-clone') &&
      d.found.every(
        (f) => /\.slug: strapi null, vellum "/.test(f) || (/only vellum has it/.test(f) === false && /\.slug/.test(f)),
      ),
  },
  {
    name: 'actions-through-content-manager',
    reason:
      "Strapi has no content-API publication actions: its admin content-manager's publish of a locale the document lacks creates it from the (empty) body and fails validation (400) where Vellum's action answers 404",
    continues: true,
    matches: (d) =>
      d.op.op === 'action' &&
      d.op.action === 'publish' &&
      d.what.startsWith('answers') &&
      status(d)[0] === 400 &&
      status(d)[1] === 404,
  },
  {
    name: 'readme:published-link-to-later-published-target',
    reason:
      'a published document linked to a target that had only a draft: Strapi leaves it unlinked when the target is published later; Vellum links documents, not rows',
    matches: (d) =>
      (publishes(d.op) || d.op.op === 'create') &&
      d.what.startsWith('state') &&
      d.found.every(
        (f) =>
          /^\$\.(cm )?[a-z-]+\/published\./.test(f) &&
          /strapi (null|0),|length strapi \d+, vellum \d+|\.count: strapi \d+, vellum \d+/.test(f),
      ),
  },
  {
    name: 'readme:discard-keeps-link-to-draft-only-target',
    reason:
      "a discarded draft keeps links to targets that have only a draft: the published version holds them (links join documents); Strapi's draft, copied from published rows, loses them",
    matches: (d) =>
      discards(d.op) &&
      d.what.startsWith('state') &&
      d.found.every(
        (f) =>
          /^\$\.(cm )?[a-z-]+\/draft\./.test(f) &&
          /strapi (null|0),|length strapi \d+, vellum \d+|\.count: strapi \d+, vellum \d+/.test(f),
      ),
  },
  {
    name: 'readme:required-media-enforced',
    reason:
      'a required media attribute left out or null on a published write: Strapi 5.54 does not check it (201), Vellum refuses it (400 "must be defined"), as its admin and the schema say',
    matches: (d) => {
      const type = 'type' in d.op ? d.schema.types.get(String(d.op.type)) : undefined;
      const errors = (
        d.answers.vellum.body as { error?: { details?: { errors?: { path?: unknown[]; message?: string }[] } } } | null
      )?.error?.details?.errors;
      return (
        d.what.startsWith('answers') &&
        d.answers.strapi.status < 300 &&
        d.answers.vellum.status === 400 &&
        !!type &&
        !!errors?.length &&
        errors.every(
          (e) =>
            /must be defined/.test(e.message ?? '') &&
            (type.attributes[String(e.path?.[0])] as { type?: string } | undefined)?.type === 'media',
        )
      );
    },
  },
  {
    name: 'readme:unconfigured-locale-write',
    reason:
      'a write with ?locale=<not configured>: Strapi creates a version in it (or ignores it), Vellum 400 naming the locale',
    continues: true,
    matches: (d) =>
      d.op.op === 'invalid' &&
      d.op.kind === 'bad-locale' &&
      d.what.startsWith('answers') &&
      d.answers.vellum.status === 400,
  },
  {
    name: 'readme:unknown-status',
    reason:
      '?status=<neither draft nor published>: Strapi reads drafts (404 on an unknown document), Vellum 400 naming the parameter: bad input is a 4xx (docs/coming-from-strapi.md)',
    continues: true,
    matches: (d) =>
      d.op.op === 'invalid' &&
      d.op.kind === 'bad-status' &&
      d.what.startsWith('answers') &&
      d.answers.vellum.status === 400,
  },
  {
    name: 'readme:clone-body-replaces-components',
    reason:
      "a duplicate's body replaces the source's components, zone entries and media lists (Strapi merges the body into the source, lists by index: entries and values the editor removed stay)",
    matches: (d) => {
      if (d.op.op !== 'cm-clone') return false;
      const type = d.schema.types.get(d.op.type);
      return d.found.every((f) => {
        const name = /\.data\.([A-Za-z0-9_]+)/.exec(f)?.[1];
        const a = name ? type?.attributes[name] : undefined;
        return !!a && (a.type === 'dynamiczone' || a.type === 'component' || (a.type === 'media' && a.multiple));
      });
    },
  },
  {
    name: 'readme:unpublish-answers-draft',
    reason:
      "the content manager's unpublish answers the draft left (Strapi answers the published version it removed, the draft among its localizations) (docs/admin-panel.md)",
    continues: true,
    matches: (d) =>
      ((d.op.op === 'cm-action' && d.op.action === 'unpublish') ||
        (d.op.op === 'cm-single' && d.op.action === 'unpublish')) &&
      d.what.startsWith('answers') &&
      d.answers.strapi.status < 300 &&
      d.answers.vellum.status < 300,
  },
  {
    name: 'known:cm-count-links-to-draft-only-targets',
    known: true,
    reason:
      "left for now: a type without draft and publish linking documents that have only a draft: the content manager's `{ count }` counts them on Strapi (its link rows point at the draft), not on Vellum (its reads of such a type show published targets)",
    matches: (d) => {
      const type = 'type' in d.op ? d.schema.types.get(String(d.op.type)) : undefined;
      return !!type && !type.draftAndPublish && d.found.every((f) => /\.count: strapi \d+, vellum \d+$/.test(f));
    },
  },
  {
    name: 'readme:clone-relation-edits-over-source-links',
    reason:
      "a duplicate whose form connects or disconnects links: Vellum applies them to the source's links, as the form shows them (Strapi: the connected ones alone, the source's others dropped); a link whose other side is to-one then moves to the copy",
    matches: (d) =>
      d.op.op === 'cm-clone' &&
      Object.values(d.op.edits).some((v) => {
        const p = (v as { $panel?: { connect: unknown[]; disconnect: unknown[] } } | null)?.$panel;
        return !!p && (p.connect.length > 0 || p.disconnect.length > 0);
      }),
  },
  {
    name: 'known:cm-localizations-empty',
    known: true,
    continues: true,
    reason:
      "left for now: a version as the content manager answers it: Strapi lists the other locales' versions of its status in `data.localizations`, Vellum an empty list",
    matches: (d) => d.found.every((f) => /\.data\.localizations(\[|:|$)/.test(f)),
  },
  // docs/coming-from-strapi.md (the content manager's list tools):
  {
    name: 'readme:bulk-errors-listed',
    reason:
      'a bulk action answers `errors` listing each entry not done, with its reason, beside `count` (Strapi: `{ count }` alone)',
    continues: true,
    matches: (d) =>
      d.op.op === 'cm-bulk' &&
      d.what.startsWith('answers') &&
      d.answers.strapi.status < 300 &&
      d.answers.vellum.status < 300 &&
      d.found.every((f) => f.startsWith('$.body.errors')),
  },
  {
    name: 'readme:bulk-each-entry-on-its-own',
    reason:
      'a bulk action with an entry that cannot be done (a draft that does not validate, a document missing): Strapi refuses or rolls back the whole batch, Vellum does the others and lists that one in `errors`',
    matches: (d) =>
      d.op.op === 'cm-bulk' &&
      d.what.startsWith('answers') &&
      d.answers.strapi.status >= 400 &&
      d.answers.vellum.status < 300 &&
      Array.isArray((d.answers.vellum.body as { errors?: unknown } | null)?.errors),
  },
];

/** The name of the allowance that takes this difference, if any. */
export function allowed(d: Difference, known: boolean): Allowance | undefined {
  return ALLOW_LIST.find((a) => (known || !a.known) && a.matches(d));
}
