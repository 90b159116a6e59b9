import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../core/errors.js';
import { DEFAULT_ADVANCED, DEFAULT_EMAIL_TEMPLATES, mergeAdvanced, mergeTemplates } from './advanced.js';

const roles = async (type: string) => ['public', 'authenticated', 'editor'].includes(type);

describe('advanced settings', () => {
  it("Strapi's defaults", () => {
    assert.deepEqual(DEFAULT_ADVANCED, {
      unique_email: true,
      allow_register: true,
      email_confirmation: false,
      email_reset_password: null,
      email_confirmation_redirection: null,
      default_role: 'authenticated',
    });
  });

  it('merge validated changes; empty URLs clear', async () => {
    const next = await mergeAdvanced(
      DEFAULT_ADVANCED,
      {
        email_confirmation: true,
        default_role: 'editor',
        email_reset_password: 'https://app.test/reset',
        email_confirmation_redirection: '',
      },
      roles,
    );
    assert.deepEqual(next, {
      ...DEFAULT_ADVANCED,
      email_confirmation: true,
      default_role: 'editor',
      email_reset_password: 'https://app.test/reset',
    });
    assert.equal(DEFAULT_ADVANCED.default_role, 'authenticated', 'the current value is not changed in place');
  });

  it('refuse wrong types, unknown keys, missing roles and non-http URLs, naming the key', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ allow_register: 'yes' }, /allow_register must be a boolean/],
      [{ default_role: 'ghost' }, /default_role/],
      [{ default_role: 3 }, /default_role/],
      [{ email_reset_password: 'ftp://x.test' }, /email_reset_password must be an absolute http\(s\) URL/],
      [{ email_confirmation_redirection: '/relative' }, /email_confirmation_redirection/],
      [{ grant: {} }, /Unknown advanced setting "grant"/],
    ];
    for (const [changes, message] of cases) {
      await assert.rejects(
        mergeAdvanced(DEFAULT_ADVANCED, changes, roles),
        (error: unknown) => error instanceof ValidationError && message.test(error.message),
      );
    }
  });
});

describe('email templates settings', () => {
  it("merge options into Strapi's templates", () => {
    const next = mergeTemplates(DEFAULT_EMAIL_TEMPLATES, {
      reset_password: { options: { object: 'Reset <%= USER.username %>', from: { email: 'me@x.test' } } },
    });
    assert.equal(next.reset_password.options.object, 'Reset <%= USER.username %>');
    assert.deepEqual(next.reset_password.options.from, { name: 'Administration Panel', email: 'me@x.test' });
    assert.equal(next.reset_password.options.message, DEFAULT_EMAIL_TEMPLATES.reset_password.options.message);
    assert.equal(
      DEFAULT_EMAIL_TEMPLATES.reset_password.options.object,
      'Reset password',
      'the defaults are not changed in place',
    );
  });

  it('refuse templates that evaluate or name other variables, and unknown names', () => {
    assert.throws(
      () => mergeTemplates(DEFAULT_EMAIL_TEMPLATES, { reset_password: { options: { message: '<% x %>' } } }),
      /Invalid template/,
    );
    assert.throws(
      () =>
        mergeTemplates(DEFAULT_EMAIL_TEMPLATES, { reset_password: { options: { object: '<%= USER.password %>' } } }),
      /Invalid template/,
    );
    assert.throws(
      () => mergeTemplates(DEFAULT_EMAIL_TEMPLATES, { welcome: { options: {} } }),
      /Unknown email template "welcome"/,
    );
    assert.throws(
      () => mergeTemplates(DEFAULT_EMAIL_TEMPLATES, { reset_password: { options: { colour: 'red' } } }),
      /Unknown template option/,
    );
    assert.throws(
      () => mergeTemplates(DEFAULT_EMAIL_TEMPLATES, { reset_password: 'text' }),
      /options must be an object/,
    );
  });
});
