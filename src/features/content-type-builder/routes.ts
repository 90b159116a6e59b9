/**
 * The Content-Type Builder's admin API at Strapi 5.54's paths (`/content-type-builder/...`,
 * an administrator's JWT): the reads, and `POST /update-schema`, the batch the admin panel sends.
 * Writes change the project's files, so they are refused outside `vellum develop` with Strapi's
 * 403 `PolicyError`; under develop the new version of the project serves as soon as the files are
 * written (no restart: develop's reload, about 0.1-0.2 s).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApplicationError, PolicyError } from '../../core/errors.js';
import type { RawSchemaFile } from '../../core/schema/build.js';
import type { AuditEntry } from '../../core/documents/audit-port.js';
import type { Schema } from '../../core/schema/model.js';
import { describeSchema } from './format.js';
import { projectModels, registerReads } from './reads.js';
import { reservedNames } from './strings.js';
import { componentBatch, contentTypeBatch, deleteBatch } from './legacy.js';
import { applyCategoryChange, applySchemaChange } from './update.js';
import type { SchemaChange } from './validation.js';

/**
 * The batch's rules (validation.ts: Strapi's ~80 zod schemas) load with the first schema change,
 * not at every start: building them was ~20 ms of a start's CPU (docs/performance.md "Start-up and memory").
 */
let validationModule: Promise<typeof import('./validation.js')> | undefined;
const validation = () => (validationModule ??= import('./validation.js'));

export interface ContentTypeBuilderOptions {
  projectDir: string;
  builtIns: RawSchemaFile[];
  /** Checks the administrator's JWT (throws a 401). */
  authenticate: (authorization: string | string[] | undefined) => Promise<unknown>;
  /**
   * Under `vellum develop`: serves the project's next version once these files have changed
   * (resolves when it serves, rejects when it does not start). Absent in production.
   */
  reload?: (files: string[]) => Promise<void>;
  /** Under `vellum develop`: a change of the files is waiting to be served (or being built). */
  reloadPending?: () => boolean;
  /** Throws when the database cannot follow a schema (see `checkSchemaChange`). */
  checkDatabase: (schema: Schema) => Promise<void>;
  /**
   * Records the administrator's change in the audit log once its files are written (files have no
   * transaction to share): one entry per content-type and component, Strapi's Enterprise action
   * names (`content-type.create|update|delete`, `component.*`), the attributes named in `changed`.
   */
  record?: (authorization: string | string[] | undefined, entries: Omit<AuditEntry, 'actor'>[]) => Promise<void>;
}

/** The audit entries of a batch of changes. */
function auditEntries(change: SchemaChange): Omit<AuditEntry, 'actor'>[] {
  const entries = (kind: 'content-type' | 'component', models: SchemaChange['contentTypes']) =>
    models.map((model) => ({
      action: `${kind}.${model.action}`,
      subject: model.uid,
      ...(model.action === 'delete'
        ? {}
        : { changed: (model.attributes ?? []).map((attribute) => attribute.name).sort() }),
    }));
  return [...entries('content-type', change.contentTypes ?? []), ...entries('component', change.components ?? [])];
}

const PRODUCTION_MESSAGE =
  'Content-Type Builder modifications are disabled in production mode. Schema changes can only be made when running with autoReload enabled (strapi develop).';

export function registerContentTypeBuilderRoutes(app: FastifyInstance, options: ContentTypeBuilderOptions): void {
  const base = '/content-type-builder';
  // The files as they are now: under develop they change under a running version (and a
  // version built from a watcher's report can serve for a moment after a later change).
  const models = projectModels(options.projectDir, options.builtIns);
  const updating = () => isUpdating || (options.reloadPending?.() ?? false);
  const writer = { projectDir: options.projectDir, builtIns: options.builtIns, checkDatabase: options.checkDatabase };
  let isUpdating = false;

  void app.register(async (ctb) => {
    ctb.addHook('onRequest', async (request) => {
      await options.authenticate(request.headers.authorization);
    });
    const developOnly = async () => {
      if (!options.reload) throw new PolicyError(PRODUCTION_MESSAGE);
    };

    ctb.get(`${base}/reserved-names`, async () => reservedNames());
    ctb.get(`${base}/schema`, async () => ({ data: describeSchema(models()) }));
    ctb.get(`${base}/update-schema-status`, async () => ({ data: { isUpdating: updating() } }));

    registerReads(ctb, base, models);

    /** Applies a change (nothing is written when it throws), then serves the next version. */
    const apply = async <T extends { files: string[] }>(change: () => Promise<T>): Promise<T> => {
      isUpdating = true;
      try {
        const applied = await change();
        // This version answers `isUpdating: true` until the next one serves (it has its own flag).
        if (applied.files.length > 0) options.reload!(applied.files).catch(() => (isUpdating = false));
        else isUpdating = false;
        return applied;
      } catch (error) {
        isUpdating = false;
        throw error;
      }
    };

    ctb.post(`${base}/update-schema`, { preHandler: developOnly }, async (request, reply) => {
      // Before the check: nothing waits between it and `apply`, which marks the update as under way.
      const { parseUpdateSchema } = await validation();
      if (updating()) return reply.status(409).send(conflict('Schema update is already in progress.'));
      const current = models();
      // An empty body is `{}` to Strapi's body parser.
      const parsed = parseUpdateSchema(request.body ?? {}, current);
      if (!parsed.ok) return reply.status(400).send({ error: parsed.message });
      const { components, contentTypes } = parsed.data;
      if (components.length === 0 && contentTypes.length === 0) return {};
      try {
        await apply(() => applySchemaChange(writer, current, parsed.data));
      } catch (error) {
        if (error instanceof ApplicationError) return reply.status(400).send({ error: error.message });
        throw error;
      }
      await options.record?.(request.headers.authorization, auditEntries(parsed.data));
      return {};
    });

    // Strapi's older per-model routes: the same change as a batch (legacy.ts).
    type Uid = { Params: { uid: string } };
    const legacy = async (
      authorization: string | string[] | undefined,
      reply: FastifyReply,
      batch: unknown,
      current: ReturnType<typeof models>,
      answer: { status: number; uid: string },
    ) => {
      const { parseUpdateSchema } = await validation();
      const parsed =
        typeof batch === 'object' && batch && 'data' in batch ? parseUpdateSchema(batch, current) : undefined;
      // Checked by the batch's rules, applied as sent: Strapi's older routes add no defaults
      // (`pluginOptions: {}`, a component's `config: {}`) and keep every key.
      const change = parsed ? ((batch as { data: unknown }).data as SchemaChange) : (batch as SchemaChange);
      if (parsed && !parsed.ok)
        return reply.status(400).send({
          error: {
            name: 'ValidationError',
            message: parsed.message,
            details: { errors: parsed.issues.map((issue) => ({ ...issue, name: 'ValidationError' })) },
          },
        });
      try {
        await apply(() => applySchemaChange(writer, current, change));
      } catch (error) {
        if (error instanceof ApplicationError) return reply.status(400).send({ error: error.message });
        throw error;
      }
      await options.record?.(authorization, auditEntries(change));
      return reply.status(answer.status).send({ data: { uid: answer.uid } });
    };
    const notFound = (reply: FastifyReply, what: 'contentType' | 'component') =>
      reply.status(404).send({ error: `${what}.notFound` });

    ctb.post(`${base}/content-types`, { preHandler: developOnly }, async (request, reply) => {
      const current = models();
      const missing = requiredNames(request.body);
      if (missing) return reply.status(400).send(missing);
      const batch = contentTypeBatch(request.body ?? {}, current);
      const uid = String((batch.data.contentTypes as { uid: string }[])[0]!.uid);
      return legacy(request.headers.authorization, reply, batch, current, { status: 201, uid });
    });
    ctb.put<Uid>(`${base}/content-types/:uid`, { preHandler: developOnly }, async (request, reply) => {
      const current = models();
      if (!current.contentTypes.has(request.params.uid)) return notFound(reply, 'contentType');
      const missing = requiredNames(request.body);
      if (missing) return reply.status(400).send(missing);
      const batch = contentTypeBatch(request.body ?? {}, current, request.params.uid);
      return legacy(request.headers.authorization, reply, batch, current, { status: 201, uid: request.params.uid });
    });
    ctb.delete<Uid>(`${base}/content-types/:uid`, { preHandler: developOnly }, async (request, reply) => {
      const current = models();
      if (!current.contentTypes.has(request.params.uid)) return notFound(reply, 'contentType');
      return legacy(request.headers.authorization, reply, deleteBatch('contentTypes', request.params.uid), current, {
        status: 200,
        uid: request.params.uid,
      });
    });
    ctb.post(`${base}/components`, { preHandler: developOnly }, async (request, reply) => {
      const current = models();
      const batch = componentBatch(request.body ?? {}, current);
      const uid = String((batch.data.components as { uid: string }[])[0]!.uid);
      return legacy(request.headers.authorization, reply, batch, current, { status: 201, uid });
    });
    ctb.put<Uid>(`${base}/components/:uid`, { preHandler: developOnly }, async (request, reply) => {
      const current = models();
      if (!current.components.has(request.params.uid)) return notFound(reply, 'component');
      const batch = componentBatch(request.body ?? {}, current, request.params.uid);
      const uid = String((batch.data.components as { uid: string }[])[0]!.uid);
      return legacy(request.headers.authorization, reply, batch, current, { status: 200, uid });
    });
    ctb.delete<Uid>(`${base}/components/:uid`, { preHandler: developOnly }, async (request, reply) => {
      const current = models();
      if (!current.components.has(request.params.uid)) return notFound(reply, 'component');
      return legacy(request.headers.authorization, reply, deleteBatch('components', request.params.uid), current, {
        status: 200,
        uid: request.params.uid,
      });
    });

    type Name = { Params: { name: string } };
    const category = async (request: { params: { name: string } }, reply: FastifyReply, newName: string | null) => {
      try {
        const applied = await apply(() => applyCategoryChange(writer, models(), request.params.name, newName));
        return reply.send(newName === null ? { name: request.params.name } : { name: applied.name });
      } catch (error) {
        if (error instanceof ApplicationError) return reply.status(400).send({ error: error.message });
        throw error;
      }
    };
    ctb.put<Name>(`${base}/component-categories/:name`, { preHandler: developOnly }, async (request, reply) => {
      const name = (request.body as { name?: unknown } | undefined)?.name;
      const keys = Object.keys((request.body as object | undefined) ?? {});
      const problem =
        typeof name !== 'string' || name === ''
          ? 'name.required'
          : name.length < 3
            ? 'name must be at least 3 characters'
            : !/^[A-Za-z][-_0-9A-Za-z]*$/.test(name)
              ? 'name must start with a letter and only contain letters, numbers, dashes and underscores'
              : keys.some((key) => key !== 'name')
                ? 'this field has unspecified keys: ' + keys.filter((key) => key !== 'name').join(', ')
                : undefined;
      if (problem) {
        const errors = [
          { path: problem.startsWith('this') ? [] : ['name'], message: problem, name: 'ValidationError', value: name },
        ];
        return reply.status(400).send({ error: { name: 'ValidationError', message: problem, details: { errors } } });
      }
      return category(request, reply, name as string);
    });
    ctb.delete<Name>(`${base}/component-categories/:name`, { preHandler: developOnly }, async (request, reply) =>
      category(request, reply, null),
    );
  });
}

/**
 * Strapi's older content-type routes require both names, on an edit too (yup's messages): the
 * batch's rules ask for them on creation only.
 */
function requiredNames(body: unknown): { error: Record<string, unknown> } | undefined {
  const type = ((body as { contentType?: Record<string, unknown> } | undefined)?.contentType ?? {}) as Record<
    string,
    unknown
  >;
  const errors: Record<string, unknown>[] = [];
  for (const name of ['singularName', 'pluralName'])
    if (type[name] === undefined)
      errors.push({
        path: ['contentType', name],
        message: `contentType.${name} is a required field`,
        name: 'ValidationError',
      });
  if (type.singularName === type.pluralName)
    errors.push({
      path: ['contentType'],
      message: 'contentType: singularName and pluralName should be different',
      name: 'ValidationError',
      value: type,
    });
  if (errors.length === 0) return undefined;
  const message = errors.length === 1 ? String(errors[0]!.message) : `${errors.length} errors occurred`;
  return { error: { name: 'ValidationError', message, details: { errors } } };
}

/** Koa's `ctx.conflict` body, as Strapi answers it. */
const conflict = (message: string) => ({
  data: null,
  error: { status: 409, name: 'ConflictError', message, details: {} },
});
