/**
 * Several nodes on one PostgreSQL or MariaDB database (`startServer(dialect, { nodeOf })`: each node
 * its own connection pool, its own delivery worker and cron timers, as separate processes would
 * be): each event delivered once per webhook, each cron tick run once, a tick missed while every
 * node was down not run later, a scheduled publication done once. SQLite serves one node.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Receiver, eventually } from '../helpers/receiver.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const FAST = { server: { webhooks: { pollInterval: 50, timeout: 3000 }, cron: { scheduleInterval: 100 } } };

for (const dialect of DIALECTS.filter((name) => name !== 'sqlite')) {
  describe(`events on three nodes [${dialect}]`, () => {
    let nodes: TestServer[];
    const receivers: Receiver[] = [];

    before(async () => {
      const first = await startServer(dialect, { config: FAST });
      nodes = [
        first,
        await startServer(dialect, { nodeOf: first, config: FAST }),
        await startServer(dialect, { nodeOf: first, config: FAST }),
      ];
    });
    after(async () => {
      for (const node of [...(nodes ?? [])].reverse()) await node.close();
      for (const receiver of receivers) await receiver.close();
    });

    it('delivers each event once per webhook, whichever node wrote it', async () => {
      const [a, b] = [await Receiver.start(), await Receiver.start()];
      receivers.push(a, b);
      for (const receiver of [a, b])
        await nodes[0]!.vellum.webhooks.create({
          name: unique('cluster'),
          url: receiver.url,
          events: ['entry.create', 'entry.update'],
        });
      const prefix = unique('c');
      // Creates and updates, spread over the nodes and sent at once.
      const ids = await Promise.all(
        Array.from(
          { length: 24 },
          async (_, i) =>
            (await nodes[i % 3]!.api.post('/api/tags', { data: { name: `${prefix} ${i}` } })).body.data
              .documentId as string,
        ),
      );
      await Promise.all(
        ids.map((id, i) => nodes[(i + 1) % 3]!.api.put(`/api/tags/${id}`, { data: { name: `${prefix} ${i} bis` } })),
      );
      const mine = (receiver: Receiver) =>
        receiver.delivered.filter((r) => String(r.body.entry?.name).startsWith(prefix));
      for (const receiver of [a, b]) {
        await receiver.until(() => mine(receiver).length >= 48, '48 deliveries');
        const got = mine(receiver);
        assert.equal(got.length, 48, 'none twice');
        assert.equal(new Set(got.map((r) => r.headers['x-vellum-delivery'])).size, 48);
        for (const id of ids) {
          assert.deepEqual(
            got.filter((r) => r.body.entry.documentId === id).map((r) => r.body.event),
            ['entry.create', 'entry.update'],
            `in order for ${id}`,
          );
        }
      }
    });

    it('runs each cron tick on one node; a tick missed while every node was down is not run later', async () => {
      const ticks: { node: number; tick: number }[] = [];
      const name = unique('tick');
      const add = (node: TestServer, index: number) =>
        node.vellum.cron.add({
          [name]: {
            task: (_: unknown, tick: Date) => void ticks.push({ node: index, tick: tick.getTime() }),
            options: '* * * * * *',
          },
        });
      nodes.forEach(add);
      await eventually(() => new Set(ticks.map((t) => t.tick)).size >= 4, 'four ticks');
      for (const node of nodes) node.vellum.cron.remove(name);
      assert.equal(new Set(ticks.map((t) => t.tick)).size, ticks.length, `each tick once: ${JSON.stringify(ticks)}`);

      // Every node stops running the job for a while (as if all were down), then it comes back.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const back = Date.now();
      const before = ticks.length;
      nodes.forEach(add);
      await eventually(() => ticks.length >= before + 2, 'two ticks after the pause');
      for (const node of nodes) node.vellum.cron.remove(name);
      const later = ticks.slice(before);
      assert.ok(
        later.every((t) => t.tick >= back - 1_000),
        `no missed tick run later: ${JSON.stringify(later)} after ${back}`,
      );
      assert.equal(new Set(ticks.map((t) => t.tick)).size, ticks.length, 'still each tick once');
    });

    it('carries out a scheduled publication once', async () => {
      const receiver = await Receiver.start();
      receivers.push(receiver);
      await nodes[0]!.vellum.webhooks.create({
        name: unique('scheduled'),
        url: receiver.url,
        events: ['entry.publish'],
      });
      const documentId = (
        await nodes[0]!.api.post('/api/articles?status=draft', { data: { title: unique('Cluster') } })
      ).body.data.documentId;
      const scheduled = await nodes[1]!.api.post(
        `/api/articles/${documentId}/actions/publish?at=${encodeURIComponent(new Date(Date.now() + 700).toISOString())}`,
      );
      assert.equal(scheduled.status, 202);
      await receiver.until(
        () => receiver.delivered.some((r) => r.body.entry.documentId === documentId),
        'the publication',
      );
      const action = await nodes[2]!.vellum.events.schedules.get(scheduled.body.data.id);
      assert.equal(action.state, 'done');
      assert.equal(action.attempts, 1, 'claimed once');
      assert.equal(receiver.delivered.filter((r) => r.body.entry.documentId === documentId).length, 1);
    });
  });
}
