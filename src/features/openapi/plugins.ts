/**
 * The routes of Strapi's plugins that Vellum serves on the content API: users-permissions (sign-in,
 * account flows, sessions, users, roles), upload, i18n's locales and email
 * (docs/users-permissions.md, docs/media.md). Their answers are without the envelope, as
 * Strapi's; what each takes and answers is read from Vellum's routes, which answer as Strapi 5.54
 * does, and differs from Strapi's document where that one is wrong: a user's creation is a 201, a
 * redirect is a 302, `/connect/(.*)` is the two paths it serves.
 */
import type { ContentType, Schema } from '../../core/schema/model.js';
import { ERRORS, json } from './content.js';
import { fields, filters, pagination, pathParameter, populate, query, sort } from './parameters.js';
import { ref, schemaName, type JsonSchema, type Operation, type Parameter, type Response } from './spec.js';

const USER_UID = 'plugin::users-permissions.user';
const ROLE_UID = 'plugin::users-permissions.role';
const FILE_UID = 'plugin::upload.file';

interface PluginRoute {
  origin: string;
  /** The OpenAPI path (below the REST prefix). */
  path: string;
  summary: string;
  parameters?: Parameter[];
  body?: { content: Record<string, { schema: JsonSchema }>; required?: boolean };
  responses: Record<string, Response>;
}

const object = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const text = { type: 'string' };
const ok = (schema: JsonSchema, status = '200', description = 'OK'): Record<string, Response> => ({
  [status]: { description, content: json(schema) },
});
const redirect: Record<string, Response> = {
  '302': {
    description: 'Redirect',
    headers: { Location: { description: 'Where the browser goes next', schema: text } },
  },
};
const body = (schema: JsonSchema) => ({ required: true, content: json(schema) });

/** The plugins' routes Vellum may register, by `METHOD path` (below the prefix, parameters as `:`). */
export function pluginRoutes(schema: Schema): Map<string, PluginRoute> {
  const routes = new Map<string, PluginRoute>();
  const add = (method: string, route: PluginRoute) =>
    routes.set(`${method} ${route.path.replace(/\{[^}]+\}/g, ':')}`, route);
  const model = (uid: string) => schema.contentTypes.get(uid);

  const user = ref(schemaName(USER_UID));
  const userType = model(USER_UID);
  // In `jwtManagement: 'refresh'` mode a sign-in answers a refresh token too (docs/users-permissions.md).
  const signedIn = object({ jwt: text, refreshToken: text, user }, ['jwt', 'user']);
  const up = (path: string, summary: string, rest: Omit<PluginRoute, 'origin' | 'path' | 'summary'>): PluginRoute => ({
    origin: 'users-permissions',
    path,
    summary,
    ...rest,
  });
  const password = { type: 'string', format: 'password' };
  const email = { type: 'string', format: 'email' };
  const userQuery = (type: ContentType | undefined) => (type ? [fields(type), populate(type)] : []);

  add(
    'POST',
    up('/auth/local', 'Sign in with an identifier (email or username) and a password', {
      body: body(object({ identifier: text, password })),
      responses: ok(signedIn),
    }),
  );
  add(
    'POST',
    up('/auth/local/register', 'Register a user (a JWT unless email confirmation is on)', {
      body: body({ ...object({ username: text, email, password }), additionalProperties: true }),
      responses: ok({ anyOf: [signedIn, object({ user })] }),
    }),
  );
  add(
    'POST',
    up('/auth/forgot-password', 'Send a reset-password email', {
      body: body(object({ email })),
      responses: ok(object({ ok: { type: 'boolean', const: true } })),
    }),
  );
  add(
    'POST',
    up('/auth/reset-password', 'Set a new password with the code the email sent', {
      body: body(object({ code: text, password, passwordConfirmation: password })),
      responses: ok(signedIn),
    }),
  );
  add(
    'POST',
    up('/auth/change-password', "Change the signed-in user's password", {
      body: body(object({ currentPassword: password, password, passwordConfirmation: password })),
      responses: ok(signedIn),
    }),
  );
  const provider = pathParameter('provider', 'A login provider (github, google, keycloak, ...)');
  add(
    'GET',
    up('/connect/{provider}', "Go to the provider's sign-in page", {
      parameters: [provider],
      responses: redirect,
    }),
  );
  add(
    'GET',
    up('/connect/{provider}/callback', "The provider's redirect back, on to the front end", {
      parameters: [provider],
      responses: redirect,
    }),
  );
  add(
    'GET',
    up('/auth/{provider}/callback', 'Sign in with the access token the provider handed the front end', {
      parameters: [provider, query('access_token', text, "The provider's access token")],
      responses: ok(signedIn),
    }),
  );
  add(
    'POST',
    up('/auth/refresh', "A new JWT for a refresh token ('refresh' mode only, else 404)", {
      body: { required: false, content: json(object({ refreshToken: text }, [])) },
      responses: ok(object({ jwt: text, refreshToken: text }, ['jwt'])),
    }),
  );
  add(
    'POST',
    up('/auth/logout', "End the user's session ('refresh' mode only)", {
      body: { required: false, content: json(object({ deviceId: text }, [])) },
      responses: ok(object({ ok: { type: 'boolean', const: true } })),
    }),
  );
  const session = object(
    {
      id: text,
      deviceId: { type: ['string', 'null'] },
      deviceName: text,
      current: { type: 'boolean' },
      loginAt: { type: 'string', format: 'date-time' },
      lastActiveAt: { type: 'string', format: 'date-time' },
    },
    ['id', 'deviceId', 'current'],
  );
  add(
    'GET',
    up('/auth/sessions', "The user's sessions ('refresh' mode only)", {
      responses: ok(object({ data: { type: 'array', items: session } })),
    }),
  );
  add(
    'DELETE',
    up('/auth/sessions/{sessionId}', "End one of the user's sessions", {
      parameters: [pathParameter('sessionId')],
      responses: ok(object({ data: { type: 'object' } })),
    }),
  );
  add(
    'POST',
    up('/auth/send-email-confirmation', 'Send the confirmation email again', {
      body: body(object({ email })),
      responses: ok(object({ email: text, sent: { type: 'boolean', const: true } })),
    }),
  );
  add(
    'GET',
    up('/auth/email-confirmation', 'Confirm an email address (the link of the email)', {
      parameters: [{ ...query('confirmation', text, 'The code of the link'), required: true }],
      responses: redirect,
    }),
  );

  const userId = pathParameter('id', "The user's numeric id", { type: 'string', pattern: '^\\d+$' });
  add('GET', up('/users/me', 'The signed-in user', { parameters: userQuery(userType), responses: ok(user) }));
  add(
    'GET',
    up('/users', 'List users', {
      parameters: userType ? [fields(userType), populate(userType), sort(), ...pagination(), filters()] : [],
      responses: ok({ type: 'array', items: user }),
    }),
  );
  add('GET', up('/users/count', 'Count users', { parameters: [filters()], responses: ok({ type: 'integer' }) }));
  add('GET', up('/users/{id}', 'One user', { parameters: [userId, ...userQuery(userType)], responses: ok(user) }));
  const userInput = (required: string[]) => ({
    ...object(
      {
        username: text,
        email,
        password,
        role: { type: ['integer', 'string'], description: "A role's id or documentId" },
      },
      required,
    ),
    additionalProperties: true,
  });
  add(
    'POST',
    up('/users', 'Create a user', {
      body: body(userInput(['username', 'email', 'password'])),
      responses: ok(user, '201', 'Created'),
    }),
  );
  add(
    'PUT',
    up('/users/{id}', 'Update a user', { parameters: [userId], body: body(userInput([])), responses: ok(user) }),
  );
  add(
    'DELETE',
    up('/users/{id}', 'Delete a user', {
      parameters: [userId],
      responses: { ...ok(user), '204': { description: 'No such user (no body)' } },
    }),
  );

  const role = ref(schemaName(ROLE_UID));
  const permissions = {
    type: 'object',
    description: 'By plugin or API: { controllers: { <controller>: { <action>: { enabled, policy } } } }',
    additionalProperties: true,
  };
  const roleWithTree = {
    allOf: [role, object({ nb_users: { type: 'integer' }, permissions }, [])],
  };
  const roleInput = (required: string[]) =>
    object({ name: text, description: { type: ['string', 'null'] }, type: text, permissions }, required);
  const roleRef = pathParameter('role', "The role's id or documentId");
  add(
    'GET',
    up('/users-permissions/roles', 'List roles', {
      responses: ok(object({ roles: { type: 'array', items: roleWithTree } })),
    }),
  );
  add(
    'GET',
    up('/users-permissions/roles/{id}', 'One role with its permissions', {
      parameters: [pathParameter('id', "The role's id or documentId")],
      responses: ok(object({ role: roleWithTree })),
    }),
  );
  const done = ok(object({ ok: { type: 'boolean', const: true } }));
  add('POST', up('/users-permissions/roles', 'Create a role', { body: body(roleInput(['name'])), responses: done }));
  add(
    'PUT',
    up('/users-permissions/roles/{role}', 'Update a role', {
      parameters: [roleRef],
      body: body(roleInput([])),
      responses: done,
    }),
  );
  add(
    'DELETE',
    up('/users-permissions/roles/{role}', 'Delete a role (its users move to Public)', {
      parameters: [roleRef],
      responses: done,
    }),
  );
  add(
    'GET',
    up('/users-permissions/permissions', 'Every content-API action', {
      responses: ok(object({ permissions })),
    }),
  );

  const file = ref(schemaName(FILE_UID));
  const fileType = model(FILE_UID);
  const fileId = pathParameter('id', "The file's numeric id", { type: 'string', pattern: '^\\d+$' });
  const upload = (
    path: string,
    summary: string,
    rest: Omit<PluginRoute, 'origin' | 'path' | 'summary'>,
  ): PluginRoute => ({
    origin: 'upload',
    path,
    summary,
    ...rest,
  });
  const fileInfo = {
    type: 'string',
    description: 'JSON {name, alternativeText, caption}: one per file, or one JSON array',
  };
  add(
    'POST',
    upload('/upload', 'Upload files (and link them to a document), or with ?id= replace a file or its info', {
      parameters: [
        query('id', { type: 'integer', exclusiveMinimum: 0 }, "A file's id: replace its bytes or info (200)"),
      ],
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                files: {
                  anyOf: [
                    { type: 'string', format: 'binary' },
                    { type: 'array', items: { type: 'string', format: 'binary' } },
                  ],
                },
                fileInfo,
                ref: { type: 'string', description: 'The uid of the content-type (or component) to link the files to' },
                refId: { type: 'string', description: "The document's documentId (a component's id)" },
                field: { type: 'string', description: 'The media attribute' },
              },
            },
          },
        },
      },
      responses: { ...ok({ type: 'array', items: file }, '201', 'Created'), ...ok(file) },
    }),
  );
  const fileList = fileType ? [fields(fileType), populate(fileType), sort(), ...pagination(), filters()] : [];
  add(
    'GET',
    upload('/upload/files', 'List files', { parameters: fileList, responses: ok({ type: 'array', items: file }) }),
  );
  add(
    'GET',
    upload('/upload/files/{id}', 'One file', {
      parameters: [fileId, ...(fileType ? [fields(fileType), populate(fileType)] : [])],
      responses: ok(file),
    }),
  );
  add(
    'DELETE',
    upload('/upload/files/{id}', 'Delete a file (its stored files and links too)', {
      parameters: [fileId],
      responses: ok(file),
    }),
  );

  // The Content-Type Builder's reads on the content API (features/content-type-builder), each behind its action.
  const ctb = (path: string, summary: string, rest: Omit<PluginRoute, 'origin' | 'path' | 'summary'>): PluginRoute => ({
    origin: 'content-type-builder',
    path,
    summary,
    ...rest,
  });
  const modelSchema = {
    type: 'object',
    description: 'The schema as the builder reads it: displayName, kind, attributes, ...',
    properties: { displayName: text, attributes: { type: 'object', additionalProperties: true } },
    additionalProperties: true,
  };
  const builderType = object({ uid: text, plugin: text, apiID: text, schema: modelSchema }, ['uid', 'apiID', 'schema']);
  const builderComponent = object({ uid: text, category: text, apiId: text, schema: modelSchema });
  const notFound = {
    '404': { description: 'Not found', content: json(object({ error: text })) },
  };
  add(
    'GET',
    ctb('/content-type-builder/content-types', 'The content-types', {
      parameters: [query('kind', { type: 'string', enum: ['collectionType', 'singleType'] }, 'Only this kind')],
      responses: ok(object({ data: { type: 'array', items: builderType } })),
    }),
  );
  add(
    'GET',
    ctb('/content-type-builder/content-types/{uid}', 'One content-type', {
      parameters: [pathParameter('uid', 'api::article.article, ...')],
      responses: { ...ok(object({ data: builderType })), ...notFound },
    }),
  );
  add(
    'GET',
    ctb('/content-type-builder/components', 'The components', {
      responses: ok(object({ data: { type: 'array', items: builderComponent } })),
    }),
  );
  add(
    'GET',
    ctb('/content-type-builder/components/{uid}', 'One component', {
      parameters: [pathParameter('uid', 'shared.seo, ...')],
      responses: { ...ok(object({ data: builderComponent })), ...notFound },
    }),
  );

  add('GET', {
    origin: 'i18n',
    path: '/i18n/locales',
    summary: 'The locales',
    responses: ok({
      type: 'array',
      items: object(
        {
          id: { type: 'integer' },
          documentId: text,
          name: { type: ['string', 'null'] },
          code: text,
          createdAt: { type: 'string', format: 'date-time' },
          updatedAt: { type: 'string', format: 'date-time' },
          publishedAt: { type: ['string', 'null'], format: 'date-time' },
          isDefault: { type: 'boolean' },
        },
        ['id', 'code', 'isDefault'],
      ),
    }),
  });

  add('POST', {
    origin: 'email',
    path: '/email',
    summary: 'Send an email with the configured provider',
    body: body(
      object({ from: text, to: text, cc: text, bcc: text, replyTo: text, subject: text, text, html: text }, [
        'to',
        'subject',
      ]),
    ),
    responses: ok({ type: 'object' }),
  });
  return routes;
}

/** The operation of one plugin route. */
export function pluginOperation(route: PluginRoute, id: string): Operation {
  const operation: Operation = {
    operationId: id,
    summary: route.summary,
    tags: [route.origin],
    parameters: route.parameters ?? [],
    responses: { ...ERRORS, ...route.responses },
  };
  if (route.body) operation.requestBody = route.body;
  return operation;
}
