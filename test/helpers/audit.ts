/** The audit log as the tests read it: the entries of a document (and an administrator's client, from admins.ts). */
import assert from 'node:assert/strict';
import type { HttpClient } from './http.js';

export interface Entry {
  id: number;
  action: string;
  date: string;
  user: { id: number; email: string | null; displayName: string | null } | null;
  payload: {
    uid?: string;
    documentId?: string;
    locale?: string;
    subject?: string;
    changedFields?: string[];
    details?: Record<string, unknown>;
  };
}

// The audit tests' administrator, made as the admin tests make theirs.
export { adminClient } from './admins.js';

/** The entries about one document, oldest first. */
export async function entriesOf(admin: HttpClient, documentId: string): Promise<Entry[]> {
  const res = await admin.get(
    `/admin/audit-logs?sort=date:ASC&pageSize=100&filters[$and][0][documentId][$eq]=${encodeURIComponent(documentId)}`,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results;
}
