/**
 * Date and time values as Strapi 5.54 accepts and answers them (its database fields parse with
 * date-fns 2): the same parsers serve request bodies and filters, so both accept the same text.
 *
 * - `date`: text starting with `YYYY-MM-DD` (a real day); the rest is dropped, no time zone applied.
 * - `time`: `HH:mm:ss` with up to three fraction digits, answered as `HH:mm:ss.SSS`.
 * - `datetime` and `timestamp`: an ISO 8601 text as date-fns' parseISO reads it (`2024`, `2024-01`,
 *   week and ordinal dates, basic format, `,` fractions, `+02` offsets; no offset means UTC here,
 *   the server's zone in Strapi), else milliseconds since 1970 (a number or digits). A `datetime`
 *   is answered as an ISO text, a `timestamp` as its milliseconds in a string (`"1704450030000"`).
 */

export type Parsed<T> = { value: T } | { error: string };

const DATE_PREFIX = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])/;
const TIME = /^(2[0-3]|[01]\d):([0-5]\d):([0-5]\d)(?:\.(\d{1,3}))?$/;

const isLeapYear = (year: number) => year % 400 === 0 || (year % 4 === 0 && year % 100 !== 0);
const daysIn = (year: number, month: number) =>
  [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;

export function parseDate(value: unknown): Parsed<string> {
  const match = typeof value === 'string' ? DATE_PREFIX.exec(value) : null;
  if (!match) return { error: 'expected a date (yyyy-MM-dd)' };
  const [, year, month, day] = match;
  if (Number(day) > daysIn(Number(year), Number(month) - 1)) return { error: 'not a valid date' };
  return { value: `${year}-${month}-${day}` };
}

export function parseTime(value: unknown): Parsed<string> {
  if (typeof value !== 'string') return { error: `expected a string (HH:mm:ss.SSS), got a ${typeof value}` };
  const match = TIME.exec(value);
  if (!match) return { error: 'expected a time (HH:mm:ss.SSS)' };
  const [, hours, minutes, seconds, fraction = ''] = match;
  return { value: `${hours}:${minutes}:${seconds}.${fraction.padEnd(3, '0')}` };
}

/** A `datetime` or `timestamp` value: an ISO text, or milliseconds since 1970. */
export function parseDateTime(value: unknown): Parsed<Date> {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return { value };
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value);
    const iso = parseIso(text);
    if (iso !== undefined) return { value: new Date(iso) };
    if (/^-?\d+\s*$/.test(text)) {
      const date = new Date(Number(text));
      if (!Number.isNaN(date.getTime())) return { value: date };
    }
  }
  return { error: 'expected a timestamp or an ISO date' };
}

/** A `timestamp` as Strapi answers it: its milliseconds since 1970, as a string. */
export function timestampText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const time = value instanceof Date ? value.getTime() : Date.parse(String(value));
  return Number.isNaN(time) ? null : String(time);
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** date-fns 2's parseISO (additionalDigits 2), in UTC: milliseconds, or undefined when invalid. */
function parseIso(text: string): number | undefined {
  const parts = splitDateString(text);
  if (!parts.date) return undefined;
  const { year, rest } = parseYear(parts.date);
  const date = year === undefined ? undefined : parseIsoDate(rest, year);
  if (date === undefined) return undefined;
  let time = 0;
  if (parts.time) {
    time = parseIsoTime(parts.time);
    if (Number.isNaN(time)) return undefined;
  }
  let offset = 0;
  if (parts.timezone) {
    offset = parseTimezone(parts.timezone);
    if (Number.isNaN(offset)) return undefined;
  }
  // The Date constructor truncates fractions of a millisecond, as date-fns' result does.
  const result = new Date(date + time + offset).getTime();
  return Number.isNaN(result) ? undefined : result;
}

function splitDateString(text: string): { date?: string; time?: string; timezone?: string } {
  const out: { date?: string; time?: string; timezone?: string } = {};
  const array = text.split(/[T ]/);
  if (array.length > 2) return out;
  let timeString: string | undefined;
  if (/:/.test(array[0]!)) timeString = array[0];
  else {
    out.date = array[0];
    timeString = array[1];
    if (/[Z ]/i.test(out.date!)) {
      out.date = text.split(/[Z ]/i)[0];
      timeString = text.slice(out.date!.length);
    }
  }
  if (timeString) {
    const token = /([Z+-].*)$/.exec(timeString);
    if (token) {
      out.time = timeString.replace(token[1]!, '');
      out.timezone = token[1];
    } else out.time = timeString;
  }
  return out;
}

function parseYear(text: string): { year?: number; rest: string } {
  const captures = /^(?:(\d{4}|[+-]\d{6})|(\d{2}|[+-]\d{4})$)/.exec(text);
  if (!captures) return { rest: '' };
  const year = captures[1] ? parseInt(captures[1], 10) : parseInt(captures[2]!, 10) * 100;
  return { year, rest: text.slice((captures[1] ?? captures[2])!.length) };
}

function parseIsoDate(text: string, year: number): number | undefined {
  const captures = /^-?(?:(\d{3})|(\d{2})(?:-?(\d{2}))?|W(\d{2})(?:-?(\d{1}))?|)$/.exec(text);
  if (!captures) return undefined;
  const unit = (value: string | undefined) => (value ? parseInt(value, 10) : 1);
  const date = new Date(0);
  if (captures[4]) {
    const week = unit(captures[4]);
    const dayOfWeek = unit(captures[5]) - 1;
    if (week < 1 || week > 53 || dayOfWeek < 0 || dayOfWeek > 6) return undefined;
    date.setUTCFullYear(year, 0, 4);
    const fourthOfJanuary = date.getUTCDay() || 7;
    date.setUTCDate(date.getUTCDate() + (week - 1) * 7 + dayOfWeek + 1 - fourthOfJanuary);
    return date.getTime();
  }
  const dayOfYear = unit(captures[1]);
  const month = unit(captures[2]) - 1;
  const day = unit(captures[3]);
  if (month < 0 || month > 11 || day < 1 || day > daysIn(year, month)) return undefined;
  if (dayOfYear < 1 || dayOfYear > (isLeapYear(year) ? 366 : 365)) return undefined;
  date.setUTCFullYear(year, month, Math.max(dayOfYear, day));
  return date.getTime();
}

function parseIsoTime(text: string): number {
  const captures = /^(\d{2}(?:[.,]\d*)?)(?::?(\d{2}(?:[.,]\d*)?))?(?::?(\d{2}(?:[.,]\d*)?))?$/.exec(text);
  if (!captures) return Number.NaN;
  const unit = (value: string | undefined) => (value ? parseFloat(value.replace(',', '.')) || 0 : 0);
  const hours = unit(captures[1]);
  const minutes = unit(captures[2]);
  const seconds = unit(captures[3]);
  const valid =
    hours === 24
      ? minutes === 0 && seconds === 0
      : seconds >= 0 && seconds < 60 && minutes >= 0 && minutes < 60 && hours >= 0 && hours < 25;
  return valid ? hours * HOUR + minutes * MINUTE + seconds * 1000 : Number.NaN;
}

function parseTimezone(text: string): number {
  if (text === 'Z') return 0;
  const captures = /^([+-])(\d{2})(?::?(\d{2}))?$/.exec(text);
  if (!captures) return 0;
  const minutes = captures[3] ? parseInt(captures[3], 10) : 0;
  if (minutes > 59) return Number.NaN;
  return (captures[1] === '+' ? -1 : 1) * (parseInt(captures[2]!, 10) * HOUR + minutes * MINUTE);
}
