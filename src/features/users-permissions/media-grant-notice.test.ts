/** The start-up warning for roles that read types with media but may not list files. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { unitSchema } from '../../../test/helpers/unit-schema.js';
import { hiddenMediaTypes, mediaGrantWarning } from './media-grant-notice.js';

const schema = unitSchema();

describe('media grant notice', () => {
  it('names the readable types holding media, directly or in a component', () => {
    const actions = new Set([
      'api::article.article.find',
      'api::author.author.findOne',
      'api::tag.tag.find',
      'api::global.global.find',
    ]);
    assert.deepEqual(hiddenMediaTypes(schema, actions).sort(), [
      'api::article.article',
      'api::author.author',
      'api::global.global',
    ]);
  });

  it('says nothing when the role may list files, or reads no type with media', () => {
    assert.deepEqual(
      hiddenMediaTypes(schema, new Set(['api::article.article.find', 'plugin::upload.content-api.find'])),
      [],
    );
    assert.equal(
      mediaGrantWarning(schema, { name: 'Public', type: 'public' }, new Set(['api::tag.tag.find'])),
      undefined,
    );
  });

  it('the warning names the role, the types and the command that shows the media', () => {
    const warning = mediaGrantWarning(schema, { name: 'Public', type: 'public' }, new Set(['api::author.author.find']));
    assert.match(warning!, /^role "Public" may read api::author\.author but not plugin::upload\.content-api\.find/);
    assert.match(warning!, /vellum permissions grant public plugin::upload\.content-api\.find/);
  });
});
