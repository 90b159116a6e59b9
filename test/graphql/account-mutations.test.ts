/**
 * Strapi's users-permissions account mutations over GraphQL: `forgotPassword`, `resetPassword`,
 * `changePassword`, `emailConfirmation`, with the emails read from a real SMTP server; no type of
 * the schema exposes a password, a reset code or a confirmation code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { graphql } from '../helpers/graphql.js';
import { DIALECTS, startServer, type TestServer } from '../helpers/server.js';
import { codeIn, emailPlugin, startSmtp, type TestSmtp } from '../helpers/smtp.js';
import { unique } from '../helpers/unique.js';

const SECRET_FIELDS = /^(password|resetPasswordToken|confirmationToken|code|token|confirmation)$/i;

for (const dialect of DIALECTS) {
  describe(`GraphQL account mutations [${dialect}]`, () => {
    let smtp: TestSmtp;
    let server: TestServer;
    before(async () => {
      smtp = await startSmtp();
      server = await startServer(dialect, {
        config: {
          plugins: {
            email: emailPlugin(smtp),
            'users-permissions': { config: { advanced: { email_reset_password: 'https://app.example.com/reset' } } },
          },
        },
      });
    });
    after(async () => {
      await server?.close();
      await smtp?.close();
    });
    const anonymous = (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
      graphql(server, query, variables, { anonymous: true, headers });

    async function register() {
      const username = unique('g');
      const email = `${username}@example.com`;
      const res = await server.publicApi.post('/api/auth/local/register', { username, email, password: 'secret123' });
      assert.equal(res.status, 200, res.text);
      return { username, email, jwt: res.body.jwt as string };
    }

    it("has Strapi's signatures, and no type with a password or a code", async () => {
      const res = await graphql(
        server,
        '{ __schema { types { name fields { name } } mutationType { fields { name type { name kind ofType { name } } args { name type { kind ofType { name } } } } } } }',
      );
      const fields = res.body.data.__schema.mutationType.fields as {
        name: string;
        type: { name: string | null };
        args: { name: string; type: { kind: string; ofType: { name: string } } }[];
      }[];
      const signature = (name: string) => {
        const field = fields.find((f) => f.name === name)!;
        return [
          field.type.name,
          field.args.map((arg) => `${arg.name}:${arg.type.ofType?.name}${arg.type.kind === 'NON_NULL' ? '!' : ''}`),
        ];
      };
      assert.deepEqual(signature('forgotPassword'), ['UsersPermissionsPasswordPayload', ['email:String!']]);
      assert.deepEqual(signature('resetPassword'), [
        'UsersPermissionsLoginPayload',
        ['password:String!', 'passwordConfirmation:String!', 'code:String!'],
      ]);
      assert.deepEqual(signature('changePassword'), [
        'UsersPermissionsLoginPayload',
        ['currentPassword:String!', 'password:String!', 'passwordConfirmation:String!'],
      ]);
      assert.deepEqual(signature('emailConfirmation'), ['UsersPermissionsLoginPayload', ['confirmation:String!']]);
      const exposed = (res.body.data.__schema.types as { name: string; fields: { name: string }[] | null }[])
        // Strapi's `Error { code, message }` is an error's code, no secret.
        .filter((type) => !type.name.startsWith('__') && type.name !== 'Error')
        .flatMap((type) =>
          (type.fields ?? [])
            .filter((field) => SECRET_FIELDS.test(field.name))
            .map((field) => `${type.name}.${field.name}`),
        );
      assert.deepEqual(exposed, []);
    });

    it('forgotPassword answers { ok: true } for anyone; resetPassword signs the user in with the new password', async () => {
      const user = await register();
      for (const email of [user.email, `${unique('nobody')}@example.com`]) {
        const res = await anonymous('mutation($email: String!) { forgotPassword(email: $email) { ok } }', { email });
        assert.deepEqual(res.body, { data: { forgotPassword: { ok: true } } });
      }
      const code = codeIn(await smtp.next(user.email), 'code');
      const mismatch = await anonymous(
        'mutation($code: String!) { resetPassword(code: $code, password: "new-secret-1", passwordConfirmation: "new-secret-2") { jwt } }',
        { code },
      );
      assert.equal(mismatch.body.errors![0].extensions.code, 'BAD_USER_INPUT');
      assert.equal(mismatch.body.errors![0].message, 'Passwords do not match');
      const reset = await anonymous(
        'mutation($code: String!) { resetPassword(code: $code, password: "new-secret-1", passwordConfirmation: "new-secret-1") { jwt user { username email } } }',
        { code },
      );
      assert.equal(reset.body.errors, undefined, JSON.stringify(reset.body.errors));
      assert.deepEqual(reset.body.data.resetPassword.user, { username: user.username, email: user.email });
      const me = await anonymous('{ me { username } }', undefined, {
        authorization: `Bearer ${reset.body.data.resetPassword.jwt}`,
      });
      assert.equal(me.body.data.me.username, user.username);
      const old = await anonymous('{ me { username } }', undefined, { authorization: `Bearer ${user.jwt}` });
      assert.equal(old.status, 401, 'the earlier JWT is revoked');
      assert.equal((old.body as unknown as { error: { message: string } }).error.message, 'Invalid credentials');
      const reused = await anonymous(
        'mutation($code: String!) { resetPassword(code: $code, password: "new-secret-3", passwordConfirmation: "new-secret-3") { jwt } }',
        { code },
      );
      assert.equal(reused.body.errors![0].message, 'Incorrect code provided');
    });

    it("each aliased forgotPassword or changePassword of one operation counts against its route's limit", async () => {
      const limited = await startServer(dialect, {
        nodeOf: server,
        config: {
          plugins: {
            email: emailPlugin(smtp),
            'users-permissions': {
              config: {
                ratelimit: { max: 3, interval: 60_000 },
                advanced: { email_reset_password: 'https://app.example.com/reset' },
              },
            },
          },
        },
      });
      try {
        const user = await register();
        const aliases = (field: string, n: number) =>
          `mutation { ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ')} }`;
        const forgot = await graphql(limited, aliases(`forgotPassword(email: "${user.email}") { ok }`, 8), undefined, {
          anonymous: true,
        });
        const refused = (forgot.body.errors ?? []).filter(
          (e: { extensions: { code: string } }) => e.extensions.code === 'STRAPI_RATE_LIMIT_ERROR',
        );
        assert.equal(refused.length, 5, JSON.stringify(forgot.body));
        // Three emails (the allowed ones), not eight.
        for (let i = 0; i < 3; i++) await smtp.next(user.email);
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(smtp.to(user.email).length, 3);

        const guesses = await graphql(
          limited,
          aliases(
            'changePassword(currentPassword: "guess-it-1", password: "changed-9", passwordConfirmation: "changed-9") { jwt }',
            10,
          ),
          undefined,
          { anonymous: true, headers: { authorization: `Bearer ${user.jwt}` } },
        );
        const codes = (guesses.body.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code);
        assert.equal(
          codes.filter((code: string) => code === 'STRAPI_RATE_LIMIT_ERROR').length,
          7,
          JSON.stringify(codes),
        );
      } finally {
        await limited.close();
      }
    });

    it('changePassword needs a user JWT and answers a new one', async () => {
      const user = await register();
      const mutation =
        'mutation { changePassword(currentPassword: "secret123", password: "changed-1", passwordConfirmation: "changed-1") { jwt user { username } } }';
      const anonymousTry = await anonymous(mutation);
      assert.equal(anonymousTry.body.errors![0].extensions.code, 'FORBIDDEN');
      const wrong = await anonymous(mutation.replace('"secret123"', '"not-it-at-all"'), undefined, {
        authorization: `Bearer ${user.jwt}`,
      });
      assert.equal(wrong.body.errors![0].message, 'The provided current password is invalid');
      const changed = await anonymous(mutation, undefined, { authorization: `Bearer ${user.jwt}` });
      assert.equal(changed.body.errors, undefined, JSON.stringify(changed.body.errors));
      assert.equal(changed.body.data.changePassword.user.username, user.username);
      const login = await server.publicApi.post('/api/auth/local', { identifier: user.email, password: 'changed-1' });
      assert.equal(login.status, 200);
    });

    it('emailConfirmation confirms with the emailed code and signs the user in', async () => {
      await server.vellum.auth.advanced.update({ email_confirmation: true });
      let registered;
      try {
        const username = unique('g');
        registered = await anonymous(
          'mutation($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { username confirmed } } }',
          {
            input: { username, email: `${username}@example.com`, password: 'secret123' },
          },
        );
        assert.deepEqual(registered.body.data.register, { jwt: null, user: { username, confirmed: false } });
        const code = codeIn(await smtp.next(`${username}@example.com`), 'confirmation');
        const bad = await anonymous('mutation { emailConfirmation(confirmation: "0000") { jwt } }');
        assert.equal(bad.body.errors![0].message, 'Invalid token');
        const confirmed = await anonymous(
          'mutation($code: String!) { emailConfirmation(confirmation: $code) { jwt user { username confirmed } } }',
          { code },
        );
        assert.equal(confirmed.body.errors, undefined, JSON.stringify(confirmed.body.errors));
        assert.deepEqual(confirmed.body.data.emailConfirmation.user, { username, confirmed: true });
        const me = await anonymous('{ me { username } }', undefined, {
          authorization: `Bearer ${confirmed.body.data.emailConfirmation.jwt}`,
        });
        assert.equal(me.body.data.me.username, username);
      } finally {
        await server.vellum.auth.advanced.update({ email_confirmation: false });
      }
    });
  });
}
