/**
 * Strapi's `env()` helper, handed to configuration files written as `({ env }) => ({ ... })`.
 */
export interface EnvHelper {
  (name: string, fallback?: string): string | undefined;
  int(name: string, fallback?: number): number | undefined;
  float(name: string, fallback?: number): number | undefined;
  bool(name: string, fallback?: boolean): boolean | undefined;
  json(name: string, fallback?: unknown): unknown;
  array(name: string, fallback?: string[]): string[] | undefined;
  date(name: string, fallback?: Date): Date | undefined;
}

export function createEnv(source: NodeJS.ProcessEnv = process.env): EnvHelper {
  const raw = (name: string): string | undefined => {
    const value = source[name];
    return value === undefined || value === '' ? undefined : value;
  };
  // As Strapi's env(): a variable that is set is its value, even empty. `DATABASE_PASSWORD=` is
  // the empty password (MariaDB's passwordless root), not "unset, use the file's default". The
  // typed helpers below keep treating an empty value as unset (Strapi would answer NaN or false).
  const env = ((name: string, fallback?: string) =>
    Object.hasOwn(source, name) && source[name] !== undefined ? source[name] : fallback) as EnvHelper;
  env.int = (name, fallback) => {
    const value = raw(name);
    return value === undefined ? fallback : Number.parseInt(value, 10);
  };
  env.float = (name, fallback) => {
    const value = raw(name);
    return value === undefined ? fallback : Number.parseFloat(value);
  };
  env.bool = (name, fallback) => {
    const value = raw(name);
    return value === undefined ? fallback : value === 'true' || value === '1';
  };
  env.json = (name, fallback) => {
    const value = raw(name);
    if (value === undefined) return fallback;
    try {
      return JSON.parse(value);
    } catch {
      throw new Error(`environment variable ${name} is not valid JSON`);
    }
  };
  env.array = (name, fallback) => {
    const value = raw(name);
    if (value === undefined) return fallback;
    return value
      .replace(/^\[|\]$/g, '')
      .split(',')
      .map((item) => item.trim().replace(/^"|"$/g, ''))
      .filter(Boolean);
  };
  env.date = (name, fallback) => {
    const value = raw(name);
    return value === undefined ? fallback : new Date(value);
  };
  return env;
}
