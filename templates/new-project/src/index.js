'use strict';

module.exports = {
  /** Runs before the application starts: register extensions here. */
  register(/* { strapi } */) {},

  /** Runs once the database is ready, before the server listens: seed data, subscribe to lifecycles. */
  bootstrap(/* { strapi } */) {},
};
