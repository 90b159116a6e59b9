/**
 * No export of `src/` that nothing imports (knip's check, which npm 11's lock file keeps out of
 * `npm ci`: its parser's platform bindings are optional dependencies the lock omits). Reads the
 * sources with TypeScript's parser only: no program, under a second. Values only: a type may be
 * exported for the signatures that name it. An export used only in its own file is un-exported; one
 * meant for people outside Vellum (project code, the CLI) is an entry.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { it } from 'node:test';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

/** Modules whose exports are for users of Vellum, not for other modules. */
const ENTRIES = new Set([
  'src/app/server.ts',
  'src/app/cli/main.ts',
  'src/strapi/public/strapi.ts',
  'src/strapi/public/utils.ts',
]);

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(path).isDirectory()
      ? walk(path)
      : /\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')
        ? [path]
        : [];
  });

const resolveImport = (from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.mts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
};

it('every export of src/ is imported somewhere', () => {
  const files = [...walk(join(root, 'src')), ...walk(join(root, 'test')), ...walk(join(root, 'bench'))];
  const used = new Map<string, Set<string>>(); // file -> names imported from it ('*': all)
  const use = (file: string | undefined, name: string) => {
    if (!file) return;
    if (!used.has(file)) used.set(file, new Set());
    used.get(file)!.add(name);
  };
  const exported = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const mine: string[] = [];
    const visit = (node: ts.Node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        const target = resolveImport(file, node.moduleSpecifier.text);
        if (ts.isImportDeclaration(node)) {
          const clause = node.importClause;
          if (!clause) use(target, '*');
          else {
            if (clause.name) use(target, 'default');
            const bindings = clause.namedBindings;
            if (bindings && ts.isNamespaceImport(bindings)) use(target, '*');
            if (bindings && ts.isNamedImports(bindings))
              for (const el of bindings.elements) use(target, (el.propertyName ?? el.name).text);
          }
        } else if (!node.exportClause) use(target, '*');
        else if (ts.isNamedExports(node.exportClause))
          for (const el of node.exportClause.elements) use(target, (el.propertyName ?? el.name).text);
        else use(target, '*');
      }
      // import('...') in code and in types
      if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        use(resolveImport(file, node.arguments[0].text), '*');
      }
      if (
        ts.isImportTypeNode(node) &&
        ts.isLiteralTypeNode(node.argument) &&
        ts.isStringLiteral(node.argument.literal)
      ) {
        use(resolveImport(file, node.argument.literal.text), '*');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (!relative(root, file).startsWith('src/') || /\.test\.ts$/.test(file)) continue;
    for (const statement of source.statements) {
      const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
      if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
      // Types may be exported for the signatures that use them: values only.
      if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) continue;
      if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) mine.push('default');
      else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations)
          if (ts.isIdentifier(declaration.name)) mine.push(declaration.name.text);
      } else if ('name' in statement && statement.name && ts.isIdentifier(statement.name as ts.Node))
        mine.push((statement.name as ts.Identifier).text);
    }
    exported.set(file, mine);
  }
  const unused: string[] = [];
  for (const [file, names] of exported) {
    const path = relative(root, file);
    if (ENTRIES.has(path)) continue;
    const imported = used.get(file) ?? new Set();
    if (imported.has('*')) continue;
    for (const name of names) if (!imported.has(name)) unused.push(`${path}: ${name}`);
  }
  assert.deepEqual(unused, [], 'exports nothing imports: un-export them, delete them, or list the module in ENTRIES');
});
