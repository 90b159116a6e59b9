/** What the admin panel (admin/src) reads of users-and-permissions: the settings screens' values. */
export type { AdvancedSettingsValue } from './advanced.js';
export type { ProviderSettingsValue } from './providers.js';
