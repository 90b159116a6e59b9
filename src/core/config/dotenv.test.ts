/** `.env` as dotenv 16 (Strapi 5.54's) reads it: the values below are what its `parse` answers. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseDotenv, readDotenv, withDotenv } from './dotenv.js';

describe('.env parsing', () => {
  it("answers what dotenv 16 answers, where Node's util.parseEnv differs", () => {
    const text = [
      '# Server',
      'HOST=0.0.0.0',
      'APP_KEYS="toBeModified1,toBeModified2"',
      'export EXPORTED=yes',
      "SINGLE='a\\nb # kept'",
      'DOUBLE="a\\nb # kept"',
      'INLINE=value # a comment',
      'EMPTY=',
      'SPACED =  spaced value  ',
      // Node 20's parser cuts this at the first \" and reads the next lines as part of a key.
      'JSON="{\\"type\\":\\"service_account\\"}"',
      '   # an indented comment',
      '\tTABBED=yes',
      'KEY="-----BEGIN KEY-----',
      'abc',
      '-----END KEY-----"',
      'URL=postgres://u:p@h:5432/db?ssl=true',
      'COLON: yes',
      'DUP=first',
      'DUP=second',
      'NOT A LINE',
      'WIN=dos\r',
    ].join('\n');
    assert.deepEqual(parseDotenv(text), {
      HOST: '0.0.0.0',
      APP_KEYS: 'toBeModified1,toBeModified2',
      EXPORTED: 'yes',
      SINGLE: 'a\\nb # kept',
      DOUBLE: 'a\nb # kept',
      INLINE: 'value',
      EMPTY: '',
      SPACED: 'spaced value',
      JSON: '{\\"type\\":\\"service_account\\"}',
      TABBED: 'yes',
      KEY: '-----BEGIN KEY-----\nabc\n-----END KEY-----',
      URL: 'postgres://u:p@h:5432/db?ssl=true',
      COLON: 'yes',
      DUP: 'second',
      WIN: 'dos',
    });
  });

  it('adds only the variables the environment lacks; a given environment is copied, never changed', () => {
    const env = { A: 'env', B: '' };
    const merged = withDotenv(env, { A: 'file', B: 'file', C: 'file' });
    assert.deepEqual(merged, { A: 'env', B: '', C: 'file' });
    assert.deepEqual(env, { A: 'env', B: '' });
  });

  it("reads a relative ENV_PATH from the current folder it is given (the CLI's `cwd`), not the process's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'vellum-dotenv-'));
    try {
      writeFileSync(join(dir, 'vars.env'), 'FROM=file\n');
      assert.deepEqual(readDotenv(join(dir, 'project'), { ENV_PATH: 'vars.env' }, dir), {
        file: join(dir, 'vars.env'),
        values: { FROM: 'file' },
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
