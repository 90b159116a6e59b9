/**
 * The lifecycles registry and the Document Service middleware chain, without a database: which
 * subscribers run for an event, in what order, what they share, and what a middleware may change.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildSchema } from '../core/schema/build.js';
import { paramsAfter, readEvent } from '../core/documents/read-events.js';
import { Lifecycles, type LifecycleEvent } from './lifecycles.js';
import { DocumentMiddlewares } from './document-middlewares.js';

const type = (uid: string, extra: Record<string, unknown> = {}) => ({
  file: `${uid}.json`,
  uid,
  json: {
    kind: 'collectionType',
    collectionName: uid.split('.')[1],
    info: { singularName: uid.split('.')[1], pluralName: `${uid.split('.')[1]}s`, displayName: uid },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' } },
    ...extra,
  },
});
const schema = buildSchema(
  [type('api::article.article'), type('api::tag.tag', { pluginOptions: { i18n: { localized: true } } })],
  [],
);
const article = schema.contentTypes.get('api::article.article')!;
const tag = schema.contentTypes.get('api::tag.tag')!;

describe('lifecycles', () => {
  it('an empty registry covers nothing; objects cover their models, functions every model', () => {
    const lifecycles = new Lifecycles();
    assert.equal(lifecycles.covers(article.uid), false);
    const off = lifecycles.subscribe({ models: [tag.uid], beforeCreate() {} });
    assert.equal(lifecycles.covers(article.uid), false);
    assert.equal(lifecycles.wants(tag.uid, 'beforeCreate'), true);
    assert.equal(lifecycles.wants(tag.uid, 'afterCreate'), false);
    off();
    assert.equal(lifecycles.covers(tag.uid), false);
    lifecycles.subscribe(() => undefined);
    assert.equal(lifecycles.wants(article.uid, 'afterCount'), true);
    lifecycles.disable();
    assert.equal(lifecycles.covers(article.uid), false);
  });

  it('subscribers run in order; each keeps its own state from before to after; params and result are shared in place', async () => {
    const lifecycles = new Lifecycles();
    const seen: string[] = [];
    lifecycles.subscribe({
      models: [article.uid],
      beforeCreate(event: LifecycleEvent) {
        seen.push(`object before ${event.model.uid}`);
        event.state.mark = 'object';
        (event.params.data as Record<string, unknown>).slug = 'made';
      },
      afterCreate(event: LifecycleEvent) {
        seen.push(`object after ${String(event.state.mark)}`);
        (event.result as Record<string, unknown>).extra = 1;
        event.result = { replaced: true };
      },
    });
    lifecycles.subscribe((event) => {
      seen.push(`function ${event.action} ${String(event.state.mark)}`);
      event.state.mark = 'function';
    });
    lifecycles.subscribe({ models: [tag.uid], beforeCreate: () => void seen.push('never') });
    const params = { data: { title: 'x' } as Record<string, unknown> };
    const states = await lifecycles.run('beforeCreate', article, { params });
    assert.equal(params.data.slug, 'made');
    const result: Record<string, unknown> = { id: 1 };
    await lifecycles.run('afterCreate', article, { params, result }, states);
    // As Strapi: assigning event.result changes nothing; changing it in place does.
    assert.deepEqual(result, { id: 1, extra: 1 });
    assert.deepEqual(seen, [
      'object before api::article.article',
      'function beforeCreate undefined',
      'object after object',
      'function afterCreate function',
    ]);
  });

  it('event.model is the type in Strapi’s metadata shape', async () => {
    const lifecycles = new Lifecycles();
    let model: LifecycleEvent['model'] | undefined;
    lifecycles.subscribe({ beforeFindMany: (event: LifecycleEvent) => void (model = event.model) });
    await lifecycles.run('beforeFindMany', article, { params: {} });
    assert.equal(model?.uid, 'api::article.article');
    assert.equal(model?.singularName, 'article');
    assert.equal(model?.tableName, article.table);
    assert.deepEqual(model?.attributes.title, { type: 'string' });
  });

  it('a handler that throws rejects the run', async () => {
    const lifecycles = new Lifecycles();
    lifecycles.subscribe({ beforeDelete: () => Promise.reject(new Error('no')) });
    await assert.rejects(lifecycles.run('beforeDelete', article, { params: {} }), /no/);
  });
});

describe('document middlewares', () => {
  it('run in order around the call, which gets context.params as they left it, and answer what the first answers', async () => {
    const middlewares = new DocumentMiddlewares();
    assert.equal(middlewares.active, false);
    const order: string[] = [];
    middlewares.use(async (context, next) => {
      order.push(`first ${context.action} ${context.uid} ${context.contentType.uid}`);
      context.params.populate = { seo: true };
      const result = (await next()) as unknown[];
      return [...result, 'added'];
    });
    const off = middlewares.use(async (context, next) => {
      order.push(`second ${JSON.stringify(context.params.populate)}`);
      context.params = { ...context.params, filters: { title: 'x' } };
      return next();
    });
    const answer = await middlewares.run(article, 'findMany', { status: 'published' }, async (params) => {
      order.push(`call ${JSON.stringify(params)}`);
      return ['doc'];
    });
    assert.deepEqual(answer, ['doc', 'added']);
    assert.deepEqual(order, [
      'first findMany api::article.article api::article.article',
      'second {"seo":true}',
      'call {"status":"published","populate":{"seo":true},"filters":{"title":"x"}}',
    ]);
    off();
    assert.equal(middlewares.active, true);
  });
});

describe('read events', () => {
  it('params in the query engine shape: the version, the locale, the filters, the selection and the page', () => {
    const event = readEvent(
      tag,
      { filters: { title: { $eq: 'x' } }, fields: ['title'], populate: 'x', sort: 'title:asc', status: 'draft' },
      'en',
      { offset: 0, limit: 25 },
    );
    assert.deepEqual(event.params, {
      where: { publishedAt: { $null: true }, locale: 'en', title: { $eq: 'x' } },
      select: ['id', 'documentId', 'title'],
      populate: 'x',
      orderBy: 'title:asc',
      offset: 0,
      limit: 25,
    });
  });

  it('what before handlers change is read back into the document parameters; unchanged params are the same object', () => {
    const params = { filters: { title: 'x' } };
    const untouched = readEvent(article, params, 'en');
    assert.equal(paramsAfter(untouched, params), params);
    const event = readEvent(article, params, 'en', { offset: 0, limit: 10 });
    (event.params.where as Record<string, unknown>).views = { $gt: 1 };
    event.params.populate = { category: { select: ['name'] } };
    event.params.limit = 5;
    const changed = paramsAfter(event, params);
    assert.deepEqual(changed.filters, { title: 'x', views: { $gt: 1 } });
    assert.deepEqual(changed.populate, { category: { fields: ['name'] } });
    assert.deepEqual(changed.pagination, { start: 0, limit: 5 });
  });
});
