module.exports = ({ env }) => ({
  rest: {
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
    // Vellum's response cache of GET reads (Strapi has none): REST_CACHE=false switches it off.
    cache: { enabled: env.bool('REST_CACHE', true) },
  },
});
