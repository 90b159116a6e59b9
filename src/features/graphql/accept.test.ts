import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { responseMediaType } from './accept.js';

/**
 * `Accept` headers and the media type Apollo Server 4.13 answers them with, as its own
 * `chooseContentTypeForSingleResultResponse` (negotiator 0.6.4) gave them, run on Strapi 5.54's
 * install. null: none acceptable, a 406.
 */
const APOLLO: [string | undefined, string | null][] = [
  [undefined, 'application/json; charset=utf-8'],
  ['', 'application/json; charset=utf-8'],
  ['*/*', 'application/json; charset=utf-8'],
  ['application/json', 'application/json; charset=utf-8'],
  ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
  ['application/graphql-response+json, application/json', 'application/graphql-response+json; charset=utf-8'],
  ['application/json, application/graphql-response+json', 'application/json; charset=utf-8'],
  ['application/json;q=0.9, application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
  ['application/graphql-response+json;q=0.5, application/json', 'application/json; charset=utf-8'],
  ['application/graphql-response+json;q=0, */*', 'application/json; charset=utf-8'],
  ['application/*', 'application/json; charset=utf-8'],
  ['application/*, application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
  ['text/html', null],
  ['text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8', 'application/json; charset=utf-8'],
  ['text/html,application/xhtml+xml,application/xml;q=0.9', null],
  ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
  ['application/json; charset=latin1', null],
  ['application/graphql-response+json; charset=utf-8', 'application/graphql-response+json; charset=utf-8'],
  ['application/json; callbackSpec=1.0', 'application/json; callbackSpec=1.0; charset=utf-8'],
  ['APPLICATION/GRAPHQL-RESPONSE+JSON', 'application/graphql-response+json; charset=utf-8'],
  ['application/json;q=0', null],
  ['*/*;q=0', null],
  ['application/json;q=abc', null],
  ['application/graphql-response+json;q=1.0;foo=bar', 'application/graphql-response+json; charset=utf-8'],
  ['application/json;foo=bar', null],
  ['text/*, application/graphql-response+json;q=0.1', 'application/graphql-response+json; charset=utf-8'],
  ['application/xml', null],
  [
    'application/graphql-response+json;q=0.8, application/json;q=0.8',
    'application/graphql-response+json; charset=utf-8',
  ],
  ['application/json , application/graphql-response+json;q=1', 'application/json; charset=utf-8'],
  ['garbage', null],
  [' application/graphql-response+json ', 'application/graphql-response+json; charset=utf-8'],
  [
    'application/graphql-response+json;q=0.9, application/json;q=0.9;charset=utf-8',
    'application/graphql-response+json; charset=utf-8',
  ],
];

describe("a GraphQL answer's media type, as Apollo Server 4 negotiates it", () => {
  it('answers each Accept header as Apollo did', () => {
    assert.deepEqual(
      APOLLO.map(([accept]) => [accept, responseMediaType(accept)]),
      APOLLO,
    );
  });
});
