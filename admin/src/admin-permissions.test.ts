// The panel's reading of an administrator's permissions (run by the unit tier: npm run test:unit).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AdminAccess,
  EXPLORER,
  fieldInTree,
  fieldTree,
  IS_CREATOR,
  mayOpen,
  rightsOn,
  SCREEN_ACTIONS,
  SCREEN_CHANGES,
  type AdminPermission,
} from './admin-permissions.ts';

const ARTICLE = 'api::article.article';
const permission = (
  action: string,
  subject: string | null,
  properties: AdminPermission['properties'] = {},
  conditions: string[] = [],
): AdminPermission => ({ action, subject, properties, conditions, actionParameters: {} });

// Strapi's Author on articles (no publish, "is creator"), with a role limited to some fields beside it.
const author = AdminAccess.of(
  [{ code: 'strapi-author' }],
  [
    permission(EXPLORER.create, ARTICLE, { fields: ['title', 'slug', 'seo.metaTitle'], locales: ['en', 'fr'] }, [
      IS_CREATOR,
    ]),
    permission(
      EXPLORER.read,
      ARTICLE,
      { fields: ['title', 'slug', 'seo.metaTitle', 'seo.metaDescription'], locales: ['en', 'fr'] },
      [IS_CREATOR],
    ),
    permission(EXPLORER.update, ARTICLE, { fields: ['title', 'seo.metaTitle'], locales: ['fr'] }, [IS_CREATOR]),
    permission(EXPLORER.delete, ARTICLE, { locales: ['en'] }, [IS_CREATOR]),
    permission('plugin::upload.read', null, {}, [IS_CREATOR]),
  ],
);

describe('admin panel: what the administrator may do', () => {
  it('nests field paths and finds form paths in them (list indexes skipped, a component by any of its fields)', () => {
    const tree = fieldTree(['title', 'seo.metaTitle', 'links.url', 'blocks']);
    assert.deepEqual(tree, { title: true, seo: { metaTitle: true }, links: { url: true }, blocks: true });
    assert.equal(fieldInTree(tree, 'title'), true);
    assert.equal(fieldInTree(tree, 'body'), false);
    assert.equal(fieldInTree(tree, 'seo'), true);
    assert.equal(fieldInTree(tree, 'seo.metaTitle'), true);
    assert.equal(fieldInTree(tree, 'seo.metaDescription'), false);
    assert.equal(fieldInTree(tree, 'links.0.url'), true);
    assert.equal(fieldInTree(tree, 'links.3.label'), false);
    assert.equal(fieldInTree(tree, 'blocks.1.body'), true, 'a dynamic zone is one field');
    assert.equal(fieldInTree(undefined, 'anything'), true, 'no list: every field');
    assert.equal(fieldInTree(fieldTree(['seo']), 'seo.metaTitle'), true, 'a whole component');
  });

  it('reads actions, scopes and locales as the server does', () => {
    assert.equal(author.can(EXPLORER.read, ARTICLE), true);
    assert.equal(author.can(EXPLORER.publish, ARTICLE), false);
    assert.equal(author.can('plugin::upload.read'), true);
    assert.equal(author.can('admin::users.read'), false);
    assert.equal(author.scope(EXPLORER.read, 'api::tag.tag'), undefined);
    assert.equal(author.canOn('update', ARTICLE, 'fr'), true);
    assert.equal(author.canOn('update', ARTICLE, 'en'), false);
    assert.equal(author.canOn('update', ARTICLE), true, 'in some locale');
    assert.deepEqual(author.locales(['read'], ARTICLE, ['en', 'fr', 'de']), ['en', 'fr']);
    assert.deepEqual(author.locales(['delete'], ARTICLE, ['en', 'fr', 'de']), ['en']);
  });

  it('hides fields it may not read, shows read-only those it may not update, and creates only its create fields', () => {
    assert.equal(author.fieldMode(ARTICLE, 'title', false), 'editable');
    assert.equal(author.fieldMode(ARTICLE, 'slug', false), 'readonly');
    assert.equal(author.fieldMode(ARTICLE, 'body', false), 'hidden');
    assert.equal(author.fieldMode(ARTICLE, 'seo', false), 'editable');
    assert.equal(author.fieldMode(ARTICLE, 'seo.metaDescription', false), 'readonly');
    assert.equal(author.fieldMode(ARTICLE, 'seo.shareImage', false), 'hidden');
    assert.equal(author.fieldMode(ARTICLE, 'slug', true), 'editable');
    assert.equal(author.fieldMode(ARTICLE, 'seo.metaDescription', true), 'hidden');
    assert.equal(author.fieldMode('api::tag.tag', 'name', false), 'hidden');
  });

  it('merges several permissions of one action: every field when one names none, every locale when one says null', () => {
    const access = AdminAccess.of(
      [],
      [
        permission(EXPLORER.read, ARTICLE, { fields: ['title'], locales: ['fr'] }, [IS_CREATOR]),
        permission(EXPLORER.read, ARTICLE, { fields: null, locales: ['en'] }),
      ],
    );
    const scope = access.scope(EXPLORER.read, ARTICLE)!;
    assert.equal(scope.fields, undefined);
    assert.deepEqual([...scope.locales!].sort(), ['en', 'fr']);
    // Strapi's i18n engine: `locales: null` is every locale, a missing `locales` none.
    assert.equal(
      AdminAccess.of([], [permission(EXPLORER.read, ARTICLE, { locales: null })]).scope(EXPLORER.read, ARTICLE)!
        .locales,
      undefined,
    );
    assert.deepEqual(
      [...AdminAccess.of([], [permission(EXPLORER.read, ARTICLE)]).scope(EXPLORER.read, ARTICLE)!.locales!],
      [],
    );
  });

  it('lets a Super Admin do everything, whatever the stored permissions', () => {
    const root = AdminAccess.of([{ code: 'strapi-super-admin' }], []);
    assert.equal(root.can('admin::roles.update'), true);
    assert.equal(root.fieldMode(ARTICLE, 'body', false), 'editable');
    assert.equal(root.canOn('publish', ARTICLE, 'de'), true);
    assert.equal(mayOpen(root, '/manage/admin-users'), true);
  });

  it('opens the settings screens the actions allow', () => {
    assert.equal(mayOpen(author, '/media'), true);
    assert.equal(mayOpen(author, '/manage/admin-users'), false);
    assert.equal(mayOpen(author, '/manage/admin-roles'), false);
    assert.equal(mayOpen(author, '/manage/users'), false, 'the content API users: the user type read');
    assert.equal(mayOpen(author, '/profile'), true, 'a screen without an entry');
    const reader = AdminAccess.of([], [permission(EXPLORER.read, 'plugin::users-permissions.user')]);
    assert.equal(mayOpen(reader, '/manage/users'), true);
  });

  it("shows a screen's changes only with their actions: read-only without any", () => {
    const NONE = {
      create: false,
      update: false,
      delete: false,
      regenerate: false,
      download: false,
      copyLink: false,
      readOnly: true,
    };
    const reader = AdminAccess.of(
      [{ code: 'readers' }],
      [
        permission('admin::webhooks.read', null),
        permission('admin::webhooks.update', null),
        permission('plugin::i18n.locale.read', null),
        permission('plugin::users-permissions.advanced-settings.read', null),
        permission('plugin::upload.read', null),
        permission('plugin::upload.assets.update', null),
        permission('plugin::upload.assets.copy-link', null),
        permission(EXPLORER.read, 'plugin::users-permissions.user'),
        // The content API's users: on their type, not another's.
        permission(EXPLORER.delete, ARTICLE),
      ],
    );
    assert.deepEqual(rightsOn(reader, '/manage/locales'), NONE);
    assert.deepEqual(rightsOn(reader, '/manage/users-permissions/advanced'), NONE);
    assert.deepEqual(rightsOn(reader, '/manage/users'), NONE);
    assert.deepEqual(rightsOn(reader, '/manage/webhooks'), { ...NONE, update: true, readOnly: false });
    // Strapi's assets.update: a file's details and its deletion.
    assert.deepEqual(rightsOn(reader, '/media'), {
      ...NONE,
      update: true,
      delete: true,
      copyLink: true,
      readOnly: false,
    });
    const writer = AdminAccess.of([], [permission(EXPLORER.create, 'plugin::users-permissions.user')]);
    assert.deepEqual(rightsOn(writer, '/manage/users'), { ...NONE, create: true, readOnly: false });
    // The Super Admin: every change the screen has (a screen without deletion still has none).
    const root = AdminAccess.of([{ code: 'strapi-super-admin' }], []);
    assert.deepEqual(rightsOn(root, '/manage/api-tokens'), {
      ...NONE,
      create: true,
      update: true,
      delete: true,
      regenerate: true,
      readOnly: false,
    });
    assert.deepEqual(rightsOn(root, '/manage/users-permissions/providers'), { ...NONE, update: true, readOnly: false });
  });

  it("names a screen's changes with actions of the screen's own family", () => {
    for (const [screen, changes] of Object.entries(SCREEN_CHANGES)) {
      const read = screen === '/manage/users' ? [EXPLORER.read] : SCREEN_ACTIONS[screen];
      assert.ok(read, `${screen} is a screen of SCREEN_ACTIONS`);
      const family = (action: string) => action.replace(/\.[^.]+$/, '').replace(/\.assets$/, '');
      for (const needed of Object.values(changes) as (string | { action: string })[]) {
        const action = typeof needed === 'string' ? needed : needed.action;
        assert.ok(
          read.some((readAction) => family(readAction) === family(action)),
          `${screen}: ${action} beside ${read.join(', ')}`,
        );
      }
    }
  });
});
