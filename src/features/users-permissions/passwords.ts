/**
 * Password checks for users and administrators: bcrypt (the hashes Strapi writes), and the same
 * work whether or not the account exists, so that timing does not tell which identifiers exist.
 */
import bcrypt from 'bcryptjs';
import { hashPassword } from '../../core/documents/write/scalars.js';

export { hashPassword };

let dummy: Promise<string> | undefined;

/** Whether `password` matches `hash`; without a hash, compares against a throwaway one and fails. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (typeof hash === 'string' && hash !== '') return bcrypt.compare(password, hash);
  await bcrypt.compare(password, await (dummy ??= hashPassword('vellum: no such account')));
  return false;
}
