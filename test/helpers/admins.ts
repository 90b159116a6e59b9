/**
 * Administrators and their roles as the admin and releases tests make them: through the admin API,
 * as the panel does, each step's answer asserted. Every test passes its own names and addresses.
 */
import assert from 'node:assert/strict';
import { HttpClient } from './http.js';
import type { TestServer } from './server.js';
import { unique } from './unique.js';

/** An administrator's client, token (for a client of another node) and id. */
export interface Admin {
  client: HttpClient;
  token: string;
  id: number;
}

/** Who registers. */
export interface AdminInfo {
  email: string;
  password: string;
  firstname: string;
  lastname?: string;
}

/** One permission of `PUT /admin/roles/:id/permissions`. */
export interface Permission {
  action: string;
  /** A content-type's uid; null for a plugin's or the settings' action. */
  subject: string | null;
  properties: Record<string, unknown>;
  conditions: string[];
}

/** The first administrator the tests register, unless they name their own. */
const ROOT: AdminInfo = { email: 'root@example.com', password: 'Passw0rd-Root', firstname: 'Root' };

const clientOf = (server: Pick<TestServer, 'url'>, token: string): HttpClient =>
  new HttpClient(server.url, { authorization: `Bearer ${token}` });

/** The first administrator of a new server (or `vellum develop`'s), a Super Admin (`POST /admin/register-admin`). */
export async function registerFirstAdmin(
  server: Pick<TestServer, 'url' | 'publicApi'>,
  who: AdminInfo = ROOT,
): Promise<Admin> {
  const answer = await server.publicApi.post('/admin/register-admin', who);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const token = answer.body.data.token as string;
  return { client: clientOf(server, token), token, id: answer.body.data.user.id };
}

/** A Super Admin made on the node (as `vellum admin create` does), then logged in. */
export async function adminClient(
  server: TestServer,
  email = `${unique('admin')}@example.com`,
  password = 'an-admin-password',
) {
  const { id } = await server.vellum.auth.admins.create(email, password);
  const login = await server.publicApi.post('/admin/login', { email, password });
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return { id, email, client: clientOf(server, login.body.data.token) };
}

/** A permission without conditions: `subject` null for a plugin's or the settings' action. */
export const permission = (
  action: string,
  subject: string | null = null,
  properties: Record<string, unknown> = {},
  conditions: string[] = [],
): Permission => ({ action, subject, properties, conditions });

/** A content manager permission (`plugin::content-manager.explorer.<action>`) on a content-type. */
export const explorerPermission = (
  action: string,
  subject: string,
  properties: Record<string, unknown> = {},
  conditions: string[] = [],
): Permission => permission(`plugin::content-manager.explorer.${action}`, subject, properties, conditions);

/** Replaces a role's permissions with these. */
export async function setRolePermissions(admin: HttpClient, roleId: number, permissions: Permission[]): Promise<void> {
  const answer = await admin.put(`/admin/roles/${roleId}/permissions`, { permissions });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
}

/** A new role with these permissions (none: a role that grants nothing): its id. */
export async function createRole(
  admin: HttpClient,
  name: string,
  permissions: Permission[],
  description?: string,
): Promise<number> {
  const created = await admin.post('/admin/roles', { name, description });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.data.id as number;
  await setRolePermissions(admin, id, permissions);
  return id;
}

/** An administrator invited with these roles (`POST /admin/users`) and registered with the code. */
export async function inviteAdmin(
  server: TestServer,
  admin: HttpClient,
  roles: number[],
  who: AdminInfo,
): Promise<Admin> {
  const { email, password, ...names } = who;
  const invited = await admin.post('/admin/users', { email, ...names, roles });
  assert.equal(invited.status, 201, JSON.stringify(invited.body));
  const registered = await server.publicApi.post('/admin/register', {
    registrationToken: invited.body.data.registrationToken,
    userInfo: { ...names, password },
  });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  const token = registered.body.data.token as string;
  return { client: clientOf(server, token), token, id: registered.body.data.user.id };
}

/** An address made of a name: `Readers 1a2b` -> `readers-1a2b@example.com`. */
export const emailOf = (name: string): string => `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@example.com`;
