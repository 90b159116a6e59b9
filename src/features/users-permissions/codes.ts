/**
 * The single-use codes users receive by email: a password reset code, an email confirmation code.
 * The code itself is only in the email; the database keeps its SHA-256 (a leaked table lets no one
 * reset a password), the user, what it is for and when it expires. A new code replaces the user's
 * earlier ones of the same purpose (expired ones go then too), and using a code deletes it: when
 * two requests use the same code at once, one deletes it and the other finds nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../core/database/connection.js';
import type { SystemDb } from '../../core/database/system-tables.js';
import { USER_CODES_TABLE } from './model.js';

export type CodePurpose = 'reset-password' | 'email-confirmation';

const hash = (code: string) => createHash('sha256').update(code).digest('hex');

export class UserCodes {
  constructor(private readonly database: Database) {}

  private now(): unknown {
    return this.database.dialect.encode('datetime', new Date());
  }

  /** A new code of `bytes` random bytes (hex) for the user, valid `lifetime` seconds; earlier ones of that purpose stop working. */
  async issue(userId: number, purpose: CodePurpose, lifetime: number, bytes: number): Promise<string> {
    const code = randomBytes(bytes).toString('hex');
    const { dialect } = this.database;
    await this.database.write(async (trx: SystemDb) => {
      await trx.deleteFrom(USER_CODES_TABLE).where('user_id', '=', userId).where('purpose', '=', purpose).execute();
      await trx
        .insertInto(USER_CODES_TABLE)
        .values({
          user_id: userId,
          purpose,
          code_hash: hash(code),
          expires_at: dialect.encode('datetime', new Date(Date.now() + lifetime * 1000)),
          created_at: this.now(),
        })
        .execute();
    });
    return code;
  }

  /** The user a valid code was issued to (it stays valid), or undefined: unknown, used or expired. */
  async userOf(code: string, purpose: CodePurpose): Promise<number | undefined> {
    const row = await this.database.system
      .selectFrom(USER_CODES_TABLE)
      .select('user_id')
      .where('code_hash', '=', hash(code))
      .where('purpose', '=', purpose)
      .where('expires_at', '>', this.now())
      .executeTakeFirst();
    return row?.user_id === undefined ? undefined : Number(row.user_id);
  }

  /** Uses a code: true when it was valid and this call deleted it, false otherwise. */
  async consume(code: string, purpose: CodePurpose): Promise<boolean> {
    const deleted = await this.database.write((trx: SystemDb) =>
      trx
        .deleteFrom(USER_CODES_TABLE)
        .where('code_hash', '=', hash(code))
        .where('purpose', '=', purpose)
        .where('expires_at', '>', this.now())
        .executeTakeFirst(),
    );
    return Number(deleted.numDeletedRows) === 1;
  }

  /** The user's codes of that purpose stop working (a password changed: no earlier reset link works). */
  async revoke(userId: number, purpose: CodePurpose): Promise<void> {
    await this.database.system
      .deleteFrom(USER_CODES_TABLE)
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .execute();
  }
}
