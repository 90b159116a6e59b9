module.exports = ({ env }) => ({
  rest: {
    defaultLimit: 25,
    maxLimit: 100,
    withCount: true,
    // Vellum's response cache of GET reads (Strapi has none): REST_CACHE=false switches it off.
    cache: { enabled: env.bool('REST_CACHE', true) },
    // Who reads drafts (status=draft): roles that may create or update the type, and API tokens.
    // Public reads published versions only; 'find' would let it read drafts too (Strapi's rule).
    draftAccess: 'editors',
  },
});
