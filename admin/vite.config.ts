// The admin panel's build: served by Vellum at /admin from dist/admin/ (src/features/admin/panel.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../dist/admin', import.meta.url));

/** `.br` and `.gz` beside each script and style sheet: the server sends them to browsers that accept them. */
const precompress = (): Plugin => ({
  name: 'vellum-precompress',
  apply: 'build',
  closeBundle() {
    const assets = join(outDir, 'assets');
    for (const name of readdirSync(assets).filter((file) => /\.(js|css)$/.test(file))) {
      const bytes = readFileSync(join(assets, name));
      writeFileSync(
        join(assets, `${name}.br`),
        brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      );
      writeFileSync(join(assets, `${name}.gz`), gzipSync(bytes, { level: 9 }));
    }
  },
});

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  plugins: [react(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    // React and the router apart from the app: they change less often, so a new build leaves them cached.
    // Mantine's components go with the screens that use them (the edit view loads when first opened).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/,
              priority: 2,
            },
            // The rest of what the first screen runs (the frame, the list, the Mantine components they use) in one
            // chunk: rolldown made ~20 small chunks of it otherwise, each a request with ~1 KB of headers. Only the
            // modules it runs: with their dependencies (rolldown's default) Mantine's bare imports of siblings
            // (NativeSelect's of the combobox) came along, 6.5 KB of brotli the first screen never renders.
            { name: 'first-screen', tags: ['$initial'], priority: 1, includeDependenciesRecursively: false },
          ],
        },
      },
    },
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run admin:dev`: the app with hot reload, the API from a Vellum on :1337.
    proxy: {
      '^/admin/(login|content-types|content-manager|locales|api-tokens|roles|users|settings|webhooks|upload)':
        'http://127.0.0.1:1337',
      '^/content-type-builder/': 'http://127.0.0.1:1337',
    },
  },
});
