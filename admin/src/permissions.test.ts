// The permissions matrix's model (run by the unit tier: npm run test:unit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { actionsOf, enabledOf, matrixOf, treeOf, type PermissionTree } from './permissions.ts';

const off = { enabled: false, policy: '' };
const tree: PermissionTree = {
  'api::article': {
    controllers: {
      article: { create: off, delete: off, find: { enabled: true, policy: '' }, findOne: off, update: off },
    },
  },
  'api::homepage': { controllers: { homepage: { delete: off, find: off, update: off } } },
  'plugin::upload': { controllers: { 'content-api': { destroy: off, find: off, upload: off } } },
  'plugin::users-permissions': { controllers: { user: { find: off, me: off }, role: { createRole: off, find: off } } },
};
const names: Record<string, string> = { 'api::article.article': 'Article', 'api::homepage.homepage': 'Homepage' };

describe('admin panel: the permissions matrix', () => {
  it('groups content-types first, then each plugin, with the CRUD columns in their usual order', () => {
    const groups = matrixOf(tree, (uid) => names[uid]);
    assert.deepEqual(
      groups.map((g) => g.label),
      ['Content-types', 'Plugin: upload', 'Plugin: users-permissions'],
    );
    assert.deepEqual(groups[0]!.columns, ['find', 'findOne', 'create', 'update', 'delete']);
    assert.deepEqual(
      groups[0]!.rows.map((r) => r.label),
      ['Article', 'Homepage'],
    );
    assert.equal(groups[0]!.rows[1]!.actions.findOne, undefined, 'a single type has no findOne');
    assert.equal(groups[0]!.rows[0]!.actions.find, 'api::article.article.find');
    assert.deepEqual(groups[2]!.columns, ['find', 'createRole', 'me']);
    assert.deepEqual(
      groups[2]!.rows.map((r) => r.label),
      ['users-permissions role', 'users-permissions user'],
    );
  });

  it('reads the enabled actions and writes them back as the tree a role saves', () => {
    assert.deepEqual([...enabledOf(tree)], ['api::article.article.find']);
    assert.equal(actionsOf(tree).length, 15);
    const saved = treeOf(tree, new Set(['api::article.article.create', 'plugin::upload.content-api.find']));
    assert.deepEqual(saved['api::article']!.controllers.article!.create, { enabled: true });
    assert.deepEqual(saved['api::article']!.controllers.article!.find, { enabled: false });
    assert.deepEqual([...enabledOf(saved)].sort(), ['api::article.article.create', 'plugin::upload.content-api.find']);
  });
});
