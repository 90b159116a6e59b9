const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800, y: 31557600 };

/** `30d`, `12h`, `3600` (seconds) as the `jsonwebtoken` style `expiresIn` Strapi configs use. */
export function parseDuration(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)\s*(s|m|h|d|w|y)?$/.exec(value.trim());
  if (!match) throw new Error(`"${value}" is not a duration such as 30d, 12h or 3600`);
  return Number(match[1]) * UNITS[match[2] ?? 's']!;
}
