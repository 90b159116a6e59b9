/**
 * What `vellum start` leaves to first use stays out of its static imports: graphql-js loads with the
 * first GraphQL operation (features/graphql/index.ts), jose with the first token signed or checked
 * (users-permissions/jwt.ts), the Content-Type Builder's rules with the first schema change
 * (content-type-builder/routes.ts), the admin API's routes with its first request (app/admin-api.ts). A value import of one of them (or of a module that has one)
 * from the start's modules would put it back in the bundle's first chunks, compiled and evaluated
 * at every start: graphql ~1 MB and the schema, jose 90 KB, the builder's ~80 zod schemas
 * (docs/performance.md "Start-up and memory").
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The modules a file imports for their values: `import type` and dynamic `import()` left out. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022);
  const specs: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          clause.namedBindings &&
          ts.isNamedImports(clause.namedBindings) &&
          clause.namedBindings.elements.length > 0 &&
          clause.namedBindings.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) specs.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const clause = statement.exportClause;
      const typeOnly =
        statement.isTypeOnly ||
        (clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
      if (!typeOnly) specs.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specs;
}

/** Every file and package reached by value imports from `entry`. */
function closure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const spec of valueImports(file)) {
      if (!spec.startsWith('.')) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        continue;
      }
      const target = resolve(dirname(file), spec);
      const candidates = [target.replace(/\.js$/, '.ts'), target.replace(/\.js$/, '.tsx'), join(target, 'index.ts')];
      const found = candidates.find((candidate) => existsSync(candidate));
      if (found) pending.push(found);
    }
  }
  return { files, packages };
}

describe("vellum start's static imports", () => {
  const { files, packages } = closure(join(SRC, 'app/cli/commands.ts'));

  it('reach the GraphQL feature but neither graphql-js nor its executor', () => {
    assert.ok(files.has(join(SRC, 'features/graphql/index.ts')), 'the walk follows the server to the GraphQL feature');
    assert.equal(packages.has('graphql'), false, 'graphql is imported for its values at start');
    const executorSide = [...files].filter((file) => /features\/graphql\/(executor|schema\/|resolvers\/)/.test(file));
    assert.deepEqual(
      executorSide.map((file) => relative(SRC, file)),
      [],
    );
  });

  it('leave jose and the Content-Type Builder rules to their first use', () => {
    assert.ok(files.has(join(SRC, 'features/users-permissions/oauth.ts')), 'the walk reaches the sign-in providers');
    assert.equal(packages.has('jose'), false, 'jose is imported for its values at start');
    assert.ok(files.has(join(SRC, 'features/content-type-builder/reads.ts')), "the walk reaches the builder's reads");
    assert.equal(files.has(join(SRC, 'features/content-type-builder/validation.ts')), false);
  });

  it("leave the admin API's routes to its first request", () => {
    assert.ok(files.has(join(SRC, 'app/admin-api.ts')), 'the walk reaches the admin API’s dispatch');
    const routes = [
      'features/admin/routes.ts',
      'features/admin/content-manager.ts',
      'features/admin/panel.ts',
      'features/audit/routes.ts',
      'features/history/routes.ts',
      'features/releases/routes.ts',
      'features/content-type-builder/routes.ts',
    ];
    assert.deepEqual(
      routes.filter((file) => files.has(join(SRC, file))),
      [],
    );
  });

  it('see a value import through `export ... from` and leave type-only ones out', () => {
    assert.ok(packages.has('fastify'));
    assert.ok(packages.has('kysely'));
  });
});
