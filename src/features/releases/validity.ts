/**
 * Whether a release action can be carried out now, as stored on the action (`is_entry_valid`,
 * `problem`, and the schema it was checked against): an unpublish always, a publish when its
 * entry's draft passes the publish rules (the document service's `publishProblem`, the code
 * `publish` runs), else the refusal's reason.
 */
import type { DocumentService } from '../../core/documents/service.js';
import type { ContentType } from '../../core/schema/model.js';
import { problemText } from './present.js';
import { checkedSchemaOf } from './schema-fingerprint.js';
import type { ReleaseActionType } from './tables.js';

export interface ActionValidity {
  valid: boolean;
  problem: string | null;
  /** The digest of the schema it was checked against (schema-fingerprint.ts); null: no type to check against. */
  checkedSchema: string | null;
}

export async function actionValidity(
  documents: DocumentService,
  type: ContentType,
  kind: ReleaseActionType,
  documentId: string | null,
  locale: string | null,
): Promise<ActionValidity> {
  const checkedSchema = checkedSchemaOf(documents.schema, type);
  if (kind === 'unpublish') return { valid: true, problem: null, checkedSchema };
  const refusal = await documents
    .of(type)
    .publishProblem({ documentId: documentId ?? undefined, locale: locale ?? undefined });
  return refusal
    ? { valid: false, problem: problemText(refusal), checkedSchema }
    : { valid: true, problem: null, checkedSchema };
}
