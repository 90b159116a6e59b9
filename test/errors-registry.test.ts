/**
 * The error registry, checked: every error class of src/core/errors.ts declares its status, name, stable
 * code and GraphQL code, its instances carry them, the REST and GraphQL layers answer with them,
 * and the error table of docs/errors.md lists every class with the same values. No server, no database.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError } from 'graphql';
import * as errors from '../src/core/errors.js';
import { formatErrors } from '../src/features/graphql/errors.js';
import { errorBody, toVellumError } from '../src/api/errors.js';

interface Registered {
  readonly status: number;
  readonly errorName: string;
  readonly code: string;
  readonly graphqlCode: string;
}
type ErrorClass = (abstract new (...args: never[]) => Error) & Partial<Registered>;

const { VellumError } = errors;

/** Every exported class that is an Error, except the abstract base. */
const CLASSES: [string, ErrorClass][] = (Object.entries(errors) as [string, unknown][])
  .filter(
    (entry): entry is [string, ErrorClass] => typeof entry[1] === 'function' && entry[1].prototype instanceof Error,
  )
  .filter(([name]) => name !== 'VellumError');

/** Builds a probe instance whatever the constructor's arguments (QueryValidationError needs `where`). */
function probe(cls: ErrorClass): Error {
  const Concrete = cls as unknown as new (message: string, second: unknown) => Error;
  return new Concrete('probe', { param: 'p', key: 'k', path: null });
}

function registered(cls: ErrorClass): Registered {
  const { status, errorName, code, graphqlCode } = cls;
  assert.ok(
    status !== undefined && errorName !== undefined && code !== undefined && graphqlCode !== undefined,
    `${cls.name} is not registered`,
  );
  return { status, errorName, code, graphqlCode };
}

/** The error table of docs/errors.md: class -> its cells (backticks removed). */
function errorTable(): Map<string, string[]> {
  const page = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
  const lines = page.split('\n');
  const header = lines.findIndex((line) =>
    /^\|\s*Class\s*\|\s*Name\s*\|\s*Status\s*\|\s*Code\s*\|\s*GraphQL code\s*\|/.test(line),
  );
  assert.ok(
    header >= 0,
    "docs/errors.md has no error table ('| Class | Name | Status | Code | GraphQL code | When |')",
  );
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim().replace(/^`|`$/g, ''));
    rows.set(cells[0]!, cells);
  }
  return rows;
}

describe('error registry', () => {
  it('finds the error classes', () => {
    const names = CLASSES.map(([name]) => name);
    for (const expected of [
      'ValidationError',
      'UnsupportedMediaTypeError',
      'InternalServerError',
      'ServiceUnavailableError',
      'ProjectError',
    ]) {
      assert.ok(names.includes(expected), `${expected} is exported`);
    }
  });

  it('gives every class its own status, name, code and GraphQL code', () => {
    const codes = new Set<string>();
    for (const [exported, cls] of CLASSES) {
      assert.equal(cls.name, exported);
      for (const key of ['status', 'errorName', 'code', 'graphqlCode'] as const) {
        // Its own: a subclass that inherited its parent's code would not be told apart in logs.
        if (key === 'code') assert.ok(Object.hasOwn(cls, key), `${exported}.code is its own`);
        assert.ok(cls[key] !== undefined, `${exported}.${key} is set`);
      }
      const { status, errorName, code, graphqlCode } = registered(cls);
      assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, `${exported}.status ${status}`);
      assert.match(errorName, /^[A-Z][A-Za-z]+$/);
      assert.match(code, /^VELLUM_[A-Z_]+$/);
      assert.match(graphqlCode, /^[A-Z_]+$/);
      assert.ok(!codes.has(code), `${exported}.code ${code} is unique`);
      codes.add(code);
    }
  });

  it('builds instances that carry their class values', () => {
    for (const [exported, cls] of CLASSES) {
      const { status, errorName, code, graphqlCode } = registered(cls);
      const error = probe(cls);
      assert.equal(error.name, errorName, exported);
      if (!(error instanceof VellumError)) continue; // ProjectError stops start-up; no client sees it
      assert.equal(error.status, status, exported);
      assert.equal(error.code, code, exported);
      assert.equal(error.graphqlCode, graphqlCode, exported);
      assert.deepEqual(Object.keys(errorBody(error).error), ['status', 'name', 'message', 'details']);
    }
  });

  it('answers GraphQL with the class GraphQL code and name', () => {
    for (const [exported, cls] of CLASSES) {
      const { errorName, graphqlCode } = registered(cls);
      const original = probe(cls);
      const failure = new GraphQLError(original.message, { originalError: original });
      const silent = { error: () => undefined } as unknown as FastifyBaseLogger;
      const { response } = formatErrors({ data: { probe: null }, errors: [failure] }, { reply: { log: silent } });
      const extensions = (response.errors[0] as { extensions: { code: string; error: { name: string } } }).extensions;
      assert.equal(extensions.code, graphqlCode, exported);
      // Unexpected errors are hidden behind InternalServerError, whatever they were.
      const hidden = !(original instanceof VellumError) || (original.status >= 500 && original.status !== 503);
      assert.equal(extensions.error.name, hidden ? 'InternalServerError' : errorName, exported);
    }
  });

  it('maps Fastify errors to registered classes, never an inline name', () => {
    const media = toVellumError({
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      statusCode: 415,
      message: 'Unsupported Media Type: text/foo',
    });
    assert.ok(media instanceof errors.UnsupportedMediaTypeError);
    assert.equal(media.status, 415);
    assert.equal(media.message, 'Unsupported Media Type: text/foo');
    const unknown = toVellumError(new Error('boom'));
    assert.ok(unknown instanceof errors.InternalServerError);
    assert.deepEqual(errorBody(unknown).error, {
      status: 500,
      name: 'InternalServerError',
      message: 'Internal Server Error',
      details: {},
    });
    const other = toVellumError({ statusCode: 405, message: 'Method Not Allowed' });
    assert.ok(other instanceof errors.ApplicationError);
    assert.equal(other.status, 405);
  });

  it('lists every class in the error table of docs/errors.md with the same values', () => {
    const rows = errorTable();
    for (const [exported, cls] of CLASSES) {
      const { status, errorName, code, graphqlCode } = registered(cls);
      const cells = rows.get(exported);
      assert.ok(cells, `docs/errors.md lists ${exported}`);
      assert.deepEqual(
        cells.slice(0, 5),
        [exported, errorName, String(status), code, graphqlCode],
        `docs/errors.md row of ${exported}`,
      );
      assert.ok((cells[5] ?? '').length > 0, `docs/errors.md says when ${exported} happens`);
    }
    const stale = [...rows.keys()].filter((name) => !CLASSES.some(([exported]) => exported === name));
    assert.deepEqual(stale, [], 'docs/errors.md lists no class that src/core/errors.ts lacks');
  });
});
