/**
 * `vellum audit` on the database a node serves (newest first, the filters, `--json`), and
 * retention on every dialect: `config/admin` `auditLogs.retentionDays` (a bad value stops start-up
 * naming it), entries older than it deleted in batches, two nodes pruning at once deleting each
 * once, and the job's tick claimed by one node only.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminClient } from '../helpers/audit.js';
import { cliOutput, runCli } from '../helpers/cli.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const TAGS = '/admin/content-manager/collection-types/api::tag.tag';
const DAY = 86_400_000;

for (const dialect of DIALECTS) {
  describe(`vellum audit and retention [${dialect}]`, () => {
    let project: TempProject;
    let server: TestServer;
    let other: TestServer | undefined;
    const vellum = (...args: string[]) => cliOutput(['audit', ...args, '--project', project.dir]);

    before(async () => {
      project = copyProject();
      project.write('config/admin.js', 'module.exports = { auditLogs: { retentionDays: 30 } };\n');
      server = await startServer(dialect, { project: project.dir });
      rmSync(join(project.dir, 'config/database.js'));
      project.write('config/database.json', JSON.stringify(server.databaseConfig));
    });
    after(async () => {
      await other?.close();
      await server?.close();
      project?.remove();
    });

    it('prints the log newest first, filtered as the screen filters it, and as JSON', async () => {
      const ann = await adminClient(server, `${unique('ann')}@example.com`);
      const bob = await adminClient(server, `${unique('bob')}@example.com`);
      const first = await ann.client.post(TAGS, { data: { name: unique('first') } });
      const second = await bob.client.post(TAGS, { data: { name: unique('second') } });
      await bob.client.put(`${TAGS}/${second.body.data.documentId}`, { data: { name: unique('renamed') } });

      const lines = (await vellum('--type', 'api::tag.tag', '--limit', '3')).trim().split('\n');
      assert.equal(lines.length, 3);
      assert.match(
        lines[0]!,
        new RegExp(
          `entry\\.update  ${bob.email} <${bob.email}> #${bob.id}  api::tag\\.tag ${second.body.data.documentId}  changed: name$`,
        ),
      );
      assert.match(lines[1]!, /entry\.create {2}.*api::tag\.tag/);
      assert.match(
        lines[2]!,
        new RegExp(`entry\\.create  ${ann.email} .*${first.body.data.documentId}  changed: name$`),
      );
      // By email or id, by action; the dates bound the list.
      assert.equal((await vellum('--user', bob.email, '--type', 'api::tag.tag')).trim().split('\n').length, 2);
      assert.equal(
        (await vellum('--user', String(ann.id), '--action', 'entry.create,entry.update')).trim().split('\n').length,
        1,
      );
      assert.equal((await vellum('--user', String(ann.id), '--until', '2001-01-01')).trim(), 'No entries.');
      const json = JSON.parse(
        await vellum('--user', String(bob.id), '--json', '--since', new Date(Date.now() - DAY).toISOString()),
      );
      assert.deepEqual(
        json.map((entry: { action: string }) => entry.action),
        ['entry.update', 'entry.create', 'admin.auth.success'],
      );
      assert.deepEqual(json[0].user, { id: bob.id, email: bob.email, displayName: bob.email });
      // Bad input: one line naming it.
      const bad = await runCli(['audit', '--since', 'yesterday', '--project', project.dir]);
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /--since must be a date/);
      const nobody = await runCli(['audit', '--user', 'nobody@example.com', '--project', project.dir]);
      assert.match(nobody.stderr, /No entry of an administrator nobody@example.com/);
    });

    it('deletes the entries older than retentionDays in batches, once when two nodes prune at once', async () => {
      const { audit, database } = server.vellum;
      assert.equal(audit.retentionDays, 30);
      const now = Date.now();
      const old = Array.from({ length: 2500 }, (_, index) => ({
        created_at: now - 31 * DAY - index,
        action: 'entry.update',
        actor_id: null,
        subject: 'old',
      }));
      for (let index = 0; index < old.length; index += 500)
        await database.system
          .insertInto('vellum_audit_logs')
          .values(old.slice(index, index + 500))
          .execute();
      await database.system
        .insertInto('vellum_audit_logs')
        .values({ created_at: now - 29 * DAY, action: 'entry.update', actor_id: null, subject: 'kept' })
        .execute();
      const count = async (subject: string) =>
        Number(
          (
            await database.system
              .selectFrom('vellum_audit_logs')
              .select((eb) => eb.fn.countAll<number | string>().as('n'))
              .where('subject', '=', subject)
              .executeTakeFirstOrThrow()
          ).n,
        );
      assert.equal(await audit.retention.due(), true);
      other = await startServer(dialect, { project: project.dir, nodeOf: server });
      const [a, b] = await Promise.all([audit.retention.prune(), other.vellum.audit.retention.prune()]);
      assert.equal(a + b, 2500);
      assert.equal(await count('old'), 0);
      assert.equal(await count('kept'), 1);
      assert.equal(await audit.retention.due(), false);
      // The job's tick: one node claims it, the other finds it taken.
      const { key, next } = audit.job;
      const tick = next(new Date(now))!.getTime() + 7 * DAY;
      const following = next(new Date(tick))!.getTime();
      const claims = await Promise.all([
        server.vellum.events.scheduler.claim(key, tick, following),
        other.vellum.events.scheduler.claim(key, tick, following),
      ]);
      assert.deepEqual(claims.sort(), [false, true]);
    });

    it("records the administration commands' changes and an import as Vellum's own", async () => {
      const cli = (...args: string[]) => cliOutput([...args, '--project', project.dir]);
      const name = unique('ci');
      const created = await cli('token', 'create', '--name', name, '--type', 'read-only');
      const key = created.trim().split('\n').at(-1)!;
      await cli('token', 'revoke', name);
      await cli('registration', 'close');
      const imported = await runCli([
        'import',
        '--file',
        join(fixture('strapi-archive'), 'blog.tar.gz'),
        '--project',
        project.dir,
      ]);
      assert.equal(imported.code, 0, imported.stderr);
      const entries = JSON.parse(await vellum('--json', '--limit', '4')) as {
        action: string;
        user: unknown;
        payload: { subject?: string; details?: Record<string, unknown>; changedFields?: string[] };
      }[];
      assert.deepEqual(entries.map((entry) => [entry.action, entry.user, entry.payload.subject]).reverse(), [
        ['api-token.create', null, entries.at(-1)!.payload.subject],
        ['api-token.revoke', null, entries.at(-1)!.payload.subject],
        ['settings.update', null, 'users-permissions.advanced'],
        ['transfer.import', null, 'blog.tar.gz'],
      ]);
      assert.equal(entries[0]!.payload.details?.from, 'archive');
      assert.ok(!JSON.stringify(entries).includes(key), 'the access key is never recorded');
      assert.match(await vellum('--action', 'transfer.import'), /transfer\.import {2}vellum {2}#blog\.tar\.gz$/m);
    });

    it('refuses a retention that is not a positive number of days, naming the file', async () => {
      const broken = copyProject();
      try {
        broken.write('config/admin.js', "module.exports = { auditLogs: { retentionDays: 'forever' } };\n");
        await assert.rejects(
          startServer(dialect, { project: broken.dir }),
          /config\/admin.*auditLogs\.retentionDays must be a positive number of days/s,
        );
      } finally {
        broken.remove();
      }
    });
  });
}
