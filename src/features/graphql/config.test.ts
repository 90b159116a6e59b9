/** The GraphQL shape a project gets: its package.json's Strapi version, then config/plugins. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseGraphqlConfig } from './config.js';

describe('GraphQL shape by default', () => {
  it('Strapi 5 makes the flat shape the default; config/plugins decides either way', () => {
    const shape = (config: Record<string, unknown>, major?: number) =>
      parseGraphqlConfig({ graphql: { config } }, 'development', major).v4CompatibilityMode;
    assert.equal(shape({}, 5), false);
    assert.equal(shape({}, 4), true);
    assert.equal(shape({}), true, 'no declaration: the earlier shape (the blog example)');
    assert.equal(shape({ v4CompatibilityMode: true }, 5), true);
    assert.equal(shape({ v4CompatibilityMode: false }), false);
  });
});
