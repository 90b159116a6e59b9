/**
 * Random write sequences against the real Strapi 5.54 and Vellum (model-based testing with
 * fast-check: seeded, shrunk to a minimal sequence). On demand only:
 *
 *   npm run test:strapi:sequences -- --seed 1 --runs 20 [--steps 20] [--schema blog|matrix]   (every sequence has --steps steps)
 *     [--api content|content-manager] (content-manager: what Strapi's admin panel sends, cm-ops.ts and
 *     cm-forms.ts: whole forms on save/publish/clone, new locales, bulk actions, single types; each
 *     touched document then also read through the content manager, every locale and status)
 *     [--known] (allow the reported bugs being fixed, counted)  [--no-webhooks] [--no-shrink]
 *     [--path P] (replay fast-check's counterexample path)  [--findings FILE] (append failures)
 *
 * One pair of servers serves every run: each run's documents carry a unique prefix and are read
 * back by documentId, so runs never see each other's data. DIFF_STRAPI_URL + DIFF_STRAPI_TOKEN
 * reuse a Strapi already running on the same project (see harness.ts).
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import sharp from 'sharp';
import { HttpClient, type Response } from '../../helpers/http.js';
import { Receiver } from '../../helpers/receiver.js';
import { BLOG, fixture } from '../../helpers/server.js';
import { openDifferential } from '../harness.js';
import { ALLOW_LIST } from './allow.js';
import { SequenceFailure, SequenceRun, type SidePorts } from './engine.js';
import { cmOpArb } from './cm-ops.js';
import { opArb, type Op } from './ops.js';
import { loadSchema } from './schema.js';
import { projectWithStrapiWebhook, WEBHOOK_EVENTS } from '../strapi-webhook.js';

const { values: args } = parseArgs({
  options: {
    seed: { type: 'string' },
    runs: { type: 'string', default: '10' },
    steps: { type: 'string', default: '20' },
    schema: { type: 'string', default: 'matrix' },
    api: { type: 'string', default: 'content' },
    known: { type: 'boolean', default: false },
    'no-webhooks': { type: 'boolean', default: false },
    'no-shrink': { type: 'boolean', default: false },
    path: { type: 'string' },
    findings: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const seed = args.seed !== undefined ? Number(args.seed) : Date.now() % 1_000_000;
const runs = Number(args.runs);
const steps = Number(args.steps);
if (args.schema !== 'blog' && args.schema !== 'matrix') throw new Error('--schema blog|matrix');
if (args.api !== 'content' && args.api !== 'content-manager') throw new Error('--api content|content-manager');
const api = args.api;
const project = args.schema === 'blog' ? BLOG : fixture('relation-matrix');
const schema = loadSchema(project);
const webhooks = !args['no-webhooks'];

const publicDir = mkdtempSync(join(tmpdir(), 'vellum-seq-public-'));
// Strapi's webhook is registered by the copied project's bootstrap (see strapi-webhook.ts): started
// before the servers, its receiver is known to it.
const receivers = { strapi: await Receiver.start(), vellum: await Receiver.start() };
const copy = webhooks ? projectWithStrapiWebhook(project, receivers.strapi.url) : undefined;
const diff = await openDifferential({
  name: `${api === 'content' ? 'sequences' : 'cmseq'}-${args.schema}${webhooks ? '-webhooks' : ''}`,
  project: copy?.dir ?? project,
  readyPath: args.schema === 'blog' ? '/api/articles' : '/api/owners',
  vellumConfig: { server: { dirs: { public: publicDir }, webhooks: { pollInterval: 50, retryDelay: 50 } } },
});

async function uploadAll(client: HttpClient): Promise<{ documentId: string; id: number }[]> {
  const out: { documentId: string; id: number }[] = [];
  for (const [i, color] of ['#cc3333', '#33cc33', '#3333cc'].entries()) {
    const bytes = await sharp({ create: { width: 4 + i, height: 4, channels: 3, background: color } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `seq-${i}.png`);
    const res = await fetch(`${client.baseUrl}/api/upload`, {
      method: 'POST',
      body: form,
      headers: client.defaultHeaders,
    });
    const body = (await res.json()) as { documentId: string; id: number }[];
    if (!res.ok) throw new Error(`upload: ${res.status} ${JSON.stringify(body)}`);
    out.push({ documentId: body[0]!.documentId, id: body[0]!.id });
  }
  return out;
}

/**
 * An admin client that logs in again when its token has expired (Strapi's admin JWT lasts 30
 * minutes: a longer run's content-manager actions answered 401 after that).
 */
function adminSession(
  baseUrl: string,
  email: string,
  password: string,
): { get(): Promise<HttpClient>; renew(): Promise<HttpClient> } {
  let client: HttpClient | undefined;
  const renew = async () => {
    const login = await new HttpClient(baseUrl).post('/admin/login', { email, password });
    if (login.status !== 200) throw new Error(`admin login at ${baseUrl}: ${login.status} ${login.text.slice(0, 200)}`);
    client = new HttpClient(baseUrl, { authorization: `Bearer ${login.body.data.token}` });
    return client;
  };
  return { get: async () => client ?? renew(), renew };
}

async function setUp(): Promise<[SidePorts, SidePorts]> {
  // Strapi's publication actions live in its admin content-manager (no content-API route).
  const strapiAdmin = adminSession(
    diff.strapi.baseUrl,
    process.env.ADMIN_EMAIL ?? 'admin@example.com',
    process.env.ADMIN_PASSWORD ?? 'Admin-Passw0rd!',
  );
  await diff.vellumServer.vellum.auth.admins
    .create('sequences@example.com', 'a-sequences-password')
    .catch(() => undefined);
  const vellumAdmin = adminSession(diff.vellumServer.url, 'sequences@example.com', 'a-sequences-password');
  const sides: SidePorts[] = [];
  for (const [name, api, admin] of [
    ['strapi', diff.strapi, strapiAdmin],
    ['vellum', diff.vellum, vellumAdmin],
  ] as const) {
    const receiver = receivers[name];
    if (webhooks && name === 'vellum') {
      const hook = await (
        await admin.get()
      ).post('/admin/webhooks', {
        name: `sequences-${Date.now()}`,
        url: receiver.url,
        headers: {},
        events: WEBHOOK_EVENTS,
      });
      if (hook.status !== 201)
        throw new Error(`vellum: webhook not created: ${hook.status} ${hook.text.slice(0, 200)}`);
    }
    const media = await uploadAll(api);
    // Both through their admin content manager: it saves the draft before publishing (entry.update, then entry.publish).
    const action = async (
      type: { uid: string },
      documentId: string,
      a: string,
      locale: string | undefined,
    ): Promise<Response> => {
      const path = `${name === 'vellum' ? '/admin' : ''}/content-manager/collection-types/${type.uid}/${documentId}/actions/${a === 'discard-draft' ? 'discard' : a}${locale ? `?locale=${locale}` : ''}`;
      const res = await (await admin.get()).post(path, {});
      return res.status === 401 ? (await admin.renew()).post(path, {}) : res;
    };
    const cm = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) => {
      const send = (client: HttpClient) =>
        method === 'GET'
          ? client.get(path)
          : method === 'DELETE'
            ? client.delete(path)
            : method === 'PUT'
              ? client.put(path, body)
              : client.post(path, body);
      const res = await send(await admin.get());
      return res.status === 401 ? send(await admin.renew()) : res;
    };
    sides.push({ name, api, action, cm, receiver, media });
  }
  return sides as [SidePorts, SidePorts];
}

const counters = new Map<string, number>();
let executions = 0;
let lastTranscript = '';

async function runSequence(
  sides: [SidePorts, SidePorts],
  ops: Op[],
  log = false,
): Promise<SequenceFailure | undefined> {
  executions++;
  const run = new SequenceRun({ schema, sides, known: args.known, webhooks, counters, api });
  await run.start();
  try {
    for (const [i, op] of ops.entries()) await run.step(op, i);
    lastTranscript = run.text;
    if (log || args.verbose) console.log(`--- sequence ${executions}\n${run.text}`);
    return undefined;
  } catch (error) {
    if (error instanceof SequenceFailure) {
      lastTranscript = error.transcript;
      return error;
    }
    throw error;
  }
}

let exitCode = 0;
try {
  const sides = await setUp();
  const started = Date.now();
  const property = fc.asyncProperty(
    fc.array(api === 'content' ? opArb(schema) : cmOpArb(schema), { minLength: steps, maxLength: steps }),
    async (ops) => {
      const failure = await runSequence(sides, ops);
      // Allowed differences end their sequence as a pass (counted).
      if (failure && !failure.allowedBy) throw failure;
    },
  );
  const result = await fc.check(property, {
    seed,
    numRuns: runs,
    endOnFailure: args['no-shrink'],
    ...(args.path ? { path: args.path } : {}),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    `# api ${api}, schema ${args.schema}, seed ${seed}, runs ${result.numRuns}/${runs}, ${steps} steps each (shrinking may shorten a failing one), ${executions} sequences executed (with shrinking) in ${seconds} s`,
  );
  for (const [name, count] of [...counters].sort())
    console.log(
      name.startsWith('#')
        ? `${name}: ${count}`
        : `# allowed: ${name} x${count} (${ALLOW_LIST.find((a) => a.name === name)?.reason})`,
    );
  if (result.failed && result.counterexample) {
    exitCode = 1;
    const [ops] = result.counterexample as [Op[]];
    const failure = await runSequence(sides, ops);
    const report = [
      `## ${new Date().toISOString()} schema ${args.schema}, seed ${seed}, path ${result.counterexamplePath} (${ops.length} steps after ${result.numShrinks} shrinks)`,
      '',
      '```',
      failure ? failure.transcript : `(the replay passed: flaky) ${lastTranscript}`,
      '```',
      '',
    ].join('\n');
    console.log(report);
    if (!failure) console.log(`original error: ${String(result.errorInstance)}`);
    if (args.findings) appendFileSync(args.findings, `${report}\n`);
  } else if (result.failed) {
    exitCode = 1;
    console.log(String(result.errorInstance));
  } else {
    console.log('# no difference');
  }
} finally {
  await diff.close();
  for (const receiver of Object.values(receivers)) await receiver.close();
  copy?.remove();
  rmSync(publicDir, { recursive: true, force: true });
}
process.exit(exitCode);
