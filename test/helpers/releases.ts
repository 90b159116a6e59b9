/** Releases as the tests make them: through `/content-releases`, as the panel does. */
import assert from 'node:assert/strict';
import type { HttpClient } from './http.js';

/** A release as Strapi 5.54 answers its creation. */
export interface Release {
  id: number;
  documentId: string;
  name: string;
  releasedAt: string | null;
  scheduledAt: string | null;
  timezone: string | null;
  status: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: null;
  locale: null;
  failureReason: string | null;
}

/** A new release (a time and its zone for a scheduled one), made by `admin`. */
export async function createRelease(
  admin: HttpClient,
  body: { name: string; scheduledAt?: string; timezone?: string },
): Promise<Release> {
  const answer = await admin.post('/content-releases', body);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data;
}
