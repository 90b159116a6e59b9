/**
 * `vellum audit`: the audit log, newest first, with the filters of its screen and API:
 *
 *   vellum audit [--user <id|email>] [--action entry.update[,entry.publish]] [--type api::article.article]
 *                [--document <documentId>] [--since <date>] [--until <date>] [--limit 50] [--json] [--project dir]
 *
 * One line per entry (time, action, who, what, the fields changed), or with `--json` a JSON array
 * of the entries as `GET /admin/audit-logs` answers them. Pages are read with the cursor, so a
 * large `--limit` costs one page of the index per hundred entries, however long the log.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../../core/config/load.js';
import { connectDatabase } from '../../core/database/connection.js';
import { synchronizeSchema } from '../../core/database/sync.js';
import { ValidationError } from '../../core/errors.js';
import { loadProjectSchema } from '../../core/schema/load.js';
import { AuditReads, parseAuditQuery, type AuditLogEntry } from '../../features/audit/index.js';
import { loadProjectForCommand } from '../../strapi/index.js';
import { builtInTypes, systemTables } from '../built-ins.js';
import type { CliIo } from './io.js';

export const AUDIT_USAGE = `  vellum audit [--user <id|email>] [--action a,b] [--type <uid>] [--document <documentId>]
               [--since <date>] [--until <date>] [--limit 50] [--json]   the audit log, newest first`;

const OPTIONS = {
  project: { type: 'string' },
  user: { type: 'string' },
  action: { type: 'string' },
  type: { type: 'string' },
  document: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const PAGE = 100;
const MAX_LIMIT = 1_000_000;

/** A date on the command line (ISO 8601, `2025-01-31`), as milliseconds; a bad one names its flag. */
function dateOf(text: string, flag: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms))
    throw new ValidationError(`--${flag} must be a date such as 2025-01-31 or 2025-01-31T12:00:00Z`);
  return String(ms);
}

/** One entry on one line: time, action, who, what, the fields changed. */
export function formatEntry(entry: AuditLogEntry): string {
  const { payload, user } = entry;
  const who = user ? `${user.displayName ?? user.email ?? ''} <${user.email ?? ''}> #${user.id}` : 'vellum';
  const what = [
    payload.uid,
    payload.documentId,
    payload.locale,
    payload.subject !== undefined ? `#${payload.subject}` : undefined,
  ].filter((part) => part !== undefined);
  const changed = payload.changedFields?.length ? `  changed: ${payload.changedFields.join(', ')}` : '';
  return `${entry.date}  ${entry.action}  ${who}${what.length ? `  ${what.join(' ')}` : ''}${changed}`;
}

export async function runAuditCommand(
  argv: string[],
  projectDir: (named: string | undefined) => string,
  io: CliIo,
): Promise<number> {
  const { values } = parseArgs({ args: argv.slice(1), options: OPTIONS, allowPositionals: false });
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new ValidationError(`--limit must be an integer from 1 to ${MAX_LIMIT}`);
  const dir = projectDir(values.project);
  const config = await loadConfig(dir, { env: io.env, cwd: io.cwd });
  const { schema } = loadProjectSchema(dir, builtInTypes(dir));
  await loadProjectForCommand(config, schema, []);
  const database = await connectDatabase(config.database);
  try {
    await synchronizeSchema(database, schema, systemTables);
    const reads = new AuditReads(database.system);
    const and: Record<string, unknown>[] = [];
    if (values.user !== undefined) {
      let id = values.user;
      if (!/^\d+$/.test(id)) {
        const wanted = id.toLowerCase();
        const found = (await reads.actors()).find((actor) => actor.email?.toLowerCase() === wanted);
        if (!found) throw new ValidationError(`No entry of an administrator ${values.user}`);
        id = String(found.id);
      }
      and.push({ user: { id: { $eq: id } } });
    }
    if (values.action !== undefined) and.push({ action: { $in: values.action.split(',').map((a) => a.trim()) } });
    if (values.type !== undefined) and.push({ contentType: { $eq: values.type } });
    if (values.document !== undefined) and.push({ documentId: { $eq: values.document } });
    if (values.since !== undefined) and.push({ date: { $gte: dateOf(values.since, 'since') } });
    if (values.until !== undefined) and.push({ date: { $lt: dateOf(values.until, 'until') } });
    const base: Record<string, unknown> = { sort: 'date:DESC', ...(and.length ? { filters: { $and: and } } : {}) };
    const entries: AuditLogEntry[] = [];
    let cursor: string | null = null;
    do {
      const pageSize = String(Math.min(PAGE, limit - entries.length));
      const page = await reads.list(parseAuditQuery({ ...base, pageSize, ...(cursor ? { cursor } : {}) }));
      for (const entry of page.results) {
        if (values.json) entries.push(entry);
        else {
          io.out(formatEntry(entry));
          entries.push(entry);
        }
      }
      cursor = page.pagination.next;
    } while (cursor && entries.length < limit);
    if (values.json) io.out(JSON.stringify(entries, null, 2));
    else if (entries.length === 0) io.out('No entries.');
    return 0;
  } finally {
    await database.close();
  }
}
