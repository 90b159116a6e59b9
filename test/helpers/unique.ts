import { randomUUID } from 'node:crypto';

/**
 * A name no other test uses (`prefix-1a2b3c4d`): a test gives its documents such names and scopes
 * its list reads to them (`filters[name][$startsWith]=...`), so that what other tests of the file
 * write never changes what it sees.
 */
export const unique = (prefix = 't'): string => `${prefix}-${randomUUID().slice(0, 8)}`;
