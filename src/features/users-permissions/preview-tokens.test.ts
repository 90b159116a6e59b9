import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UnauthorizedError } from '../../core/errors.js';
import { PREVIEW_TTL_SECONDS, PreviewTokens } from './preview-tokens.js';

describe('preview tokens', () => {
  const tokens = new PreviewTokens('a stored secret');
  const now = Date.UTC(2026, 10, 29, 10, 0, 0);

  it('name the type they read while they last', () => {
    const token = tokens.issue('api::article.article', now);
    assert.ok(PreviewTokens.looksLike(token));
    assert.equal(tokens.verify(token, now + (PREVIEW_TTL_SECONDS - 1) * 1000), 'api::article.article');
  });

  it('are refused once expired, altered, or made with another secret', () => {
    const token = tokens.issue('api::article.article', now);
    assert.throws(() => tokens.verify(token, now + PREVIEW_TTL_SECONDS * 1000), UnauthorizedError);
    const [prefix, payload, signature] = token.split('.');
    const other = Buffer.from(JSON.stringify({ uid: 'api::tag.tag', exp: 9e9 })).toString('base64url');
    assert.throws(() => tokens.verify(`${prefix}.${other}.${signature}`, now), UnauthorizedError);
    assert.throws(() => tokens.verify(`${prefix}.${payload}.x`, now), UnauthorizedError);
    assert.throws(() => new PreviewTokens('another secret').verify(token, now), UnauthorizedError);
  });
});
