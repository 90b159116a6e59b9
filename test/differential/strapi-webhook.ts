/**
 * A copy of a project whose bootstrap, on Strapi only, registers a webhook of the given events to a
 * local URL. Strapi in production (the harness's mode) refuses a webhook URL on this machine
 * ("isn't reachable over the public internet"), so the bootstrap puts it straight in its store and
 * runner, as its admin controller does after that check. The rest of the bootstrap is the shared
 * template's (locale fr, permissions); on Vellum (no webhookRunner) it does nothing.
 */
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { ROOT } from '../helpers/paths.js';

export const WEBHOOK_EVENTS = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'entry.draft-discard',
  'media.create',
  'media.update',
  'media.delete',
];

const SHARED =
  [resolve(ROOT, '../shared'), resolve(ROOT, '../../shared')].find((dir) => existsSync(join(dir, 'bench'))) ??
  resolve(ROOT, '../shared');

export function projectWithStrapiWebhook(
  source: string | undefined,
  url: string,
  events = WEBHOOK_EVENTS,
): TempProject {
  const project = copyProject(source);
  project.write(
    'src/index.js',
    `'use strict';
const template = require(${JSON.stringify(join(SHARED, 'bench/strapi/template/src/index.js'))});
module.exports = {
  register() {},
  async bootstrap(context) {
    let runner;
    try { runner = context.strapi.get('webhookRunner'); } catch { return; }
    if (!runner) return;
    await template.bootstrap(context);
    const webhook = await context.strapi.get('webhookStore').createWebhook({ name: 'diff', url: ${JSON.stringify(url)}, headers: {}, events: ${JSON.stringify(events)} });
    runner.add(webhook);
  },
};
`,
  );
  // The template's server (app keys) and database settings, not the example's.
  for (const file of ['config/server.js', 'config/database.js']) rmSync(join(project.dir, file), { force: true });
  return project;
}
