/**
 * A real OpenID Connect provider (panva's `oidc-provider`) on an ephemeral 127.0.0.1 port, for the
 * provider-login tests. Its endpoints sit where Keycloak's are (`/protocol/openid-connect/...`), so
 * the same server is Strapi's `keycloak` provider too. Accounts are added by the test; `signIn`
 * drives a browser through the provider's login and consent pages (its development interactions)
 * over real HTTP, redirects followed by hand, and answers where the provider sends the browser back.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata } from 'oidc-provider';

export interface IdpAccount {
  email: string;
  username: string;
  emailVerified?: boolean;
}

export interface TestIdp {
  issuer: string;
  /** Registers the clients (call once, before any flow). */
  start(clients: ClientMetadata[]): void;
  addAccount(id: string, account: IdpAccount): void;
  /**
   * Follows `url` (an authorize URL, or a redirect to one) through login and consent as the
   * account `accountId`; answers the first URL outside the provider (the client's redirect URI).
   */
  signIn(url: string, accountId: string): Promise<string>;
  close(): Promise<void>;
}

/** A cookie jar for one browser: name=value pairs, the provider's cookies only. */
class Jar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export async function startIdp(): Promise<TestIdp> {
  const accounts = new Map<string, IdpAccount>();
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    start(clients) {
      const provider = new Provider(issuer, {
        clients,
        cookies: { keys: ['test-idp-cookie-key-0123456789'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
        features: { devInteractions: { enabled: true } },
        routes: {
          authorization: '/protocol/openid-connect/auth',
          token: '/protocol/openid-connect/token',
          userinfo: '/protocol/openid-connect/userinfo',
          jwks: '/protocol/openid-connect/certs',
        },
        async findAccount(_ctx, id) {
          const account = accounts.get(id);
          if (!account) return undefined;
          return {
            accountId: id,
            async claims() {
              return {
                sub: id,
                email: account.email,
                email_verified: account.emailVerified ?? true,
                preferred_username: account.username,
                name: account.username,
              };
            },
          };
        },
      });
      provider.on('server_error', (_ctx, error) => console.error('idp server_error', error));
      handler = provider.callback();
    },
    addAccount(id, account) {
      accounts.set(id, account);
    },
    async signIn(url, accountId) {
      const jar = new Jar();
      let next = url;
      for (let step = 0; step < 12; step += 1) {
        if (!next.startsWith(issuer)) return next;
        const page = await fetch(next, { redirect: 'manual', headers: { cookie: jar.header() } });
        jar.take(page);
        const location = page.headers.get('location');
        if (location) {
          await page.arrayBuffer();
          next = new URL(location, next).toString();
          continue;
        }
        const html = await page.text();
        if (page.status !== 200) throw new Error(`the provider answered ${page.status}: ${html.slice(0, 500)}`);
        // An interaction page: sign in, or give consent.
        const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
        if (!prompt) throw new Error(`no prompt on ${next}: ${html.slice(0, 300)}`);
        const form = new URLSearchParams({
          prompt,
          ...(prompt === 'login' ? { login: accountId, password: 'any' } : {}),
        });
        const submitted = await fetch(next, {
          method: 'POST',
          redirect: 'manual',
          headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
          body: form.toString(),
        });
        jar.take(submitted);
        await submitted.arrayBuffer();
        const to = submitted.headers.get('location');
        if (!to) throw new Error(`the provider answered ${submitted.status} to the ${prompt} form`);
        next = new URL(to, next).toString();
      }
      throw new Error('too many redirects at the provider');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
