/** What graphql-js' own messages become before a client sees them: no password, no suggestion in production. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema, graphql } from 'graphql';
import { formatErrors } from './errors.js';

const schema = buildSchema(`
  input RegisterInput { username: String!, email: String!, password: String! }
  type Query { title(size: Int): String }
  type Mutation { register(input: RegisterInput!): Int }
`);
const REGISTER = 'mutation($input: RegisterInput!) { register(input: $input) }';

async function messages(
  source: string,
  variableValues: Record<string, unknown> = {},
  hideSuggestions = false,
): Promise<string[]> {
  const result = await graphql({ schema, source, variableValues });
  const { response } = formatErrors(result, {}, { hideSuggestions });
  return response.errors.map((error) => (error as { message: string }).message);
}

describe('GraphQL error messages', () => {
  it('a refused variable holding a password is not repeated; the path and the reason stay', async () => {
    const missing = await messages(REGISTER, { input: { username: 'ann', password: 'hunter2-secret' } });
    assert.deepEqual(missing, [
      'Variable "$input" got invalid value (not repeated: it holds a password); Field "email" of required type "String!" was not provided.',
    ]);
    const unknown = await messages(REGISTER, {
      input: { username: 'ann', email: 'a@b.c', password: 'hunter2-secret', captcha: 1 },
    });
    assert.deepEqual(unknown, [
      'Variable "$input" got invalid value (not repeated: it holds a password); Field "captcha" is not defined by type "RegisterInput".',
    ]);
    const typed = await messages(REGISTER, { input: { username: 'ann', email: 'a@b.c', password: 12345678 } });
    assert.deepEqual(typed, [
      'Variable "$input" got invalid value at "input.password" (not repeated: it holds a password).',
    ]);
  });

  it('other refused variables keep graphql-js message, value included', async () => {
    assert.deepEqual(await messages('query($s: Int) { title(size: $s) }', { s: 'x' }), [
      'Variable "$s" got invalid value "x"; Int cannot represent non-integer value: "x"',
    ]);
  });

  it('"Did you mean" suggestions are left out when hideSuggestions is on, kept otherwise', async () => {
    assert.deepEqual(await messages('{ titel }'), [
      'Cannot query field "titel" on type "Query". Did you mean "title"?',
    ]);
    assert.deepEqual(await messages('{ titel }', {}, true), ['Cannot query field "titel" on type "Query".']);
    const variable = await messages(REGISTER, { input: { username: 'ann', email: 'a@b.c', pasword: 'x' } }, true);
    assert.ok(
      variable.every((message) => !/Did you mean/.test(message)),
      variable.join('\n'),
    );
  });
});
