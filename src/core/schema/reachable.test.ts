import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema, type RawSchemaFile } from './build.js';
import type { Model } from './model.js';
import { componentUids, reachableComponents } from './reachable.js';

const component = (uid: string, attributes: Record<string, unknown>): RawSchemaFile => ({
  file: `src/components/${uid.replace('.', '/')}.json`,
  uid,
  json: { info: { displayName: uid }, attributes },
});

const page: RawSchemaFile = {
  file: 'src/api/page/content-types/page/schema.json',
  uid: 'api::page.page',
  json: {
    info: { singularName: 'page', pluralName: 'pages' },
    attributes: {
      title: { type: 'string' },
      seo: { type: 'component', component: 'shared.seo' },
      blocks: { type: 'dynamiczone', components: ['blocks.hero', 'blocks.quote', 'shared.seo'] },
      footer: { type: 'component', component: 'blocks.quote', repeatable: true },
    },
  },
};

const schema = buildSchema(
  [page],
  [
    component('shared.seo', { metaTitle: { type: 'string' }, image: { type: 'component', component: 'shared.image' } }),
    component('shared.image', { alt: { type: 'string' } }),
    component('blocks.hero', {
      heading: { type: 'string' },
      links: { type: 'component', component: 'blocks.link', repeatable: true },
    }),
    // A link holds a menu, which holds links again.
    component('blocks.link', { url: { type: 'string' }, menu: { type: 'component', component: 'blocks.menu' } }),
    component('blocks.menu', { items: { type: 'component', component: 'blocks.link', repeatable: true } }),
    component('blocks.quote', { text: { type: 'text' } }),
    component('blocks.unused', { text: { type: 'text' } }),
  ],
);
const uids = (models: Model[]) => models.map((model) => model.uid);
const model = (uid: string): Model => schema.contentTypes.get(uid) ?? schema.components.get(uid)!;

describe('the components a model reaches', () => {
  it("names an attribute's components: a component's one, a dynamic zone's list, none for the rest", () => {
    const { attributes } = model('api::page.page');
    assert.deepEqual(componentUids(attributes.seo!), ['shared.seo']);
    assert.deepEqual(componentUids(attributes.blocks!), ['blocks.hero', 'blocks.quote', 'shared.seo']);
    assert.deepEqual(componentUids(attributes.footer!), ['blocks.quote']);
    assert.deepEqual(componentUids(attributes.title!), []);
  });

  it('walks nested components depth first, each once though named again', () => {
    assert.deepEqual(uids(reachableComponents(schema, model('api::page.page'))), [
      'shared.seo',
      'shared.image',
      'blocks.hero',
      'blocks.link',
      'blocks.menu',
      'blocks.quote',
    ]);
  });

  it('ends on components that hold each other', () => {
    assert.deepEqual(uids(reachableComponents(schema, model('blocks.link'))), ['blocks.menu', 'blocks.link']);
    assert.deepEqual(uids(reachableComponents(schema, model('blocks.quote'))), []);
  });

  it('passes over a component the schema does not have', () => {
    const partial = { ...schema, components: new Map(schema.components) };
    partial.components.delete('blocks.link');
    assert.deepEqual(uids(reachableComponents(partial, model('blocks.hero'))), []);
  });
});
