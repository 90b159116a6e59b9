/**
 * `strapi.customFields.register({ name, plugin, type, inputSize })`, as Strapi's custom-fields
 * registry checks it: a name and one of the types a custom field may have, registered as
 * `plugin::<plugin>.<name>` (or `global::<name>` without a plugin). A schema attribute of
 * `type: "customField"` is stored and validated as the type registered for its `customField`
 * (schema/build.ts `resolveCustomFields`, once `register` has run, before the tables are made).
 * Vellum runs no npm plugin's server code: a plugin's custom field is registered by the project's
 * own `register`, under the plugin's name (Strapi would need the plugin installed).
 */
import type { ScalarType } from '../core/schema/model.js';

const ALLOWED_TYPES = new Set([
  'biginteger',
  'boolean',
  'date',
  'datetime',
  'decimal',
  'email',
  'enumeration',
  'float',
  'integer',
  'json',
  'password',
  'richtext',
  'string',
  'text',
  'time',
  'uid',
]);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export interface CustomFields {
  register(customField: unknown): void;
  /** Registered custom fields by uid (`plugin::color-picker.color`). */
  getAll(): Record<string, Record<string, unknown>>;
}

export function createCustomFields(): CustomFields & { typeOf(uid: string): ScalarType | undefined } {
  const registered: Record<string, Record<string, unknown>> = {};
  return {
    register(customField) {
      for (const cf of Array.isArray(customField) ? customField : [customField]) {
        if (!isRecord(cf) || !('name' in cf) || !('type' in cf))
          throw new Error(`Custom fields require a 'name' and 'type' key`);
        const { name, plugin, type, inputSize } = cf;
        if (typeof type !== 'string' || !ALLOWED_TYPES.has(type))
          throw new Error(
            `Custom field type: '${String(type)}' is not a valid Strapi type or it can't be used with a Custom Field`,
          );
        if (typeof name !== 'string' || !/^(?![0-9])[a-zA-Z0-9$_-]+$/.test(name))
          throw new Error(`Custom field name: '${String(name)}' is not a valid object key`);
        if (inputSize) {
          if (!isRecord(inputSize) || !('default' in inputSize) || !('isResizable' in inputSize))
            throw new Error(`inputSize should be an object with 'default' and 'isResizable' keys`);
          if (![4, 6, 8, 12].includes(inputSize.default as number))
            throw new Error('Custom fields require a valid default input size');
          if (typeof inputSize.isResizable !== 'boolean')
            throw new Error('Custom fields should specify if their input is resizable');
        }
        const uid = typeof plugin === 'string' && plugin !== '' ? `plugin::${plugin}.${name}` : `global::${name}`;
        if (uid in registered) throw new Error(`Custom field: '${uid}' has already been registered`);
        registered[uid] = cf;
      }
    },
    getAll: () => registered,
    typeOf: (uid) => registered[uid]?.type as ScalarType | undefined,
  };
}
