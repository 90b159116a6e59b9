/**
 * Accounts against abuse (issue 17, points 9-11): behind a proxy the client's address comes from
 * the forwarded header (`server.proxy`); failed logins are counted per account and client address,
 * email and username alike, atomically and across nodes; registrations are counted per client
 * address, GraphQL's aliases included; a username can never be an email address.
 *
 * Every test sends from its own client addresses (random, forwarded) and makes its own users, so
 * the counts it sees are its own. Windows are an hour long: nothing expires during a test.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { USER_UID } from '../../src/features/users-permissions/model.js';
import { ValidationError } from '../../src/core/errors.js';
import { graphql } from '../helpers/graphql.js';
import type { Response } from '../helpers/http.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { unique } from '../helpers/unique.js';

const LOGIN_MAX = 5;
const REGISTER_MAX = 3;
/** Vellum's stricter counting (`perAccount`, not the default): failed logins per account and address, sign-ups per address. */
const usersPermissions = {
  config: {
    ratelimit: { perAccount: true, max: LOGIN_MAX, interval: 3_600_000 },
    register: { ratelimit: { max: REGISTER_MAX, interval: 3_600_000 } },
  },
};
/** A trusted proxy in front, adding the client's address to X-Forwarded-For. */
const behindProxy = {
  server: { proxy: { koa: true, maxIpsCount: 1 } },
  plugins: { 'users-permissions': usersPermissions },
};

/** A client address no other test uses (TEST-NET and private ranges are all the same to Vellum). */
const address = () => `10.${[...randomBytes(3)].join('.')}`;
const statuses = (responses: Response[]) => responses.map((r) => r.status).sort();

for (const dialect of DIALECTS) {
  describe(`accounts against abuse [${dialect}]`, () => {
    let server: TestServer;
    /** Nodes on one database, behind the same proxy; SQLite serves one node. */
    let nodes: TestServer[];
    before(async () => {
      server = await startServer(dialect, { config: behindProxy });
      nodes =
        dialect === 'sqlite' ? [server] : [server, await startServer(dialect, { config: behindProxy, nodeOf: server })];
    });
    after(async () => {
      for (const node of nodes?.slice(1) ?? []) await node.close();
      await server?.close();
    });

    /** A user made as an administrator makes one (not counted as a registration). */
    async function user(prefix: string): Promise<{ username: string; email: string; password: string }> {
      const username = unique(prefix);
      const account = { username, email: `${username}@example.com`, password: 'right-password' };
      await server.vellum.auth.users.create(account);
      return account;
    }
    const login = (identifier: string, password: string, headers: Record<string, string>, node = server) =>
      node.publicApi.post('/api/auth/local', { identifier, password }, { headers });
    /** What the proxy sends: whatever the client claimed, then the address it saw. */
    const via = (client: string) => ({ 'x-forwarded-for': `${address()}, ${client}` });

    describe('login behind a proxy', () => {
      it("failures lock one account from one client address only; the account's email and username share the count", async () => {
        const ann = await user('ann');
        const bob = await user('bob');
        const attacker = address();
        for (const identifier of [ann.username, ann.email.toUpperCase(), ann.username, ann.email, ann.username]) {
          const res = await login(identifier, 'wrong-password', via(attacker));
          assert.equal(res.status, 400, identifier);
          assert.equal(res.body.error.message, 'Invalid identifier or password');
        }
        for (const identifier of [ann.username, ann.email]) {
          const limited = await login(identifier, ann.password, via(attacker));
          assert.equal(limited.status, 429, `${identifier}: even the right password, from that address`);
          assert.equal(limited.body.error.name, 'RateLimitError');
        }
        assert.equal(
          (await login(bob.username, bob.password, via(attacker))).status,
          200,
          'another account from the same address',
        );
        const fresh = await login(ann.email, ann.password, via(address()));
        assert.equal(fresh.status, 200, 'the right password from another address');
        assert.equal(fresh.body.user.username, ann.username);
      });

      it('an unknown identifier is counted as one, whatever its case', async () => {
        const client = address();
        const nobody = unique('nobody');
        for (let i = 0; i < LOGIN_MAX; i++)
          assert.equal((await login(i % 2 ? nobody : nobody.toUpperCase(), 'guess', via(client))).status, 400);
        assert.equal((await login(nobody, 'guess', via(client))).status, 429);
        assert.equal((await login(nobody, 'guess', via(address()))).status, 400);
      });

      it('a successful login resets the count of its own address only', async () => {
        const cat = await user('cat');
        const a = address();
        const b = address();
        for (let i = 0; i < LOGIN_MAX - 1; i++) assert.equal((await login(cat.username, 'wrong', via(a))).status, 400);
        // A success from another address leaves this one's count as it was.
        assert.equal((await login(cat.username, cat.password, via(b))).status, 200);
        assert.equal((await login(cat.username, 'wrong', via(a))).status, 400);
        assert.equal((await login(cat.username, 'wrong', via(a))).status, 429);
        // A success from the address itself resets its count.
        const dan = await user('dan');
        for (let i = 0; i < LOGIN_MAX - 1; i++) assert.equal((await login(dan.username, 'wrong', via(a))).status, 400);
        assert.equal((await login(dan.username, dan.password, via(a))).status, 200);
        for (let i = 0; i < LOGIN_MAX; i++)
          assert.equal((await login(dan.username, 'wrong', via(a))).status, 400, `after the reset, ${i}`);
        assert.equal((await login(dan.username, 'wrong', via(a))).status, 429);
      });

      it(`twelve simultaneous wrong passwords against a limit of ${LOGIN_MAX}: ${LOGIN_MAX} are checked, the others 429, on every node`, async () => {
        const eve = await user('eve');
        const client = address();
        const responses = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            login(i % 2 ? eve.username : eve.email, 'wrong-password', via(client), nodes[i % nodes.length]),
          ),
        );
        assert.deepEqual(statuses(responses), [...Array(LOGIN_MAX).fill(400), ...Array(12 - LOGIN_MAX).fill(429)]);
        for (const node of nodes)
          assert.equal(
            (await login(eve.username, eve.password, via(client), node)).status,
            429,
            'every node shares the count',
          );
        assert.equal((await login(eve.username, eve.password, via(address()), nodes.at(-1))).status, 200);
      });
    });

    describe('where the client address comes from', () => {
      it('without server.proxy the forwarded header is not believed: every request is the socket peer', async () => {
        const direct = await startServer(dialect, {
          nodeOf: server,
          config: { plugins: { 'users-permissions': usersPermissions } },
        });
        try {
          const fay = await user('fay');
          for (let i = 0; i < LOGIN_MAX; i++)
            assert.equal((await login(fay.username, 'wrong', via(address()), direct)).status, 400);
          assert.equal((await login(fay.username, fay.password, via(address()), direct)).status, 429);
        } finally {
          await direct.close();
        }
      });

      it('maxIpsCount: addresses the client adds in front do not make it another client', async () => {
        const gus = await user('gus');
        const client = address();
        for (let i = 0; i < LOGIN_MAX; i++) {
          assert.equal(
            (await login(gus.username, 'wrong', { 'x-forwarded-for': `${address()}, ${address()}, ${client}` })).status,
            400,
          );
        }
        assert.equal(
          (await login(gus.username, gus.password, { 'x-forwarded-for': `${address()}, ${client}` })).status,
          429,
        );
        assert.equal(
          (await login(gus.username, gus.password, { 'x-forwarded-for': `${client}, ${address()}` })).status,
          200,
          'the last address is the client',
        );
      });

      it("ipHeader: the address is read from the proxy's header (CF-Connecting-IP); Strapi 4's proxy: true trusts X-Forwarded-For", async () => {
        const cloudflare = await startServer(dialect, {
          nodeOf: server,
          config: {
            server: { proxy: { koa: true, ipHeader: 'CF-Connecting-IP' } },
            plugins: { 'users-permissions': usersPermissions },
          },
        });
        const v4 = await startServer(dialect, {
          nodeOf: server,
          config: { server: { proxy: true }, plugins: { 'users-permissions': usersPermissions } },
        });
        try {
          const hal = await user('hal');
          const client = address();
          for (let i = 0; i < LOGIN_MAX; i++) {
            assert.equal(
              (
                await login(
                  hal.username,
                  'wrong',
                  { 'cf-connecting-ip': client, 'x-forwarded-for': address() },
                  cloudflare,
                )
              ).status,
              400,
            );
          }
          assert.equal(
            (
              await login(
                hal.username,
                hal.password,
                { 'cf-connecting-ip': client, 'x-forwarded-for': address() },
                cloudflare,
              )
            ).status,
            429,
          );
          assert.equal(
            (
              await login(
                hal.username,
                hal.password,
                { 'cf-connecting-ip': address(), 'x-forwarded-for': client },
                cloudflare,
              )
            ).status,
            200,
          );

          const ida = await user('ida');
          for (let i = 0; i < LOGIN_MAX; i++)
            assert.equal((await login(ida.username, 'wrong', { 'x-forwarded-for': client }, v4)).status, 400);
          assert.equal((await login(ida.username, ida.password, { 'x-forwarded-for': client }, v4)).status, 429);
          assert.equal((await login(ida.username, ida.password, { 'x-forwarded-for': address() }, v4)).status, 200);
        } finally {
          await cloudflare.close();
          await v4.close();
        }
      });
    });

    describe('registration', () => {
      const register = (username: string, client: string, node = server) =>
        node.publicApi.post(
          '/api/auth/local/register',
          { username, email: `${username}@example.com`, password: 'secret123' },
          { headers: via(client) },
        );
      const countUsers = async (prefix: string) =>
        (
          await server.vellum.database.db
            .selectFrom('up_users')
            .select('id')
            .where('username', 'like', `${prefix}%`)
            .execute()
        ).length;

      it(`is counted per client address, failures included, on every node: ${REGISTER_MAX} and then 429`, async () => {
        const prefix = unique('reg');
        const client = address();
        const responses = await Promise.all(
          Array.from({ length: 8 }, (_, i) => register(`${prefix}-${i}`, client, nodes[i % nodes.length])),
        );
        assert.deepEqual(statuses(responses), [...Array(REGISTER_MAX).fill(200), ...Array(8 - REGISTER_MAX).fill(429)]);
        for (const res of responses.filter((r) => r.status === 429))
          assert.equal(res.body.error.name, 'RateLimitError');
        assert.equal(await countUsers(prefix), REGISTER_MAX);
        assert.equal((await register(`${prefix}-other`, address())).status, 200, 'another address registers');

        const failing = address();
        for (let i = 0; i < REGISTER_MAX; i++) {
          const invalid = await server.publicApi.post(
            '/api/auth/local/register',
            { username: `${prefix}-x${i}`, email: 'not-an-email', password: 'secret123' },
            { headers: via(failing) },
          );
          assert.equal(invalid.status, 400);
        }
        assert.equal((await register(`${prefix}-late`, failing)).status, 429, 'refused registrations count too');
      });

      it('GraphQL register counts each alias: thirty in one request create three accounts', async () => {
        const prefix = unique('gql');
        const client = address();
        const fields = Array.from(
          { length: 30 },
          (_, i) =>
            `r${i}: register(input: { username: "${prefix}-${i}", email: "${prefix}-${i}@example.com", password: "secret123" }) { jwt }`,
        );
        const res = await graphql(server, `mutation { ${fields.join(' ')} }`, undefined, {
          anonymous: true,
          headers: via(client),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        // `register` is non-null: the first refusal empties `data` and ends the (serial) mutation.
        assert.equal(res.body.data, null);
        assert.ok(res.body.errors?.length);
        for (const error of res.body.errors ?? [])
          assert.equal(error.extensions.code, 'STRAPI_RATE_LIMIT_ERROR', JSON.stringify(error));
        assert.equal(await countUsers(prefix), REGISTER_MAX);
        assert.equal((await register(`${prefix}-rest`, client)).status, 429, 'REST and GraphQL share the count');
      });
    });

    describe('account flows', () => {
      it(`forgot-password, reset-password, change-password and send-email-confirmation: ${LOGIN_MAX} per route, email and client address, then 429`, async () => {
        const client = address();
        const email = `${unique('limit')}@example.com`;
        const send = (route: string, body: Record<string, unknown>, from = client) =>
          server.publicApi.post(`/api/auth/${route}`, body, { headers: via(from) });
        for (const [route, body] of [
          ['forgot-password', { email }],
          ['reset-password', { code: 'not-a-code', password: 'secret123', passwordConfirmation: 'secret123' }],
          ['change-password', { currentPassword: 'a', password: 'secret123', passwordConfirmation: 'secret123' }],
          ['send-email-confirmation', { email }],
        ] as const) {
          const answers: number[] = [];
          for (let i = 0; i <= LOGIN_MAX; i += 1) answers.push((await send(route, body)).status);
          assert.equal(answers.filter((status) => status === 429).length, 1, `${route}: ${answers.join(',')}`);
          assert.equal(answers.at(-1), 429, route);
          assert.notEqual(
            (await send(route, body, address())).status,
            429,
            `${route}: another client address is not limited`,
          );
        }
        assert.equal(
          (await send('forgot-password', { email: `${unique('other')}@example.com` })).status,
          200,
          'another email from the same address is not limited',
        );
        // Strapi keys reset-password and change-password by route and address only: an email in the body gets no fresh count.
        for (const route of ['reset-password', 'change-password']) {
          assert.equal(
            (
              await send(route, {
                email: `${unique('fresh')}@example.com`,
                code: 'x',
                password: 'secret123',
                passwordConfirmation: 'secret123',
              })
            ).status,
            429,
            route,
          );
        }
      });

      it(`a login through a provider (GET /api/connect/...): ${LOGIN_MAX} per path and client address, then 429`, async () => {
        const client = address();
        const get = (path: string, from = client) => server.publicApi.get(path, { headers: via(from) });
        for (const path of ['/api/connect/github', '/api/connect/github/callback']) {
          const answers: number[] = [];
          // github is not enabled here: each is refused, and counted all the same, as in Strapi.
          for (let i = 0; i <= LOGIN_MAX; i += 1) answers.push((await get(path)).status);
          assert.deepEqual(
            answers.map((status) => status === 429),
            [...Array(LOGIN_MAX).fill(false), true],
            `${path}: ${answers.join(',')}`,
          );
          assert.notEqual((await get(path, address())).status, 429, `${path}: another client address is not limited`);
        }
        assert.notEqual((await get('/api/connect/google')).status, 429, 'another provider is its own path');
      });
    });

    describe('identifiers never collide', () => {
      const emailShaped = () => `${unique('squat')}@example.com`;
      const registerAs = (username: string, email: string) =>
        server.publicApi.post(
          '/api/auth/local/register',
          { username, email, password: 'secret123' },
          { headers: via(address()) },
        );

      it('a username that is an email address is refused: REST, GraphQL and administrators alike', async () => {
        const jay = await user('jay');
        for (const username of [`${unique('squat')}@example.com`, jay.email, ` ${jay.email.toUpperCase()} `]) {
          const res = await registerAs(username, `${unique('owner')}@example.com`);
          assert.equal(res.status, 400, username);
          assert.equal(res.body.error.name, 'ValidationError');
          assert.deepEqual(
            res.body.error.details.errors.map((e: { path: string[]; message: string }) => [e.path, e.message]),
            [[['username'], 'username must not be an email address']],
          );
        }
        const squat = `${unique('squat')}@example.com`;
        const gql = await graphql(
          server,
          `mutation { register(input: { username: "${squat}", email: "${unique('o')}@example.com", password: "secret123" }) { jwt } }`,
          undefined,
          {
            anonymous: true,
            headers: via(address()),
          },
        );
        assert.equal(gql.body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT', JSON.stringify(gql.body));
        await assert.rejects(
          server.vellum.auth.users.create({
            username: squat,
            email: `${unique('o')}@example.com`,
            password: 'secret123',
          }),
          ValidationError,
        );
        assert.equal(
          (await server.vellum.database.db.selectFrom('up_users').select('id').where('username', '=', squat).execute())
            .length,
          0,
        );
        // Not an email: allowed.
        assert.equal((await registerAs(`@${unique('handle')}`, `${unique('h')}@example.com`)).status, 200);
      });

      it('the users routes (POST and PUT /api/users) refuse a username that is an email address too', async () => {
        const kay = await user('kay');
        const role = (await server.vellum.auth.roles.get('authenticated')).id;
        const created = await server.api.post('/api/users', {
          username: emailShaped(),
          email: `${unique('o')}@example.com`,
          password: 'secret123',
          role,
        });
        assert.equal(created.status, 400, JSON.stringify(created.body));
        assert.deepEqual(
          created.body.error.details.errors.map((e: { path: string[]; message: string }) => [e.path, e.message]),
          [[['username'], 'username must not be an email address']],
        );
        const [stored] = (await server.api.get(`/api/users?filters[username][$eq]=${kay.username}`)).body as {
          id: number;
        }[];
        const renamed = await server.api.put(`/api/users/${stored!.id}`, { username: kay.email });
        assert.equal(renamed.status, 400, JSON.stringify(renamed.body));
        assert.equal((await login(kay.username, kay.password, via(address()))).status, 200, 'unchanged');
      });

      it('an email that an older account holds as its username is taken: its owner cannot be impersonated at login', async () => {
        // An account from before the rule (or made by project code), whose username is an email.
        const email = `${unique('kim')}@example.com`;
        await server.vellum.documents.of(USER_UID).create({
          data: {
            username: email,
            email: `${unique('old')}@example.com`,
            password: 'old-password',
            provider: 'local',
            confirmed: true,
          },
        });
        const res = await registerAs(unique('kim'), email);
        assert.equal(res.status, 400);
        assert.equal(res.body.error.message, 'Email or Username are already taken');
        const role = (await server.vellum.auth.roles.get('authenticated')).id;
        const created = await server.api.post('/api/users', {
          username: unique('kim'),
          email,
          password: 'secret123',
          role,
        });
        assert.equal(created.status, 400);
        assert.equal(created.body.error.message, 'Email already taken');
      });
    });
  });
}
