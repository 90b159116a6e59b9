module.exports = ({ env }) => ({
  // This machine only, as the README says (http://localhost:1337); HOST=0.0.0.0 serves every interface.
  host: env('HOST', 'localhost'),
  port: env.int('PORT', 1337),
});
