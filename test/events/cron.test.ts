/**
 * Cron as Strapi projects write it: `config/server` `cron: { enabled, tasks }` with the tasks in
 * `config/cron-tasks.js` (`{ name: { task, options: { rule, tz } } }` and `'<rule>': fn`), and
 * `strapi.cron.add/remove/jobs` from project code; a bad rule stops start-up naming the file and
 * the key. The tasks record their runs on `globalThis` (project code runs in this process).
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { eventually } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';

interface Run {
  task: string;
  tick: number;
  strapi: boolean;
}
const runs = (): Run[] => ((globalThis as { vellumCronRuns?: Run[] }).vellumCronRuns ??= []);

const TASKS = `module.exports = {
  everySecond: {
    task: ({ strapi }, tick) => { (globalThis.vellumCronRuns ??= []).push({ task: 'named', tick: tick.getTime(), strapi: typeof strapi.documents === 'function' }); },
    options: { rule: '* * * * * *', tz: 'Europe/Paris' },
  },
  '* * * * * *': ({ strapi }) => { (globalThis.vellumCronRuns ??= []).push({ task: 'rule', tick: 0, strapi: typeof strapi.documents === 'function' }); },
};
`;

const SERVER = (enabled: boolean) => `module.exports = ({ env }) => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  cron: { enabled: ${enabled}, tasks: require('./cron-tasks') },
});
`;

const INDEX = `module.exports = {
  register() {},
  bootstrap({ strapi }) {
    strapi.cron.add({ fromBootstrap: { task: () => { (globalThis.vellumCronRuns ??= []).push({ task: 'bootstrap', tick: 0, strapi: true }); }, options: '* * * * * *' } });
  },
};
`;

function project(enabled: boolean, tasks = TASKS): TempProject {
  const copy = copyProject();
  copy.write('config/cron-tasks.js', tasks);
  copy.write('config/server.js', SERVER(enabled));
  copy.write('src/index.js', INDEX);
  return copy;
}

for (const dialect of DIALECTS) {
  describe(`cron [${dialect}]`, () => {
    const cleanup: (() => Promise<void> | void)[] = [];
    after(async () => {
      for (const step of cleanup.reverse()) await step();
    });
    const start = async (copy: TempProject): Promise<TestServer> => {
      cleanup.push(() => copy.remove());
      const server = await startServer(dialect, { project: copy.dir });
      cleanup.push(() => server.close());
      return server;
    };

    it('runs config/cron-tasks (both shapes) and strapi.cron.add jobs; strapi.cron.jobs lists them; remove stops one', async () => {
      runs().length = 0;
      const server = await start(project(true));
      await eventually(
        () => ['named', 'rule', 'bootstrap'].every((task) => runs().filter((run) => run.task === task).length >= 2),
        'each task to run twice',
      );
      assert.ok(
        runs().every((run) => run.strapi),
        'tasks get { strapi }',
      );
      const ticks = runs()
        .filter((run) => run.task === 'named')
        .map((run) => run.tick);
      assert.ok(
        ticks.every((tick) => tick % 1000 === 0),
        'the tick date is the second',
      );
      assert.equal(new Set(ticks).size, ticks.length, 'no tick twice');
      const cron = server.vellum.cron;
      assert.deepEqual(cron.jobs.map((job) => job.name).sort(), [null, 'everySecond', 'fromBootstrap'].sort());
      cron.remove('everySecond');
      const seen = runs().filter((run) => run.task === 'named').length;
      const others = runs().filter((run) => run.task === 'bootstrap').length;
      await eventually(
        () => runs().filter((run) => run.task === 'bootstrap').length >= others + 2,
        'two more runs of the others',
      );
      // A timer already armed may still fire once.
      assert.ok(runs().filter((run) => run.task === 'named').length <= seen + 1);
      await server.close();
      cleanup.pop();
    });

    it("cron.enabled false (Strapi's default): config tasks do not run, strapi.cron.add jobs do", async () => {
      runs().length = 0;
      const server = await start(project(false));
      await eventually(() => runs().filter((run) => run.task === 'bootstrap').length >= 2, 'the bootstrap job');
      assert.equal(runs().filter((run) => run.task !== 'bootstrap').length, 0);
      assert.deepEqual(
        server.vellum.cron.jobs.map((job) => job.name),
        ['fromBootstrap'],
      );
    });

    it('a bad rule, time zone or task stops start-up naming config/cron-tasks.js and the key', async () => {
      const cases: [string, RegExp][] = [
        [
          `module.exports = { cleanup: { task() {}, options: { rule: '61 * * * *' } } };`,
          /config\/cron-tasks\.js: cron\.tasks\["cleanup"\]: invalid cron rule "61 \* \* \* \*"/,
        ],
        [
          `module.exports = { cleanup: { task() {}, options: { rule: '0 * * * *', tz: 'Mars/Olympus' } } };`,
          /cron\.tasks\["cleanup"\]: .*time zone Mars\/Olympus/,
        ],
        [`module.exports = { cleanup: { options: '0 * * * *' } };`, /cron\.tasks\["cleanup"\]: no function found/],
      ];
      for (const [tasks, message] of cases) {
        const copy = project(true, tasks);
        cleanup.push(() => copy.remove());
        await assert.rejects(startServer(dialect, { project: copy.dir }), (error: Error) => {
          assert.equal(error.name, 'ProjectError');
          assert.match(error.message, message);
          return true;
        });
      }
    });
  });
}
