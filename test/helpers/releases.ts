/** Releases as the tests make them: through `/content-releases`, as the panel does. */
import assert from 'node:assert/strict';
import { ok, type HttpClient } from './http.js';
import { unique } from './unique.js';

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

/** An entry added to a release (`POST /content-releases/:id/actions`, a publish unless `type` says): the action. */
export async function addAction(
  admin: HttpClient,
  releaseId: number,
  action: { contentType: string; entryDocumentId: string; locale?: string; type?: 'publish' | 'unpublish' },
): Promise<Record<string, any>> {
  const answer = await admin.post(`/content-releases/${releaseId}/actions`, { type: 'publish', ...action });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data;
}

/** A release as the panel reads it. */
export interface ReleaseState {
  status: string;
  /** `actions.meta.count` of `GET /content-releases/:id`, and of the release in the list. */
  count: number;
  listedCount: number;
  /** How many actions `GET /content-releases/:id/actions` lists. */
  total: number;
  /** Those actions as `documentId:locale:type` (`-`: no locale), sorted. */
  entries: string[];
}

/** A release's status, its count as read alone and as listed, and its actions' entries. */
export async function releaseState(admin: HttpClient, id: number): Promise<ReleaseState> {
  const ok = async (path: string) => {
    const answer = await admin.get(path);
    assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const read = (await ok(`/content-releases/${id}`)).data;
  const listed = (await ok('/content-releases?pageSize=100')).data.find((item: { id: number }) => item.id === id);
  const actions = await ok(`/content-releases/${id}/actions?groupBy=locale&pageSize=100`);
  type Listed = { entryDocumentId: string; locale: { code: string } | null; type: string };
  const entries = Object.values(actions.data as Record<string, Listed[]>)
    .flat()
    .map((action) => `${action.entryDocumentId}:${action.locale?.code ?? '-'}:${action.type}`)
    .sort();
  return {
    status: read.status,
    count: read.actions.meta.count,
    listedCount: listed.actions.meta.count,
    total: actions.meta.pagination.total,
    entries,
  };
}

const CM = '/content-manager/collection-types';

/**
 * The `releases` fixture's drafts and releases, made by the administrator `admin()` answers (one
 * signed in by a `before`) through the content manager, as the panel does. A title or heading null
 * leaves the draft invalid to publish.
 */
export function releaseFixture(admin: () => HttpClient, releaseName: string) {
  return {
    /** A draft post in en, then in fr when given: its documentId. */
    async post(en: string | null, fr?: string | null): Promise<string> {
      const id = (await ok(admin().post(`${CM}/api::post.post?locale=en`, { title: en }), 201)).data.documentId;
      if (fr !== undefined) await ok(admin().put(`${CM}/api::post.post/${id}?locale=fr`, { title: fr }));
      return id as string;
    },
    /** A draft page: its documentId. */
    async page(heading: string | null): Promise<string> {
      return (await ok(admin().post(`${CM}/api::page.page`, { heading }), 201)).data.documentId as string;
    },
    /** A new release named `releaseName` and a unique suffix: its id. */
    async release(): Promise<number> {
      return (await createRelease(admin(), { name: unique(releaseName) })).id;
    },
  };
}
