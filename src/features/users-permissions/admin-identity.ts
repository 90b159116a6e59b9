/**
 * An administrator as the audit log names them: their email and display name, read on the
 * transaction of the change being recorded. The display name is Strapi's (`getDisplayName`): the
 * username, else the first and last names, else the email; the columns an earlier table lacks
 * count as empty.
 */
import type { Db } from '../../core/database/dialect.js';
import { ADMINS_TABLE } from './model.js';

export interface AdminIdentity {
  email: string | null;
  name: string | null;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export async function adminIdentity(db: Db, id: number): Promise<AdminIdentity | undefined> {
  const row = (await db.selectFrom(ADMINS_TABLE).selectAll().where('id', '=', id).executeTakeFirst()) as
    Record<string, unknown> | undefined;
  if (!row) return undefined;
  const email = text(row.email) ?? null;
  const first = text(row.firstname);
  const last = text(row.lastname);
  const name = text(row.username) ?? (first && last ? `${first} ${last}` : (first ?? last)) ?? email;
  return { email, name };
}

/** Administrators as a history version names its author (Strapi's pick: id, names, username, email): one read. */
export async function adminAuthors(
  db: Db,
  ids: number[],
): Promise<
  Map<number, { id: number; firstname: string | null; lastname: string | null; username: string | null; email: string }>
> {
  const rows = (await db.selectFrom(ADMINS_TABLE).selectAll().where('id', 'in', ids).execute()) as Record<
    string,
    unknown
  >[];
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        firstname: text(row.firstname) ?? null,
        lastname: text(row.lastname) ?? null,
        username: text(row.username) ?? null,
        email: text(row.email) ?? '',
      },
    ]),
  );
}
