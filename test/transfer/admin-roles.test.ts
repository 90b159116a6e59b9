/**
 * Administrators' roles through `vellum export` and `vellum import` (docs/import-export.md
 * "Administrators' roles"), on every dialect. The archive holds them as Strapi 5.54's transfer
 * engine writes `admin::role` and `admin::permission` entities and their links
 * (test/fixtures/admin-roles/strapi-engine-roles.json: recorded from the real Strapi with
 * test/differential/strapi-engine-export.cjs; `strapi import` leaves them out, see
 * test/differential/roles-transfer.diff.ts). A round trip gives the roles back exactly; a seeded
 * random sequence of edits, exported and imported twice, matches a model; an import keeps the
 * roles a project has of its own and its Super Admins; a damaged roles part is refused with what
 * is wrong, and nothing is written.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { create as createTar, extract as extractTar } from 'tar';
import { openProject } from '../../src/app/open-project.js';
import { AuditLog } from '../../src/features/audit/index.js';
import { exportArchive, importArchive, Progress, type Summary } from '../../src/features/transfer/index.js';
import { adminIdentity } from '../../src/features/users-permissions/index.js';
import { adminClient, type Entry } from '../helpers/audit.js';
import { runCli } from '../helpers/cli.js';
import type { HttpClient } from '../helpers/http.js';
import { copyProject, type TempProject } from '../helpers/projects.js';
import { BLOG, DIALECTS, fixture, startServer, type TestServer } from '../helpers/server.js';

const ARTICLE = 'api::article.article';
const IS_CREATOR = 'admin::is-creator';
const SAME_ROLE = 'admin::has-same-role-as-creator';

type Json = Record<string, any>;
interface ArchiveLines {
  entities: Json[];
  links: Json[];
}

/** What Strapi's engine wrote for the blog's roles: Super Admin (a few of its permissions), Editor, Author, and "Titles". */
const STRAPI = JSON.parse(readFileSync(fixture('admin-roles/strapi-engine-roles.json'), 'utf8')) as ArchiveLines;

/** Each content-type's fields, as Strapi's Editor holds them (every field). */
const FIELDS: Record<string, string[]> = Object.fromEntries(
  STRAPI.entities
    .filter((e) => e.type === 'admin::permission' && e.data.action === 'plugin::content-manager.explorer.create')
    .map((e) => [e.data.subject as string, e.data.properties.fields as string[]]),
);
const SUBJECTS = Object.keys(FIELDS).sort();
const PLUGIN_ACTIONS = [
  'plugin::upload.read',
  'plugin::upload.assets.create',
  'plugin::content-type-builder.read',
  'admin::webhooks.read',
  'plugin::i18n.locale.read',
];

/** A random generator with a seed (mulberry32): a failing sequence is replayed from its seed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A role as the comparisons see it: its permissions as a sorted list of their JSON. */
interface RoleState {
  id: number;
  documentId: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  permissions: string[];
}

const permissionKey = (p: Json) =>
  JSON.stringify({
    action: p.action,
    subject: p.subject ?? null,
    properties: p.properties ?? {},
    conditions: p.conditions ?? [],
    actionParameters: p.actionParameters ?? {},
  });

/** Every role of a server by code, read through the admin API. */
async function rolesOf(admin: HttpClient): Promise<Map<string, RoleState>> {
  const list = await admin.get('/admin/roles');
  assert.equal(list.status, 200, JSON.stringify(list.body));
  const roles = new Map<string, RoleState>();
  for (const role of list.body.data as Json[]) {
    const permissions = await admin.get(`/admin/roles/${role.id}/permissions`);
    assert.equal(permissions.status, 200);
    roles.set(role.code, {
      id: role.id,
      documentId: role.documentId,
      name: role.name,
      description: role.description,
      createdAt: role.createdAt,
      updatedAt: role.updatedAt,
      permissions: (permissions.body.data as Json[]).map(permissionKey).sort(),
    });
  }
  return roles;
}

/** What two servers' roles must share: name, description and permissions (ids, documentIds and times differ for roles found by code). */
const essence = (roles: Map<string, RoleState>) =>
  Object.fromEntries(
    [...roles].map(([code, r]) => [code, { name: r.name, description: r.description, permissions: r.permissions }]),
  );

/** The lines of an archive's entities and links (one file each, as Vellum writes them). */
async function readArchive(file: string): Promise<{ dir: string; lines: ArchiveLines }> {
  const dir = await mkdtemp(join(tmpdir(), 'vellum-roles-archive-'));
  await extractTar({ file, cwd: dir });
  const read = (folder: string) =>
    readdirSync(join(dir, folder))
      .sort()
      .flatMap((name) =>
        readFileSync(join(dir, folder, name), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Json),
      );
  return { dir, lines: { entities: read('entities'), links: read('links') } };
}

/** A copy of an archive whose entities and links `edit` changed. */
async function repack(file: string, target: string, edit: (lines: ArchiveLines) => void): Promise<void> {
  const { dir, lines } = await readArchive(file);
  try {
    edit(lines);
    for (const folder of ['entities', 'links']) {
      for (const name of readdirSync(join(dir, folder))) rmSync(join(dir, folder, name));
      const items = folder === 'entities' ? lines.entities : lines.links;
      writeFileSync(
        join(dir, folder, `${folder}_00001.jsonl`),
        items.map((item) => JSON.stringify(item)).join('\n') + '\n',
      );
    }
    await createTar({ gzip: true, file: target, cwd: dir, portable: true }, readdirSync(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The archive's roles part replaced by another's (its `admin::role`/`admin::permission` entities and their links). */
const withRolesOf = (other: ArchiveLines) => (lines: ArchiveLines) => {
  const admin = (type: string) => type === 'admin::role' || type === 'admin::permission';
  lines.entities = [...lines.entities.filter((e) => !admin(e.type)), ...other.entities];
  lines.links = [...lines.links.filter((l) => !admin(l.left.type)), ...other.links];
};

for (const dialect of DIALECTS) {
  describe(`administrators' roles through export and import [${dialect}]`, () => {
    let work: string;
    let source: TestServer;
    let sourceAdmin: HttpClient;
    /** The source's archive once the first test has made its roles. */
    let archive: string;
    const servers: TestServer[] = [];

    const options = (target: TestServer) => ({
      env: { NODE_ENV: 'test' },
      overrides: { server: { dirs: { public: join(work, 'public') } }, database: target.databaseConfig },
    });
    const exportFrom = async (server: TestServer, file: string): Promise<Summary> => {
      const project = await openProject(BLOG, options(server));
      try {
        return await exportArchive(project, file, new Progress(null));
      } finally {
        await project.close();
      }
    };
    const importInto = async (server: TestServer, file: string): Promise<Summary> => {
      const project = await openProject(BLOG, options(server));
      try {
        const audited = { trail: new AuditLog(project.database, adminIdentity), actor: null };
        return await importArchive(project, file, new Progress(null), audited);
      } finally {
        await project.close();
      }
    };
    const fresh = async () => {
      const server = await startServer(dialect);
      servers.push(server);
      return { server, admin: (await adminClient(server)).client };
    };
    const ok = (res: { status: number; body: unknown }, status = 200) =>
      assert.equal(res.status, status, JSON.stringify(res.body));

    before(async () => {
      work = await mkdtemp(join(tmpdir(), 'vellum-roles-transfer-'));
      mkdirSync(join(work, 'public'));
      ({ server: source, admin: sourceAdmin } = await fresh());
      ok(await source.api.post('/api/articles', { data: { title: 'Roles travel with the content' } }), 201);
    });
    after(async () => {
      for (const server of servers) await server.close();
      await rm(work, { recursive: true, force: true });
    });

    it('a round trip gives back custom roles, the Editor’s and Author’s edits and the Super Admin role exactly', async () => {
      const titles = await sourceAdmin.post('/admin/roles', { name: 'Titles', description: 'Only titles' });
      ok(titles, 201);
      ok(
        await sourceAdmin.put(`/admin/roles/${titles.body.data.id}/permissions`, {
          permissions: [
            {
              action: 'plugin::content-manager.explorer.read',
              subject: ARTICLE,
              properties: { fields: ['title', 'seo.metaTitle'], locales: ['en'] },
              conditions: [IS_CREATOR],
            },
            {
              action: 'plugin::content-manager.explorer.update',
              subject: ARTICLE,
              properties: { fields: ['title'], locales: ['en', 'fr'] },
              conditions: [IS_CREATOR, SAME_ROLE],
            },
            { action: 'plugin::upload.read', subject: null, properties: {}, conditions: [] },
          ],
        }),
      );
      const reviewers = await sourceAdmin.post('/admin/roles', { name: 'Reviewers' });
      ok(reviewers, 201);
      ok(
        await sourceAdmin.put(`/admin/roles/${reviewers.body.data.id}/permissions`, {
          permissions: [
            { action: 'plugin::content-manager.explorer.publish', subject: ARTICLE, properties: { locales: ['fr'] } },
            { action: 'admin::webhooks.read', subject: null },
          ],
        }),
      );
      // The Author renamed, the Editor without publishing and reading only some fields of tags.
      ok(await sourceAdmin.put('/admin/roles/3', { name: 'Writer', description: 'Writes' }));
      const editor = (await sourceAdmin.get('/admin/roles/2/permissions')).body.data as Json[];
      const edited = editor
        .filter((p) => p.action !== 'plugin::content-manager.explorer.publish')
        .map(({ id: _id, ...p }) =>
          p.action === 'plugin::content-manager.explorer.read' && p.subject === 'api::tag.tag'
            ? { ...p, properties: { fields: ['name'] } }
            : p,
        );
      ok(await sourceAdmin.put('/admin/roles/2/permissions', { permissions: edited }));

      archive = join(work, 'source.tar.gz');
      const exported = await exportFrom(source, archive);
      const before = await rolesOf(sourceAdmin);
      assert.equal(exported.types.get('admin::role')?.written, before.size);

      const { server: target, admin } = await fresh();
      const summary = await importInto(target, archive);
      assert.deepEqual(summary.mismatches, []);
      assert.ok(
        summary.notes.some((n) => /administrator roles: 2 created, 2 updated, 1 unchanged/.test(n)),
        summary.notes.join('\n'),
      );
      const after = await rolesOf(admin);
      assert.deepEqual(essence(after), essence(before));
      // Roles made by the import are the source's, documentId and times included.
      for (const code of [titles.body.data.code, reviewers.body.data.code]) {
        const { id: _a, ...theirs } = before.get(code)!;
        const { id: _b, ...ours } = after.get(code)!;
        assert.deepEqual(ours, theirs);
      }
      // The content came too.
      assert.equal((await target.api.get('/api/articles')).body.data[0].title, 'Roles travel with the content');
    });

    it('writes roles as Strapi’s transfer engine does, and reads what that engine writes', async () => {
      const { lines } = await readArchive(archive);
      const strapiRole = STRAPI.entities.find((e) => e.type === 'admin::role')!;
      const strapiPermission = STRAPI.entities.find((e) => e.type === 'admin::permission')!;
      const ours = lines.entities.filter((e) => e.type === 'admin::role' || e.type === 'admin::permission');
      for (const entity of ours) {
        const theirs = entity.type === 'admin::role' ? strapiRole : strapiPermission;
        assert.deepEqual(Object.keys(entity), Object.keys(theirs));
        assert.deepEqual(Object.keys(entity.data), Object.keys(theirs.data), entity.type);
        assert.equal(typeof entity.id, 'number');
      }
      // Strapi's order of types: permissions, then roles, after the project's.
      const types = [...new Set(lines.entities.map((e) => e.type))];
      assert.deepEqual(types.slice(-2), ['admin::permission', 'admin::role']);
      const links = lines.links.filter((l) => l.left.type === 'admin::permission');
      assert.equal(links.length, ours.filter((e) => e.type === 'admin::permission').length);
      const shape = (link: Json) => ({
        kind: link.kind,
        relation: link.relation,
        left: Object.keys(link.left).sort(),
        right: Object.keys(link.right).sort(),
        fields: [link.left.field, link.right.field],
      });
      for (const link of links) assert.deepEqual(shape(link), shape(STRAPI.links[0]!));
      // Each role's permissions numbered 1, 2, ... in its list, as Strapi's `pos`.
      const places = new Map<number, number[]>();
      for (const link of links) places.set(link.right.ref, [...(places.get(link.right.ref) ?? []), link.right.pos]);
      for (const list of places.values())
        assert.deepEqual(
          list,
          list.map((_, i) => i + 1),
        );

      // Strapi's roles, as its engine wrote them, imported here: custom role, Editor and Author as Strapi has them.
      const file = join(work, 'strapi-roles.tar.gz');
      await repack(archive, file, withRolesOf(STRAPI));
      const { server: target, admin } = await fresh();
      const superAdminBefore = (await rolesOf(admin)).get('strapi-super-admin')!;
      const summary = await importInto(target, file);
      assert.ok(
        summary.notes.some((n) => /Super Admin role keeps every action.*4 permission/.test(n)),
        summary.notes.join('\n'),
      );
      const roles = await rolesOf(admin);
      const expected = (id: number) =>
        STRAPI.links
          .filter((l) => l.right.ref === id)
          .map((l) =>
            permissionKey(STRAPI.entities.find((e) => e.type === 'admin::permission' && e.id === l.left.ref)!.data),
          )
          .sort();
      for (const [id, code] of [
        [2, 'strapi-editor'],
        [3, 'strapi-author'],
        [4, 'titles-mx1eqe1m'],
      ] as const) {
        const role = roles.get(code);
        assert.ok(role, code);
        assert.deepEqual(role.permissions, expected(id), code);
      }
      const strapiTitles = STRAPI.entities.find((e) => e.type === 'admin::role' && e.id === 4)!.data;
      const titles = roles.get('titles-mx1eqe1m')!;
      assert.deepEqual(
        [titles.documentId, titles.name, titles.description, titles.createdAt],
        [strapiTitles.documentId, strapiTitles.name, strapiTitles.description, strapiTitles.createdAt],
      );
      assert.deepEqual(roles.get('strapi-super-admin'), superAdminBefore);
    });

    it('a seeded random sequence of role edits, exported and imported twice, matches a model', async () => {
      const seed = Number(process.env.ROLES_SEED ?? 34);
      const next = random(seed);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
      const subset = <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.5);
      const { server: origin, admin: originAdmin } = await fresh();
      const { server: target, admin: targetAdmin } = await fresh();
      /** The model: every role of the origin by code. */
      const model = new Map<string, { id: number; name: string; description: string | null; permissions: Json[] }>();
      for (const [code, role] of await rolesOf(originAdmin))
        model.set(code, {
          id: role.id,
          name: role.name,
          description: role.description,
          permissions: role.permissions.map((p) => JSON.parse(p) as Json),
        });
      let counter = 0;
      const randomPermissions = (): Json[] => {
        const out: Json[] = [];
        const taken = new Set<string>();
        for (let n = Math.floor(next() * 7); n > 0; n--) {
          if (next() < 0.3) {
            const action = pick(PLUGIN_ACTIONS);
            if (taken.has(action)) continue;
            taken.add(action);
            out.push({ action, actionParameters: {}, subject: null, properties: {}, conditions: [] });
            continue;
          }
          const verb = pick(['create', 'read', 'update', 'delete', 'publish'] as const);
          const subject = pick(SUBJECTS);
          if (taken.has(`${verb} ${subject}`)) continue;
          taken.add(`${verb} ${subject}`);
          const properties: Json = {};
          if (verb === 'create' || verb === 'read' || verb === 'update') properties.fields = subset(FIELDS[subject]!);
          // The admin API stores a permission naming no locale with the default one, as Strapi does.
          if (subject === ARTICLE) properties.locales = subset(['en', 'fr']);
          if (subject === ARTICLE && (properties.locales as string[]).length === 0) properties.locales = ['en'];
          out.push({
            action: `plugin::content-manager.explorer.${verb}`,
            actionParameters: {},
            subject,
            properties,
            conditions: pick([[], [IS_CREATOR], [SAME_ROLE], [IS_CREATOR, SAME_ROLE]]),
          });
        }
        return out;
      };
      const steps = async (count: number) => {
        for (let step = 0; step < count; step++) {
          const editable = [...model].filter(([code]) => code !== 'strapi-super-admin');
          const op =
            editable.length === 0
              ? 'create'
              : pick(['create', 'create', 'rename', 'describe', 'permissions', 'permissions', 'permissions', 'delete']);
          const where = `seed ${seed}, step ${step}: ${op}`;
          if (op === 'create') {
            const name = `Role ${seed}-${++counter}`;
            const res = await originAdmin.post('/admin/roles', {
              name,
              ...(next() < 0.5 ? { description: `about ${name}` } : {}),
            });
            assert.equal(res.status, 201, where);
            model.set(res.body.data.code, {
              id: res.body.data.id,
              name,
              description: res.body.data.description,
              permissions: [],
            });
            continue;
          }
          const [, role] = pick(editable);
          if (op === 'rename') {
            role.name = `Renamed ${seed}-${++counter}`;
            assert.equal((await originAdmin.put(`/admin/roles/${role.id}`, { name: role.name })).status, 200, where);
          } else if (op === 'describe') {
            role.description = next() < 0.3 ? null : `said ${++counter}`;
            assert.equal(
              (await originAdmin.put(`/admin/roles/${role.id}`, { description: role.description })).status,
              200,
              where,
            );
          } else if (op === 'permissions') {
            role.permissions = randomPermissions();
            const res = await originAdmin.put(`/admin/roles/${role.id}/permissions`, { permissions: role.permissions });
            assert.equal(res.status, 200, `${where} ${JSON.stringify(res.body)}`);
          } else {
            // The Editor stays (its edits travel); the Author may go (the target then keeps its own).
            const deletable = editable.filter(([other]) => other !== 'strapi-editor');
            if (deletable.length === 0) continue;
            const [gone, { id }] = pick(deletable);
            assert.equal((await originAdmin.delete(`/admin/roles/${id}`)).status, 200, where);
            model.delete(gone);
          }
        }
      };
      const expectedOf = (kept: Map<string, RoleState>) => {
        const expected = new Map(kept);
        for (const [code, role] of model)
          expected.set(code, {
            ...role,
            permissions: role.permissions.map(permissionKey).sort(),
          } as unknown as RoleState);
        return essence(expected);
      };
      const rounds: [number, string][] = [
        [40, join(work, 'random-1.tar.gz')],
        [25, join(work, 'random-2.tar.gz')],
      ];
      for (const [count, file] of rounds) {
        await steps(count);
        const originRoles = await rolesOf(originAdmin);
        assert.deepEqual(essence(originRoles), expectedOf(new Map()), `seed ${seed}: the origin is the model`);
        // The target's roles the origin does not have (deleted there since, or its own Editor and Author) stay as they are.
        const targetBefore = await rolesOf(targetAdmin);
        await exportFrom(origin, file);
        await importInto(target, file);
        const kept = new Map([...targetBefore].filter(([code]) => !model.has(code)));
        assert.deepEqual(essence(await rolesOf(targetAdmin)), expectedOf(kept), `seed ${seed}`);
        const again = await importInto(target, file);
        assert.ok(
          again.notes.some((n) => new RegExp(`0 created, 0 updated, ${model.size} unchanged`).test(n)),
          again.notes.join('\n'),
        );
      }
    });

    describe('into a project with roles of its own', () => {
      let target: TestServer;
      let admin: HttpClient;
      let project: TempProject;
      let localId: number;
      const vellum = (...args: string[]) => runCli([...args, '--project', project.dir]);
      const articles = async () => (await target.api.get('/api/articles?status=draft')).body.meta.pagination.total;
      const audit = async (action: string) =>
        (await admin.get(`/admin/audit-logs?pageSize=100&filters[$and][0][action][$eq]=${action}`)).body
          .results as Entry[];

      before(async () => {
        ({ server: target, admin } = await fresh());
        project = copyProject();
        rmSync(join(project.dir, 'config/database.js'));
        project.write('config/database.json', JSON.stringify(target.databaseConfig));
        const local = await admin.post('/admin/roles', { name: 'Local', description: 'Only here' });
        ok(local, 201);
        localId = local.body.data.id;
        ok(
          await admin.put(`/admin/roles/${localId}/permissions`, {
            permissions: [
              {
                action: 'plugin::content-manager.explorer.read',
                subject: 'api::tag.tag',
                properties: { fields: ['name'] },
              },
            ],
          }),
        );
        // An administrator holding the local role, beside the Super Admin.
        const other = await adminClient(target);
        ok(await admin.put(`/admin/users/${other.id}`, { roles: [localId] }));
        ok(await target.api.post('/api/articles', { data: { title: 'Already here' } }), 201);
      });
      after(() => project?.remove());

      const holders = async () =>
        ((await admin.get('/admin/users?pageSize=100')).body.data.results as Json[])
          .map((user) => `${user.email}: ${(user.roles as Json[]).map((r) => r.code).join(',')}`)
          .sort();

      it('a damaged roles part is refused, naming the problem, and nothing is written', async () => {
        const before = { roles: await rolesOf(admin), articles: await articles(), holders: await holders() };
        const imports = (await audit('transfer.import')).length;
        const cases: [string, (lines: ArchiveLines) => void, RegExp][] = [
          [
            'a permission linked to a role the archive lacks',
            (lines) => {
              lines.links.find((l) => l.left.type === 'admin::permission')!.right.ref = 999;
            },
            /links_00001\.jsonl, line \d+: the link of admin::permission \d+ to admin::role 999: the archive has no such role/,
          ],
          [
            'a role without a name',
            (lines) => {
              delete lines.entities.find((e) => e.type === 'admin::role' && e.data.name === 'Titles')!.data.name;
            },
            /entities_00001\.jsonl, line \d+: admin::role \d+: name must be a non-empty text/,
          ],
          [
            'two roles with one code',
            (lines) => {
              const roles = lines.entities.filter((e) => e.type === 'admin::role');
              roles[4]!.data.code = roles[3]!.data.code;
            },
            /admin::role \d+: its code "[^"]+" is the code of admin::role \d+ too/,
          ],
          [
            'fields nested under a field they name',
            (lines) => {
              // Titles' first permission (its only one with these two fields).
              const read = lines.entities.find(
                (e) => e.type === 'admin::permission' && e.data.properties?.fields?.join() === 'title,seo.metaTitle',
              )!;
              read.data.properties.fields = ['seo', 'seo.metaTitle'];
            },
            /admin::role \d+ "Titles": a permission the admin API would refuse \(admin::permission \d+, plugin::content-manager\.explorer\.read\): permissions\[0\]\.properties\.fields: Fields format are incorrect \(bad nesting\)/,
          ],
          [
            'a condition that does not exist',
            (lines) => {
              // Reviewers' (the Super Admin's, before it, is not read).
              lines.entities
                .filter((e) => e.type === 'admin::permission' && e.data.action === 'admin::webhooks.read')
                .at(-1)!.data.conditions = ['admin::is-owner'];
            },
            /"Reviewers": a permission the admin API would refuse .*contains conditions that don't exist/,
          ],
          [
            'properties that are not an object',
            (lines) => {
              lines.entities.find((e) => e.type === 'admin::permission')!.data.properties = 'all';
            },
            /admin::permission \d+: properties must be an object/,
          ],
          [
            'a time that is not one',
            (lines) => {
              lines.entities.find((e) => e.type === 'admin::role')!.data.createdAt = 'yesterday';
            },
            /admin::role \d+: createdAt, updatedAt and publishedAt must be dates/,
          ],
        ];
        for (const [what, edit, message] of cases) {
          const file = join(work, 'damaged.tar.gz');
          await repack(archive, file, edit);
          const run = await vellum('import', '--file', file);
          assert.equal(run.code, 1, `${what}: ${run.stdout}`);
          assert.match(run.stderr, message, what);
          assert.match(run.stderr, /Nothing was imported/, what);
        }
        assert.deepEqual(await rolesOf(admin), before.roles);
        assert.equal(await articles(), before.articles);
        assert.deepEqual(await holders(), before.holders);
        assert.equal((await audit('transfer.import')).length, imports);
      });

      it('an archive whose role takes the name of one of the project’s is refused; nothing is written', async () => {
        const before = { roles: await rolesOf(admin), articles: await articles() };
        const file = join(work, 'conflict.tar.gz');
        await repack(archive, file, (lines) => {
          lines.entities.find((e) => e.type === 'admin::role' && e.data.name === 'Titles')!.data.name = 'Local';
        });
        const run = await vellum('import', '--file', file);
        assert.equal(run.code, 1);
        assert.match(
          run.stderr,
          /admin::role \d+: the role "Local" \(code titles-[a-z0-9]+\) of the archive has the name of another role of this project \(code local-[a-z0-9]+\): rename one of them, then import again\. Nothing was imported/,
        );
        assert.deepEqual(await rolesOf(admin), before.roles);
        assert.equal(await articles(), before.articles);
      });

      it('keeps the project’s own roles and Super Admins, adds the archive’s, records the import; an archive of strapi export changes no role', async () => {
        const before = await rolesOf(admin);
        const beforeHolders = await holders();
        const run = await vellum('import', '--file', archive);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /admin::role\s+5\s+5\s+6/);
        assert.match(run.stdout, /administrator roles: 2 created, 2 updated, 1 unchanged/);
        const after = await rolesOf(admin);
        const source = await rolesOf(sourceAdmin);
        const codeOf = (name: string) => [...source].find(([, role]) => role.name === name)![0];
        assert.deepEqual(after.get('strapi-super-admin'), before.get('strapi-super-admin'));
        const localCode = [...before].find(([, role]) => role.name === 'Local')![0];
        assert.deepEqual(after.get(localCode), before.get(localCode), 'the local role is as it was');
        assert.deepEqual(await holders(), beforeHolders, 'every administrator keeps their roles');
        const { [localCode]: _local, ...imported } = essence(after);
        assert.deepEqual(imported, essence(source));
        // The audit log: Vellum's own changes (no administrator), each in the roles' transaction, and the import.
        const created = (await audit('role.create')).filter((e) => e.payload.details?.import);
        assert.deepEqual(created.map((e) => [e.user, e.payload.details?.name]).sort(), [
          [null, 'Reviewers'],
          [null, 'Titles'],
        ]);
        const updated = (await audit('role.update')).filter((e) => e.payload.details?.import);
        assert.deepEqual(
          updated.map((e) => [e.user, e.payload.subject, e.payload.changedFields]),
          [[null, String(after.get('strapi-author')!.id), ['name', 'description']]],
        );
        const permissions = (await audit('permission.update')).filter((e) => e.payload.details?.import);
        assert.deepEqual(
          permissions.map((e) => e.payload.subject).sort(),
          ['strapi-editor', codeOf('Titles'), codeOf('Reviewers')].map((code) => String(after.get(code)!.id)).sort(),
        );
        const [entry] = await audit('transfer.import');
        assert.equal(entry!.user, null);
        assert.equal(entry!.payload.subject, 'source.tar.gz');
        assert.equal(entry!.payload.details?.adminRoles, 5);

        // Then an archive of strapi export (it has no roles): every role stays as it is.
        const now = await rolesOf(admin);
        const strapi = await vellum('import', '--file', join(fixture('strapi-archive'), 'blog.tar.gz'));
        assert.equal(strapi.code, 0, strapi.stderr);
        assert.doesNotMatch(strapi.stdout, /administrator roles:/);
        assert.deepEqual(await rolesOf(admin), now);
      });

      it('two roles of an archive may swap their names', async () => {
        const before = await rolesOf(admin);
        const code = (name: string) => [...before].find(([, role]) => role.name === name)![0];
        const [titles, reviewers] = [code('Titles'), code('Reviewers')];
        const file = join(work, 'swapped.tar.gz');
        await repack(archive, file, (lines) => {
          for (const entity of lines.entities)
            if (entity.type === 'admin::role' && ['Titles', 'Reviewers'].includes(entity.data.name))
              entity.data.name = entity.data.name === 'Titles' ? 'Reviewers' : 'Titles';
        });
        const run = await vellum('import', '--file', file);
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /administrator roles: 0 created, 2 updated, 3 unchanged/);
        const after = await rolesOf(admin);
        assert.deepEqual(
          [after.get(titles)!.name, after.get(reviewers)!.name, after.get(titles)!.permissions],
          ['Reviewers', 'Titles', before.get(titles)!.permissions],
        );
      });
    });
  });
}
