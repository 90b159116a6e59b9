/**
 * The `vellum` command line's answers to a wrong or asked-for usage: the usage text, never a raw
 * stack trace (no database is opened). In this process (`main`), and once through the bin itself.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { ROOT } from '../helpers/paths.js';

const bin = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'src/app/cli/main.ts'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'test' },
  });

describe('vellum usage', () => {
  it('--help prints the usage and succeeds, whatever the command', async () => {
    for (const args of [['--help'], ['export', '--help'], ['token', 'create', '-h']]) {
      const run = await runCli(args);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, /^usage:/);
      assert.match(run.stdout, /vellum export --file/);
    }
  });

  it('an option a command does not take is named, with the usage, and fails without a stack', async () => {
    const run = await runCli(['export', '--bogus']);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^Error: Unknown option '--bogus'\.\nusage:/);
    assert.doesNotMatch(run.stderr, /\n\s+at /);
  });

  it('the bin answers the same, with its exit code', () => {
    const help = bin('--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^usage:/);
    const wrong = bin('export', '--bogus');
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /^Error: Unknown option '--bogus'\.\nusage:/);
    assert.doesNotMatch(wrong.stderr, /\n\s+at /);
  });
});
