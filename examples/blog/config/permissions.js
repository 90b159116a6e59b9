// What each users-permissions role may do. This file seeds each grant once, at the first start
// that names it; afterwards the database decides: `vellum permissions grant|revoke` and the admin
// API change it, and a grant revoked there stays revoked (docs/users-permissions.md
// "Grants: config/permissions seeds, the database decides"). Patterns use * as a wildcard.
const READ = ['api::*.find', 'api::*.findOne', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'];

module.exports = () => ({
  public: READ,
  // Whoever registers reads what visitors read: registration is open, so it grants no writes.
  authenticated: READ,
  // The site's writers, given this role by an administrator: `vellum user create --role editor ...`.
  editor: ['api::*', 'plugin::upload.content-api.*'],
});
