import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { workerExecArgv } from './primary.js';

describe("the workers' Node flags", () => {
  it("are the primary's, with a young generation of 2 MB semi-spaces", () => {
    assert.deepEqual(workerExecArgv(['--import', 'tsx'], undefined), ['--import', 'tsx', '--max-semi-space-size=2']);
    assert.deepEqual(workerExecArgv([], ''), ['--max-semi-space-size=2']);
  });

  it('leave the size to a command line or NODE_OPTIONS that chooses one', () => {
    assert.deepEqual(workerExecArgv(['--max-semi-space-size=8'], undefined), ['--max-semi-space-size=8']);
    assert.deepEqual(workerExecArgv(['--max_semi_space_size', '4'], undefined), ['--max_semi_space_size', '4']);
    assert.deepEqual(workerExecArgv([], '--enable-source-maps --max-semi-space-size=16'), []);
  });
});
