/** A non-null object that is not an array: what JSON, query strings and config files call an object. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value when it is a plain object, else an empty one (optional config sections). */
export const asRecord = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});
