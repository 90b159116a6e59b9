/**
 * Bodies at the GraphQL endpoint, read as Strapi 5.54 reads them there: koa-bodyparser's defaults
 * (Strapi's own body middleware skips the endpoint). JSON must be an object or an array (an empty
 * body is `{}`), a form is read as qs reads it, and any other body is left unread, as `{}`: Apollo
 * then refuses it with its own words (request.ts).
 */
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { BodySyntaxError } from '../../core/errors.js';
import { parseJsonKeepingIntegers } from '../../core/documents/exact-integers.js';
import { mediaType } from './request.js';

/** koa-bodyparser's JSON types. */
const JSON_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/vnd.api+json',
  'application/csp-report',
  'application/scim+json',
];

/** co-body's strict JSON: only an object or an array (after JSON's whitespace). */
const OBJECT_OR_ARRAY = /^[ \t\n\r]*[[{]/;

/** A JSON body; its integers beyond 2^53 keep their digits, as every body Vellum reads. */
function parseJsonBody(text: string): unknown {
  if (text === '') return {};
  if (!OBJECT_OR_ARRAY.test(text)) throw new BodySyntaxError('invalid JSON, only supports object and array');
  try {
    return parseJsonKeepingIntegers(text);
  } catch (error) {
    throw new BodySyntaxError((error as Error).message);
  }
}

/** Replaces, in the GraphQL plugin's scope, the parsers the rest of the server uses. */
export function registerBodyParsers(scope: FastifyInstance, endpoint: string): void {
  // A content type that is none (`???`) is a body koa-bodyparser does not read, where Fastify
  // would refuse it (415): it is given a name no parser has (nor CSRF prevention's list, which lets
  // an unparseable type through too).
  scope.addHook('onRequest', async (request) => {
    const type = request.headers['content-type'];
    if (request.routeOptions.url === endpoint && type !== undefined && mediaType(type) === null)
      request.headers['content-type'] = 'application/x-unreadable';
  });
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(JSON_TYPES, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, qs.parse(body as string)),
  );
  // Not read: the client gets Apollo's "POST body missing, invalid Content-Type, ..." (or CSRF's words).
  scope.addContentTypeParser('*', (_request, _payload, done) => done(null, {}));
}
