// What each users-permissions role may do, granted at start-up (run-time grants made with
// `vellum permissions grant` or the admin API are kept). Patterns use * as a wildcard.
module.exports = () => ({
  public: ['api::*.find', 'api::*.findOne', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'],
  authenticated: ['api::*', 'plugin::upload.content-api.*'],
});
