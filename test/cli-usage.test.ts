/**
 * The `vellum` command line's answers to a wrong or asked-for usage: the usage text, never a raw
 * stack trace (no database is opened).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './helpers/paths.js';

const vellum = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), ...args], { encoding: 'utf8', env: { ...process.env, NODE_ENV: 'test' } });

describe('vellum usage', () => {
  it('--help prints the usage and succeeds, whatever the command', () => {
    for (const args of [['--help'], ['export', '--help'], ['token', 'create', '-h']]) {
      const run = vellum(...args);
      assert.equal(run.status, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, /^usage:/);
      assert.match(run.stdout, /vellum export --file/);
    }
  });

  it('an option a command does not take is named, with the usage, and fails without a stack', () => {
    const run = vellum('export', '--bogus');
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^Error: Unknown option '--bogus'\.\nusage:/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  });
});
