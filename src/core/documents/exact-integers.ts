/**
 * JSON bodies keep the digits of integers beyond 2^53. `JSON.parse` rounds 9007199254740993 to
 * ...992 before any validation sees it, and Node 20's reviver has no access to a number's source
 * text. So a body holding such an integer is parsed a second time from a copy of its text where
 * each one is quoted behind a marker nobody can send (random per parse); the reviver turns it back
 * into the number JSON.parse gives and notes its digits beside the object holding it. Every reader
 * sees exactly what JSON.parse gives; `biginteger` validation asks for the digits.
 */
import { randomBytes } from 'node:crypto';

const digitsBeside = new WeakMap<object, Map<string, string>>();

/** A run of 16 digits: the only texts that can hold an integer JSON.parse would round. */
const LONG_DIGITS = /\d{16}/;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const INTEGER = /^-?\d+$/;

/** The exact digits of the integer at `holder[key]` when JSON.parse rounded it; undefined otherwise. */
export function exactIntegerText(holder: object, key: string): string | undefined {
  return digitsBeside.get(holder)?.get(key);
}

/** JSON.parse, remembering the digits of the integers it rounds (see exactIntegerText). */
export function parseJsonKeepingIntegers(text: string): unknown {
  const value: unknown = JSON.parse(text);
  if (!LONG_DIGITS.test(text)) return value;
  const marker = `${randomBytes(12).toString('hex')}:`;
  const quoted = quoteUnsafeIntegers(text, marker);
  if (quoted === undefined) return value;
  return JSON.parse(quoted, function revive(this: object, key: string, item: unknown) {
    if (typeof item !== 'string' || !item.startsWith(marker)) return item;
    const digits = item.slice(marker.length);
    let noted = digitsBeside.get(this);
    if (!noted) digitsBeside.set(this, (noted = new Map()));
    noted.set(key, digits);
    return Number(digits);
  });
}

/**
 * The text with every integer literal outside strings that is not a safe integer written as a
 * marked string, or undefined when there is none. `text` is valid JSON (parsed before), so every
 * number outside a string is a value.
 */
function quoteUnsafeIntegers(text: string, marker: string): string | undefined {
  let out = '';
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i++;
      while (i < text.length && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1;
      i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)![0];
      if (INTEGER.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(copied, i)}"${marker}${token}"`;
        copied = i + token.length;
      }
      i += token.length;
    } else {
      i++;
    }
  }
  return copied === 0 ? undefined : out + text.slice(copied);
}
