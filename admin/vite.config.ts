// The admin panel's build: served by Vellum at /admin from dist/admin/ (src/rest/admin-panel.ts).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/admin', import.meta.url)),
    emptyOutDir: true,
    // The libraries apart from the app: they change less often, so a new build of the app leaves them cached.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@mantine|@tanstack|@floating-ui)[\\/]/ }],
        },
      },
    },
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run admin:dev`: the app with hot reload, the API from a Vellum on :1337.
    proxy: { '^/admin/(login|content-types|content-manager|locales|api-tokens|roles|users|settings|webhooks)': 'http://127.0.0.1:1337' },
  },
});
