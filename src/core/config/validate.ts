import type { z } from 'zod';
import { ProjectError } from '../errors.js';

/**
 * Parses one section of a project's configuration, or throws a ProjectError naming the first
 * problem (an absent section reads as `{}`): `<prefix><path>: <message>` (without a prefix, `(root)` stands for an empty path).
 */
export function parseConfig<T>(schema: z.ZodType<T>, value: unknown, file: string, prefix = ''): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    throw new ProjectError(`${prefix ? prefix + path : path || '(root)'}: ${issue.message}`, file);
  }
  return parsed.data;
}
