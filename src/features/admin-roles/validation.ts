/**
 * The checks of Strapi 5.54's admin API on roles and permissions, with its words (its yup
 * messages, paths such as `permissions[0].subject`): `PUT /admin/roles/:id/permissions`'s body,
 * a role's name and description.
 */
import { ValidationError, type FieldError } from '../../core/errors.js';
import { isPlainObject } from '../../core/objects.js';
import type { Permission } from './ability.js';
import { CONDITIONS, type AdminAction } from './registry.js';

/** A yup error as Strapi answers it: `permissions[0].action` as ['permissions', '0', 'action'], with the value. */
const error = (path: string, message: string, value?: unknown): FieldError => ({
  path: path === '' ? [] : path.replace(/\[(\d+)\]/g, '.$1').split('.'),
  message,
  name: 'ValidationError',
  ...(value === undefined ? {} : { value }),
});

function fail(errors: FieldError[]): never {
  throw ValidationError.fromFieldErrors(errors);
}

/** Fields listed twice, or a field beside one of its own nested fields (`seo` and `seo.metaTitle`). */
function fieldsProblem(fields: string[]): string | undefined {
  if (new Set(fields).size !== fields.length) return 'Fields format are incorrect (duplicates).';
  const set = new Set(fields);
  for (const field of fields) {
    const parts = field.split('.');
    for (let i = 1; i < parts.length; i++)
      if (set.has(parts.slice(0, i).join('.'))) return 'Fields format are incorrect (bad nesting).';
  }
  return undefined;
}

/** `{ permissions: [...] }` as Strapi's `updatePermissions` schema checks it. */
export function checkPermissions(input: unknown, actions: AdminAction[]): Permission[] {
  if (!isPlainObject(input)) fail([error('permissions', 'permissions is a required field')]);
  const unknown = Object.keys(input).filter((key) => key !== 'permissions');
  if (unknown.length) fail([error('', `this field has unspecified keys: ${unknown.join(', ')}`, input)]);
  const list = input.permissions;
  if (!Array.isArray(list)) fail([error('permissions', 'permissions is a required field')]);
  const byId = new Map(actions.map((action) => [action.actionId, action]));
  const conditionIds = new Set(CONDITIONS.map((condition) => condition.id));
  const errors: FieldError[] = [];
  const permissions: Permission[] = [];
  list.forEach((item, index) => {
    const at = `permissions[${index}]`;
    if (!isPlainObject(item)) {
      errors.push(error(at, `${at} must be a \`object\` type`));
      return;
    }
    const extra = Object.keys(item).filter(
      (key) => !['action', 'actionParameters', 'subject', 'properties', 'conditions'].includes(key),
    );
    if (extra.length) errors.push(error(at, `${at} field has unspecified keys: ${extra.join(', ')}`));
    const { action: actionId, subject, properties, conditions, actionParameters } = item;
    if (typeof actionId !== 'string' || actionId === '') {
      errors.push(error(`${at}.action`, `${at}.action is a required field`));
      return;
    }
    const action = byId.get(actionId);
    if (!action) {
      errors.push(error(`${at}.action`, 'action is not an existing permission action', actionId));
      return;
    }
    const subjectOk =
      action.subjects === undefined
        ? subject === undefined || subject === null
        : typeof subject === 'string' && action.subjects.includes(subject);
    if (!subjectOk) errors.push(error(`${at}.subject`, 'Invalid subject submitted', subject));
    const props = properties === undefined || properties === null ? {} : properties;
    if (!isPlainObject(props)) {
      errors.push(error(`${at}.properties`, `Invalid property set at ${at}.properties`));
    } else {
      const names = Object.keys(props);
      const allowed = action.applyToProperties ?? [];
      if (names.some((name) => !(allowed as string[]).includes(name)))
        errors.push(error(`${at}.properties`, `Invalid property set at ${at}.properties`));
      const fields = props.fields;
      if (fields !== undefined && fields !== null) {
        if (!Array.isArray(fields) || fields.some((field) => typeof field !== 'string'))
          errors.push(error(`${at}.properties.fields`, `Invalid fields property at ${at}.properties`));
        else {
          const problem = fieldsProblem(fields as string[]);
          if (problem) errors.push(error(`${at}.properties.fields`, problem));
        }
      }
      const locales = props.locales;
      if (locales !== undefined && locales !== null) {
        if (!Array.isArray(locales) || locales.some((locale) => typeof locale !== 'string'))
          errors.push(error(`${at}.properties.locales`, `Invalid property set at ${at}.properties`));
      }
    }
    if (conditions !== undefined && conditions !== null) {
      if (!Array.isArray(conditions) || conditions.some((c) => typeof c !== 'string' || !conditionIds.has(c)))
        errors.push(error(`${at}.conditions`, "contains conditions that don't exist"));
    }
    if (actionParameters !== undefined && actionParameters !== null && !isPlainObject(actionParameters))
      errors.push(error(`${at}.actionParameters`, `${at}.actionParameters must be a \`object\` type`));
    permissions.push({
      action: actionId,
      actionParameters: isPlainObject(actionParameters) ? actionParameters : {},
      subject: typeof subject === 'string' ? subject : null,
      properties: isPlainObject(props) ? (props as Permission['properties']) : {},
      conditions: Array.isArray(conditions) ? (conditions as string[]) : [],
    });
  });
  const seen = new Set<string>();
  for (const permission of permissions) {
    const key = `${permission.action}\u0000${permission.subject ?? ''}`;
    if (seen.has(key)) {
      errors.push(error('permissions', 'Some permissions are duplicated (same action and subject)', list));
      break;
    }
    seen.add(key);
  }
  if (errors.length) fail(errors);
  return permissions;
}

/** A role's body (`POST /admin/roles`: name required; `PUT`: both optional), no other keys. */
export function checkRole(input: unknown, creating: boolean): { name?: string; description?: string | null } {
  const body = isPlainObject(input) ? input : {};
  const errors: FieldError[] = [];
  const unknown = Object.keys(body).filter((key) => key !== 'name' && key !== 'description');
  if (unknown.length) errors.push(error('', `this field has unspecified keys: ${unknown.join(', ')}`, body));
  const { name, description } = body;
  if (name === undefined || name === null || name === '') {
    if (creating || name !== undefined) errors.push(error('name', 'name is a required field'));
  } else if (typeof name !== 'string') errors.push(error('name', 'name must be a `string` type'));
  if (description !== undefined && description !== null && typeof description !== 'string')
    errors.push(error('description', 'description must be a `string` type'));
  if (errors.length) fail(errors);
  return {
    ...(typeof name === 'string' && name !== '' ? { name } : {}),
    ...(description !== undefined ? { description: description as string | null } : {}),
  };
}
