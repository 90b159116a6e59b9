/**
 * Password checks for users and administrators: bcrypt (the hashes Strapi writes), and the same
 * work whether or not the account exists, so that timing does not tell which identifiers exist.
 */
import bcrypt from 'bcryptjs';

const ROUNDS = 10;
let dummy: Promise<string> | undefined;

/** A bcrypt hash with Strapi's cost (10), for every password Vellum stores. */
export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, ROUNDS);

/** Whether `password` matches `hash`; without a hash, compares against a throwaway one and fails. */
export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (typeof hash === 'string' && hash !== '') return bcrypt.compare(password, hash);
  await bcrypt.compare(password, await (dummy ??= hashPassword('vellum: no such account')));
  return false;
}
