import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveEmailConfig } from './config.js';
import { isValidEmailTemplate, keysDeep, renderTemplate } from './template.js';

describe('email templates', () => {
  it("keysDeep lists the leaves of the data, as Strapi's", () => {
    assert.deepEqual(keysDeep({ URL: 'u', USER: { email: 'e', role: { name: 'r' } }, TOKEN: null, list: [1] }), [
      'URL',
      'USER.email',
      'USER.role.name',
      'TOKEN',
      'list.0',
    ]);
  });

  it('fills <%= path %> of a leaf, with any spacing; null and undefined render as nothing', () => {
    const data = { URL: 'https://x.test/reset', TOKEN: 'abc', USER: { username: 'ann', id: 3 }, EMPTY: null };
    assert.equal(
      renderTemplate('<%= URL %>?code=<%=TOKEN%> for <%=  USER.username  %> #<%= USER.id %>[<%= EMPTY %>]', data),
      'https://x.test/reset?code=abc for ann #3[]',
    );
  });

  it('evaluates nothing: unknown names, objects, code blocks and ${} stay as written', () => {
    const data = { USER: { username: 'ann' }, URL_X: 'long', URL: 'short' };
    const layout =
      '<%= USER %> <%= USER.password %> <% process.exit(1) %> <%- USER.username %> ${URL} <%= constructor %> <%= URL_X %>';
    assert.equal(
      renderTemplate(layout, data),
      '<%= USER %> <%= USER.password %> <% process.exit(1) %> <%- USER.username %> ${URL} <%= constructor %> long',
    );
    assert.equal(
      renderTemplate('<%= a.b %>', { 'a.b': 'dotted', a: { b: 'nested' } }),
      'nested',
      'a dotted name is a path, as lodash evaluates it',
    );
  });

  it('a regular expression character in a name matches itself only', () => {
    assert.equal(renderTemplate('<%= a.b %> <%= aXb %>', { a: { b: 'yes' } }), 'yes <%= aXb %>');
  });

  it("isValidEmailTemplate accepts Strapi's variables only, and no evaluation", () => {
    assert.equal(
      isValidEmailTemplate(
        '<p><%= URL %>?code=<%= TOKEN %> <%= USER.username %> <%= USER.email %> <%= CODE %> <%= SERVER_URL %> <%= ADMIN_URL %></p>',
      ),
      true,
    );
    for (const bad of ['<% x %>', '${x}', '<%= USER.password %>', '<%= process %>'])
      assert.equal(isValidEmailTemplate(bad), false, bad);
  });
});

describe('email configuration', () => {
  it("has Strapi's defaults: sendmail, from no-reply@strapi.io", () => {
    assert.deepEqual(resolveEmailConfig({}), {
      provider: 'sendmail',
      providerOptions: {},
      settings: { defaultFrom: 'Strapi <no-reply@strapi.io>' },
    });
  });

  it('reads config/plugins email.config, keeping the default from when settings omit it', () => {
    const config = resolveEmailConfig({
      email: {
        config: {
          provider: 'nodemailer',
          providerOptions: { host: 'smtp.test', port: 2525 },
          settings: { defaultReplyTo: 'r@x.test' },
        },
      },
    });
    assert.deepEqual(config, {
      provider: 'nodemailer',
      providerOptions: { host: 'smtp.test', port: 2525 },
      settings: { defaultFrom: 'Strapi <no-reply@strapi.io>', defaultReplyTo: 'r@x.test' },
    });
    assert.throws(() => resolveEmailConfig({ email: { config: { provider: 3 } } }), /email\.config\.provider/);
  });
});
