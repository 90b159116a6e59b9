import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ValidationError } from '../../core/errors.js';
import { defaultProviders, mergeProviders, subdomainBase } from './providers.js';

describe('login provider settings', () => {
  it("Strapi's providers and defaults, then oidc", () => {
    const providers = defaultProviders();
    assert.deepEqual(Object.keys(providers).slice(0, 3), ['email', 'discord', 'facebook']);
    assert.equal(Object.keys(providers).at(-1), 'oidc');
    assert.deepEqual(providers.keycloak!.scope, ['openid', 'email', 'profile']);
    assert.deepEqual(providers.oidc!.scope, ['openid', 'email', 'profile']);
  });

  it('merges the keys it names, validated; a scope may be one space-separated string', () => {
    const next = mergeProviders(defaultProviders(), {
      github: { enabled: true, key: 'id', scope: 'read:user user:email', callback: 'https://app.example.com/cb' },
    });
    assert.deepEqual(next.github, {
      enabled: true,
      icon: 'github',
      key: 'id',
      secret: '',
      callback: 'https://app.example.com/cb',
      scope: ['read:user', 'user:email'],
    });
    for (const changes of [
      { github: { enabled: 'yes' } },
      { github: { callback: 'javascript:alert(1)' } },
      { github: { issuer: 'https://x' } },
      { nope: {} },
      { github: 'on' },
      { twitter: { enabled: true } },
    ]) {
      assert.throws(() => mergeProviders(defaultProviders(), changes), ValidationError, JSON.stringify(changes));
    }
  });

  it('a subdomain is https://<subdomain>, or a URL as given', () => {
    assert.equal(subdomainBase('kc.example.com/realms/a/'), 'https://kc.example.com/realms/a');
    assert.equal(subdomainBase('http://localhost:8080/realms/dev'), 'http://localhost:8080/realms/dev');
  });
});
