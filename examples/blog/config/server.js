module.exports = ({ env }) => ({
  // This machine only, as docs/security.md "The blog example" says (http://localhost:1337); HOST=0.0.0.0 serves every interface.
  host: env('HOST', 'localhost'),
  port: env.int('PORT', 1337),
});
