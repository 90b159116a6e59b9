import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProjectError } from '../../core/errors.js';
import { configFail, CronService, every } from './cron.js';

const quiet = () => undefined;

describe('cron tasks', () => {
  it("takes Strapi's shapes: { name: { task, options } } and { rule: fn }; jobs lists them", () => {
    const cron = new CronService(quiet);
    cron.add({
      named: { task: () => undefined, options: { rule: '*/5 * * * *', tz: 'Europe/Paris' } },
      '0 0 * * *': () => undefined,
      once: { task: () => undefined, options: new Date(Date.now() + 60_000) },
    });
    assert.deepEqual(
      cron.jobs.map((job) => job.name),
      ['named', null, 'once'],
    );
    assert.ok(cron.jobs[0]!.job.nextRun() instanceof Date);
    cron.remove('named');
    assert.deepEqual(
      cron.jobs.map((job) => job.name),
      [null, 'once'],
    );
    assert.throws(() => cron.remove(''), /name/);
  });

  it('a bad rule, time zone or task is a start-up error naming the file and key', () => {
    const fail = configFail('config/cron-tasks.js');
    const cases: [unknown, RegExp][] = [
      [
        { cleanup: { task: () => undefined, options: { rule: '61 * * * *' } } },
        /cron\.tasks\["cleanup"\]: invalid cron rule "61 \* \* \* \*"/,
      ],
      [
        { cleanup: { task: () => undefined, options: { rule: '* * * * *', tz: 'Nowhere/City' } } },
        /cron\.tasks\["cleanup"\]: invalid cron rule .* in time zone Nowhere\/City/,
      ],
      [{ 'not a rule': () => undefined }, /cron\.tasks\["not a rule"\]: invalid cron rule/],
      [{ cleanup: { options: '* * * * *' } }, /cron\.tasks\["cleanup"\]: no function found/],
      [{ cleanup: { task: () => undefined, options: 5 } }, /cron\.tasks\["cleanup"\]: options must be/],
    ];
    for (const [tasks, message] of cases) {
      const error = (() => {
        try {
          new CronService(quiet).add(tasks, fail);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      assert.ok(error instanceof ProjectError, String(error));
      assert.match(error.message, /^config\/cron-tasks\.js: /);
      assert.match(error.message, message);
    }
    // strapi.cron.add: a plain error, as Strapi's.
    assert.throws(() => new CronService(quiet).add({ x: 3 }), /Could not schedule a cron job for "x"/);
  });

  it('interval jobs tick at multiples of the interval, the same on every node', () => {
    const next = every(1_000);
    assert.equal(next(new Date(1_500)).getTime(), 2_000);
    assert.equal(next(new Date(2_000)).getTime(), 3_000);
  });
});
