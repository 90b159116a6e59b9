import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueryValidationError } from '../../errors.js';
import type { ContentType, Model } from '../../schema/model.js';
import type { SortItem } from '../types.js';
import { parseSort } from './sort.js';
import { throwsVellum } from '../../../../test/helpers/unit-errors.js';
import { typeOf, unitSchema } from '../../../../test/helpers/unit-schema.js';

const schema = unitSchema();
const article = typeOf(schema, 'api::article.article');
const item = typeOf(schema, 'api::item.item');

/** `author.name:desc` per item, with the column the last step reads. */
const show = (items: SortItem[]) =>
  items.map(
    (entry) =>
      `${[...entry.through.map((step) => step.name), entry.field.name].join('.')}(${entry.field.column}):${entry.direction}`,
  );
const sort = (value: unknown, model: Model = article, canRead?: (type: ContentType) => boolean) =>
  show(parseSort(schema, model, value, { canRead }, ['sort']));
const refused = (
  value: unknown,
  message: RegExp | string,
  where: { key: string; path: string | null },
  model: Model = article,
) =>
  throwsVellum(() => parseSort(schema, model, value, {}, ['sort']), QueryValidationError, message, {
    source: 'query',
    param: 'sort',
    ...where,
  });

describe('sort (docs/rest.md "Sort")', () => {
  it('reads nothing from an absent or empty sort', () => {
    assert.deepEqual(sort(undefined), []);
    assert.deepEqual(sort(''), []);
    assert.deepEqual(sort(' , '), []);
  });

  it('reads a field, a direction, and comma lists', () => {
    assert.deepEqual(sort('title'), ['title(title):asc']);
    assert.deepEqual(sort('views:desc'), ['views(views):desc']);
    assert.deepEqual(sort('title:ASC, publishDate:Desc'), ['title(title):asc', 'publishDate(publish_date):desc']);
  });

  it('reads lists, objects and objects in lists', () => {
    assert.deepEqual(sort(['title:desc', 'views']), ['title(title):desc', 'views(views):asc']);
    assert.deepEqual(sort({ 0: 'views:desc', 1: 'title' }), ['views(views):desc', 'title(title):asc']);
    assert.deepEqual(sort({ title: 'desc' }), ['title(title):desc']);
    assert.deepEqual(sort([{ views: 'asc' }, { title: 'desc' }]), ['views(views):asc', 'title(title):desc']);
  });

  it('sorts on document columns', () => {
    assert.deepEqual(sort('createdAt:desc,id,documentId,updatedAt,publishedAt,locale'), [
      'createdAt(created_at):desc',
      'id(id):asc',
      'documentId(document_id):asc',
      'updatedAt(updated_at):asc',
      'publishedAt(published_at):asc',
      'locale(locale):asc',
    ]);
  });

  it('sorts through relations and components, by dots or nested objects', () => {
    assert.deepEqual(sort('author.name:desc'), ['author.name(name):desc']);
    assert.deepEqual(sort({ author: { name: 'desc' } }), ['author.name(name):desc']);
    assert.deepEqual(sort([{ category: { name: 'asc' } }, 'seo.metaTitle']), [
      'category.name(name):asc',
      'seo.metaTitle(meta_title):asc',
    ]);
    assert.deepEqual(sort('tags.articles.publishDate:desc'), ['tags.articles.publishDate(publish_date):desc']);
    assert.deepEqual(sort('author.id'), ['author.id(id):asc']);
  });

  it('refuses what it cannot sort on, naming the field', () => {
    refused('nope', 'Invalid sort field nope', { key: 'nope', path: null });
    refused('author.nope:desc', 'Invalid sort field author.nope', { key: 'nope', path: 'author' });
    refused('metadata', 'Cannot sort on metadata', { key: 'metadata', path: null });
    refused('content', 'Cannot sort on content', { key: 'content', path: null });
    refused('author', 'Cannot sort on author', { key: 'author', path: null });
    refused('cover.name', 'Cannot sort through cover', { key: 'cover', path: null });
    refused('blocks.title', 'Cannot sort through blocks', { key: 'blocks', path: null });
    refused('hiddenNote', 'Invalid sort field hiddenNote', { key: 'hiddenNote', path: null }, item);
    refused('password', 'Invalid sort field password', { key: 'password', path: null }, item);
  });

  it('refuses bad directions and shapes', () => {
    refused('title:up', 'Invalid sort direction up for title: use asc or desc', { key: 'sort', path: null });
    refused('title:asc:desc', 'Invalid sort title:asc:desc', { key: 'sort', path: null });
    refused({ title: 1 }, 'sort direction must be asc or desc', { key: 'title', path: null });
    refused([1], 'sort items must be strings or objects', { key: '0', path: null });
    refused(true, 'sort must be a field name, a list or an object', { key: 'sort', path: null });
  });

  it('refuses more than 20 fields', () => {
    const fields = Array.from({ length: 21 }, () => 'title');
    assert.equal(sort(fields.slice(0, 20).join(',')).length, 20);
    refused(fields.join(','), 'Too many sort fields (more than 20)', { key: 'sort', path: null });
  });

  it('does not sort through a relation the caller may not read', () => {
    const noAuthors = (type: ContentType) => type.uid !== 'api::author.author';
    assert.deepEqual(sort('category.name', article, noAuthors), ['category.name(name):asc']);
    throwsVellum(
      () => parseSort(schema, article, 'author.name', { canRead: noAuthors }, ['sort']),
      QueryValidationError,
      'Invalid sort field author.name',
      {
        source: 'query',
        param: 'sort',
        key: 'author',
        path: null,
      },
    );
  });
});
