/** The audit log as the tests read it: an administrator's client, and the entries of a document. */
import assert from 'node:assert/strict';
import { HttpClient } from './http.js';
import type { TestServer } from './server.js';
import { unique } from './unique.js';

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

/** A new administrator (a Super Admin), logged in. */
export async function adminClient(server: TestServer, email = `${unique('admin')}@example.com`) {
  const { id } = await server.vellum.auth.admins.create(email, 'an-admin-password');
  const login = await server.publicApi.post('/admin/login', { email, password: 'an-admin-password' });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return { id, email, client: new HttpClient(server.url, { authorization: `Bearer ${login.body.data.token}` }) };
}

/** The entries about one document, oldest first. */
export async function entriesOf(admin: HttpClient, documentId: string): Promise<Entry[]> {
  const res = await admin.get(
    `/admin/audit-logs?sort=date:ASC&pageSize=100&filters[$and][0][documentId][$eq]=${encodeURIComponent(documentId)}`,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.results;
}
