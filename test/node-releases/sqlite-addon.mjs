// Preloaded (NODE_OPTIONS=--import=...) into the processes test/node-releases/run.mjs starts on
// Node 22 and 24: `better-sqlite3` resolves to a copy built for that release's ABI
// (VELLUM_SQLITE_DRIVER, its lib/index.js). The project's own copy stays built for the machine's
// Node; both live side by side.
import Module, { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const driver = process.env.VELLUM_SQLITE_DRIVER;
if (driver) {
  const url = pathToFileURL(driver).href;
  // `import` (the bundle's SQLite dialect): module.registerHooks, Node 22.15+.
  registerHooks({
    resolve: (specifier, context, next) =>
      specifier === 'better-sqlite3' ? { url, format: 'commonjs', shortCircuit: true } : next(specifier, context),
  });
  // `require.resolve` (the SQLite reader threads get the main thread's answer, and start without
  // this preload), which the hooks do not see: CommonJS's own resolver, as module aliases do it.
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    return request === 'better-sqlite3' ? driver : resolveFilename.call(this, request, ...rest);
  };
}
