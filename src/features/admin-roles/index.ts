/** Administrator roles and permissions (Strapi's admin RBAC): what the rest of src/ may use. */
export { AdminAbility, fieldTree, type FieldTree, type Permission, type Scope } from './ability.js';
export { EXPLORER, fieldPaths, permissionSections, type LocaleChoice } from './registry.js';
export { pickFields } from './fields.js';
export { AdminRoles, SUPER_ADMIN_CODE, type AdminRole, type RoleSummary } from './roles.js';
export {
  RoleTransfer,
  type ArchivedPermission,
  type ArchivedRole,
  type PermissionRecord,
  type RoleImportPlan,
  type RoleImportResult,
  type RoleRecord,
} from './role-transfer.js';
export { adminRoleTables } from './tables.js';
export { checkRole } from './validation.js';
