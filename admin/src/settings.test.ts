// The settings screens' logic (run by the unit tier: npm run test:unit -- admin/src).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  settingOf,
  duration,
  EVENT_GROUPS,
  fieldMessages,
  headerRows,
  headersOf,
  LOCALE_CODE,
  localeName,
  localeOptions,
} from './settings.ts';

describe('admin panel: settings screens', () => {
  it('names locale codes and offers those not added yet', () => {
    assert.equal(localeName('de'), 'German');
    assert.equal(localeName('not a code'), 'not a code');
    const options = localeOptions(['en', 'FR']);
    assert.ok(options.some((option) => option.value === 'de' && option.label === 'German (de)'));
    assert.ok(!options.some((option) => option.value === 'en' || option.value === 'fr'));
    assert.ok(
      options.every((option) => LOCALE_CODE.test(option.value)),
      'every offered code is one the API accepts',
    );
  });

  it('edits headers as rows and sends back those with a name', () => {
    assert.deepEqual(headerRows({}), [{ key: '', value: '' }]);
    assert.deepEqual(headerRows({ 'X-Token': 'a' }), [{ key: 'X-Token', value: 'a' }]);
    assert.deepEqual(
      headersOf([
        { key: ' X-Token ', value: 'a' },
        { key: '', value: 'ignored' },
      ]),
      { 'X-Token': 'a' },
    );
  });

  it('groups the events the API accepts', () => {
    const events = EVENT_GROUPS.flatMap((group) => group.events.map((event) => event.value));
    for (const event of [
      'entry.create',
      'entry.update',
      'entry.delete',
      'entry.publish',
      'entry.unpublish',
      'media.create',
      'media.update',
      'media.delete',
    ])
      assert.ok(events.includes(event), event);
    assert.equal(new Set(events).size, events.length);
  });

  it('puts field errors beside their field, the others apart', () => {
    assert.deepEqual(
      fieldMessages({
        message: '2 errors occurred',
        errors: [
          { path: ['url'], message: 'url must be a valid URL' },
          { path: ['headers', 'X'], message: 'headers.X must be a non-empty text' },
        ],
      }),
      {
        fields: { url: 'url must be a valid URL', headers: 'headers.X must be a non-empty text' },
      },
    );
    assert.deepEqual(fieldMessages({ message: 'Forbidden', errors: [] }), { fields: {}, general: 'Forbidden' });
    assert.equal(duration(85), '85 ms');
    assert.equal(duration(1234), '1.2 s');
    assert.equal(duration(null), '—');
  });

  it('finds the setting an API message names', () => {
    assert.equal(settingOf('allow_register must be a boolean', ['allow_register', 'unique_email']), 'allow_register');
    assert.equal(settingOf('github.key must be a string', ['key', 'secret']), 'key');
    assert.equal(settingOf('reset_password.options.from.name: name and email are strings', ['from', 'object']), 'from');
    assert.equal(settingOf('Invalid template', ['object', 'message']), undefined);
  });
});
