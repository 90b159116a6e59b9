// The documentation site: `npm run docs:build` builds docs/ into docs/.vitepress/dist (and fails
// on a dead link), `npm run docs` builds it and serves the result on http://localhost:4173.
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'Vellum',
  description: "A headless CMS content service that speaks Strapi v5's content API",
  lang: 'en',
  cleanUrls: true,
  lastUpdated: false,
  themeConfig: {
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'APIs', link: '/rest' },
      { text: 'Coming from Strapi', link: '/coming-from-strapi' },
      { text: 'Contributing', link: '/contributing/' },
    ],
    sidebar: [
      {
        text: 'Guide',
        items: [
          { text: 'Overview', link: '/' },
          { text: 'Getting started', link: '/getting-started' },
          { text: 'Configuration', link: '/configuration' },
          { text: 'CLI', link: '/cli' },
          { text: 'Deployment', link: '/deployment' },
        ],
      },
      {
        text: 'APIs',
        items: [
          { text: 'REST API', link: '/rest' },
          { text: 'GraphQL', link: '/graphql' },
          { text: 'Errors', link: '/errors' },
          { text: 'Users, roles, permissions and API tokens', link: '/users-permissions' },
          { text: 'Sign-in and accounts', link: '/auth' },
          { text: 'Email', link: '/email' },
          { text: 'Media library', link: '/media' },
          { text: 'Webhooks, cron and scheduled publishing', link: '/webhooks-cron' },
          { text: 'Admin panel', link: '/admin-panel' },
          { text: 'Audit log', link: '/audit-log' },
          { text: 'Content history', link: '/history' },
          { text: 'Releases', link: '/releases' },
          { text: 'Content-Type Builder', link: '/content-type-builder' },
          { text: 'OpenAPI', link: '/openapi' },
        ],
      },
      {
        text: 'Project code',
        items: [
          { text: 'Project code', link: '/project-code' },
          { text: 'Lifecycles and data APIs', link: '/lifecycles' },
        ],
      },
      {
        text: 'Coming from Strapi',
        items: [
          { text: 'Differences from Strapi', link: '/coming-from-strapi' },
          { text: 'Import and export', link: '/import-export' },
          { text: 'Real projects tried', link: '/real-projects' },
        ],
      },
      {
        text: 'How it works',
        items: [
          { text: 'Security', link: '/security' },
          { text: 'Architecture', link: '/architecture' },
          { text: 'Performance', link: '/performance' },
          { text: 'Decisions', link: '/decisions' },
        ],
      },
      {
        text: 'Contributing',
        items: [
          { text: 'Overview', link: '/contributing/' },
          { text: 'Testing', link: '/contributing/testing' },
          { text: 'Admin panel', link: '/contributing/admin-panel' },
          { text: 'Checking against the real Strapi', link: '/contributing/differential' },
          { text: 'Write sequences', link: '/contributing/sequences' },
          { text: 'Performance work', link: '/contributing/performance' },
          { text: 'Notes by area', link: '/contributing/internals' },
        ],
      },
    ],
  },
});
