import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const DOCUMENT_ID_LENGTH = 24;

/** A random, URL-safe, 24-character identifier (lowercase letters and digits, starting with a letter). */
export function createDocumentId(): string {
  const bytes = randomBytes(DOCUMENT_ID_LENGTH * 2);
  let id = ALPHABET[bytes[0]! % 26]!;
  for (let i = 1; id.length < DOCUMENT_ID_LENGTH; i++) {
    const byte = bytes[i]!;
    // 252 = 7 * 36: reject the tail so every character is equally likely.
    if (byte < 252) id += ALPHABET[byte % 36];
  }
  return id;
}
