import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { costOf, createPasswords } from './passwords.js';

/** Made by Strapi 5.54's bcryptjs (2.4.3) at Strapi's cost, for the password `Strapi-made-1`. */
const STRAPI_HASH = '$2a$10$RvUDD7/C5SoHmwiHkuvhDuu4/iihav/5JdSiI8pSrn.KQeolwJPs.';

describe('password hashing', () => {
  const passwords = createPasswords({ rounds: 4 });
  after(() => passwords.close());

  it('hashes at the configured cost, and checks a hash at its own cost', async () => {
    const hash = await passwords.hash('a-password-1');
    assert.match(hash, /^\$2[ab]\$04\$[./A-Za-z0-9]{53}$/);
    assert.equal(await passwords.verify('a-password-1', hash), true);
    assert.equal(await passwords.verify('a-password-2', hash), false);
    assert.equal(await passwords.verify('Strapi-made-1', STRAPI_HASH), true);
    assert.equal(await passwords.verify('strapi-made-1', STRAPI_HASH), false);
  });

  it('answers false without a hash (an unknown account), after the same work', async () => {
    assert.equal(await passwords.verify('a-password-1', undefined), false);
    assert.equal(await passwords.verify('a-password-1', null), false);
    assert.equal(await passwords.verify('a-password-1', ''), false);
  });

  it('runs hashes at once, each answered with its own', async () => {
    const plain = Array.from({ length: 8 }, (_, n) => `password-${n}`);
    const hashes = await Promise.all(plain.map((password) => passwords.hash(password)));
    const checks = await Promise.all(plain.map((password, n) => passwords.verify(password, hashes[n])));
    assert.deepEqual(
      checks,
      plain.map(() => true),
    );
    assert.equal(new Set(hashes).size, plain.length, 'each its own salt');
  });

  it('refuses work once closed, after finishing what was under way', async () => {
    const own = createPasswords({ rounds: 4 });
    const pending = own.hash('under-way-1');
    await own.close();
    assert.match(await pending, /^\$2[ab]\$04\$/);
    await assert.rejects(own.hash('too-late-1'), /closed/);
  });

  it('rehashes a hash of another cost in the background, which close waits for; a failure is logged without the password', async () => {
    const logged: string[] = [];
    const own = createPasswords({ rounds: 5 }, (message) => logged.push(message));
    const saved: string[] = [];
    const save = async (hash: string) => void saved.push(hash);
    own.rehashLater('same-cost-1', await own.hash('same-cost-1'), save);
    own.rehashLater('Strapi-made-1', STRAPI_HASH, save);
    own.rehashLater('secret-words-1', STRAPI_HASH, async () => {
      throw new Error('the database is gone');
    });
    await own.close();
    assert.equal(saved.length, 1, 'only the hash of another cost');
    assert.equal(costOf(saved[0]!), 5);
    assert.equal(await passwords.verify('Strapi-made-1', saved[0]), true);
    assert.deepEqual(logged, ['A password hashed at cost 10 was not hashed again at 5: the database is gone']);
  });
});
