module.exports = ({ env }) => ({
  // This machine only; HOST=0.0.0.0 serves every interface (behind a proxy, in a container).
  host: env('HOST', 'localhost'),
  port: env.int('PORT', 1337),
});
