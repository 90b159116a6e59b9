/**
 * Reading the audit log: a page of entries, one entry, and the administrators who have entries.
 *
 * A page costs a walk of one index, whatever the table holds: the filters and the order are on
 * indexed columns (tables.ts), and the page's ids are picked first from the index (with the
 * offset, or after the cursor's entry), then their rows read by id, as Strapi reads its own (its
 * issue 27399: sorting whole rows ran MySQL out of sort memory). The total is counted up to
 * `COUNT_CAP` only (`select count(*)` over a `limit`ed select of ids): a bounded walk of the same
 * index; past it the answer says so (`totalCapped`) and `pagination.next` goes on.
 */
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import type { SystemDb, SystemTables } from '../../core/database/system-tables.js';
import { NotFoundError } from '../../core/errors.js';
import type { AuditLogEntry, AuditLogPage, AuditLogUser } from './contract.js';
import { COUNT_CAP, formatCursor, type AuditQuery, type AuditSort, type Condition, type Cursor } from './query.js';
import { AUDIT_TABLE, type AuditRow } from './tables.js';

type Eb = ExpressionBuilder<SystemTables, typeof AUDIT_TABLE>;
type Column = 'created_at' | 'id' | 'action';
type Direction = 'asc' | 'desc';

const ORDERS: Record<AuditSort, [Column, Direction][]> = {
  'date:DESC': [
    ['created_at', 'desc'],
    ['id', 'desc'],
  ],
  'date:ASC': [
    ['created_at', 'asc'],
    ['id', 'asc'],
  ],
  'action:ASC': [
    ['action', 'asc'],
    ['created_at', 'asc'],
    ['id', 'asc'],
  ],
  'action:DESC': [
    ['action', 'desc'],
    ['created_at', 'desc'],
    ['id', 'desc'],
  ],
};

const TEXT_COLUMNS = {
  action: 'action',
  contentType: 'content_type',
  documentId: 'document_id',
  locale: 'locale',
} as const;
const DATE_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function conditionSql(eb: Eb, condition: Condition): Expression<SqlBool> {
  switch (condition.field) {
    case 'date':
      return eb('created_at', DATE_OPERATORS[condition.op], condition.value);
    case 'user':
      switch (condition.op) {
        case 'eq':
          return eb('actor_id', '=', condition.value);
        case 'in':
          return eb('actor_id', 'in', condition.value);
        // An entry of Vellum itself (no administrator) is not that administrator's.
        case 'ne':
          return eb.or([eb('actor_id', '<>', condition.value), eb('actor_id', 'is', null)]);
        case 'notIn':
          return eb.or([eb('actor_id', 'not in', condition.value), eb('actor_id', 'is', null)]);
      }
      break;
    default: {
      const column = TEXT_COLUMNS[condition.field];
      switch (condition.op) {
        case 'eq':
          return eb(column, '=', condition.value);
        case 'in':
          return eb(column, 'in', condition.value);
        case 'ne':
          return eb.or([eb(column, '<>', condition.value), eb(column, 'is', null)]);
        case 'notIn':
          return eb.or([eb(column, 'not in', condition.value), eb(column, 'is', null)]);
      }
    }
  }
  throw new Error(`unhandled audit condition ${JSON.stringify(condition)}`);
}

/** The entries after `cursor` in a date order; the first bound lets the index range start there. */
function afterCursor(eb: Eb, cursor: Cursor, direction: Direction): Expression<SqlBool> {
  const [bound, strict] = direction === 'desc' ? (['<=', '<'] as const) : (['>=', '>'] as const);
  return eb.and([
    eb('created_at', bound, cursor.at),
    eb.or([eb('created_at', strict, cursor.at), eb('id', strict, cursor.id)]),
  ]);
}

const parseJson = <T>(value: unknown): T | undefined => {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'string') return value as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
};

/** A row as the API answers it. */
function entryOf(row: Selectable<AuditRow>): AuditLogEntry {
  const user: AuditLogUser | null =
    row.actor_id === null
      ? null
      : { id: Number(row.actor_id), email: row.actor_email, displayName: row.actor_name ?? row.actor_email };
  const changed = parseJson<string[]>(row.changed);
  const details = parseJson<Record<string, unknown>>(row.details);
  return {
    id: Number(row.id),
    action: row.action,
    date: new Date(Number(row.created_at)).toISOString(),
    user,
    payload: {
      ...(row.content_type !== null ? { uid: row.content_type } : {}),
      ...(row.document_id !== null ? { documentId: row.document_id } : {}),
      ...(row.locale !== null ? { locale: row.locale } : {}),
      ...(row.subject !== null ? { subject: row.subject } : {}),
      ...(changed ? { changedFields: changed } : {}),
      ...(details ? { details } : {}),
    },
  };
}

export class AuditReads {
  constructor(private readonly db: SystemDb) {}

  /** A page of entries. */
  async list(query: AuditQuery): Promise<AuditLogPage> {
    const { conditions, sort, pageSize, page, cursor } = query;
    const order = ORDERS[sort];
    const filtered = (eb: Eb) =>
      eb.and([
        ...conditions.map((condition) => conditionSql(eb, condition)),
        ...(cursor ? [afterCursor(eb, cursor, order[0]![1])] : []),
      ]);
    let ids = this.db.selectFrom(AUDIT_TABLE).select(['id', 'created_at']).where(filtered);
    for (const [column, direction] of order) ids = ids.orderBy(column, direction);
    // One more than the page: whether a next page exists, without counting.
    const picked = await ids
      .limit(pageSize + 1)
      .offset((page - 1) * pageSize)
      .execute();
    const more = picked.length > pageSize;
    const shown = picked.slice(0, pageSize);
    const rows = shown.length
      ? await this.db
          .selectFrom(AUDIT_TABLE)
          .selectAll()
          .where(
            'id',
            'in',
            shown.map((row) => row.id),
          )
          .execute()
      : [];
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    const results = shown.flatMap((row) => {
      const found = byId.get(Number(row.id));
      return found ? [entryOf(found)] : [];
    });
    const last = shown.at(-1);
    const next =
      more && last && sort.startsWith('date')
        ? formatCursor({ at: Number(last.created_at), id: Number(last.id) })
        : null;
    if (cursor) return { results, pagination: { pageSize, next } };
    const total = await this.count(filtered);
    return {
      results,
      pagination: {
        page,
        pageSize,
        pageCount: Math.ceil(total / pageSize),
        total,
        ...(total >= COUNT_CAP ? { totalCapped: true as const } : {}),
        next,
      },
    };
  }

  /** How many entries match, up to COUNT_CAP (a bounded walk of the index the filters use). */
  private async count(filtered: (eb: Eb) => Expression<SqlBool>): Promise<number> {
    const capped = this.db.selectFrom(AUDIT_TABLE).select('id').where(filtered).limit(COUNT_CAP);
    const row = await this.db
      .selectFrom(capped.as('capped'))
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** One entry, or a 404. */
  async get(id: number): Promise<AuditLogEntry> {
    const row = await this.db.selectFrom(AUDIT_TABLE).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError(`No audit log entry ${id}`);
    return entryOf(row);
  }

  /**
   * The administrators who have entries, by id, each as their latest entry names them (deleted
   * accounts too). Each is found by one seek of the (administrator, time) index after the one
   * before, as a loose index scan: never a scan of the entries, however many.
   */
  async actors(limit = 1000): Promise<AuditLogUser[]> {
    const found: AuditLogUser[] = [];
    let after = -1;
    while (found.length < limit) {
      const next = await this.db
        .selectFrom(AUDIT_TABLE)
        .select('actor_id')
        .where('actor_id', '>', after)
        .orderBy('actor_id')
        .limit(1)
        .executeTakeFirst();
      if (!next || next.actor_id === null) break;
      after = Number(next.actor_id);
      const latest = await this.db
        .selectFrom(AUDIT_TABLE)
        .select(['actor_email', 'actor_name'])
        .where('actor_id', '=', after)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      found.push({ id: after, email: latest.actor_email, displayName: latest.actor_name ?? latest.actor_email });
    }
    return found;
  }
}
