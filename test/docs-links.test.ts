/**
 * The documentation's links and paths, checked (unit tier: no server, no database): README.md and
 * every page under docs/ fail here, naming the file and line, when
 *   - a relative link's file does not exist (`[REST](rest.md)`, `![x](./screenshots/a.png)`);
 *   - a `#anchor` into a Markdown page matches none of its headings, slugged as VitePress slugs
 *     them (docs/.vitepress builds the site; `npm run docs:build` also fails on a dead page link);
 *   - a path of this repository under src/, test/, scripts/, bench/ or admin/ named in backticks
 *     (code spans and fenced blocks) or in a link does not exist.
 * A Strapi project's own paths (`src/api/...`, `src/index.ts`, ...) and paths with placeholders
 * (`src/**\/*.test.ts`, `<name>`, `:id`) name no file of this repository and are not checked.
 * The code cites the docs the same way (`// docs/rest.md "Pagination"`): in src/, test/, bench/,
 * scripts/ and examples/, such a citation fails when its page, or a quoted heading of it, does not
 * exist.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What the checker needs of a tree of files: paths are relative to the repository, with `/`. */
interface Tree {
  isFile(path: string): boolean;
  isDirectory(path: string): boolean;
  read(path: string): string;
}

interface Problem {
  file: string;
  line: number;
  message: string;
}

/** The folders whose paths are this repository's, and the Strapi-project paths that share `src/`. */
const CHECKED_ROOTS = ['src/', 'test/', 'scripts/', 'bench/', 'admin/'];
const PROJECT_PATHS = /^src\/(api|components|extensions|policies|middlewares|admin|bootstrap|index)(\/|\.|$)/;
const PLACEHOLDER = /[*<>{}:]|\.\.\./;

/**
 * VitePress's heading anchors (its slugify, from @mdit-vue/shared): the heading's text without its
 * Markdown, every run of spaces and punctuation one `-`, lower case, a leading digit prefixed `_`.
 */
function slugify(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036F]/g, '')
      // eslint-disable-next-line no-control-regex -- VitePress drops control characters from anchors
      .replace(/[\u0000-\u001f]/g, '')
      .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^-+|-+$/g, '')
      .replace(/^(\d)/, '_$1')
      .toLowerCase()
  );
}

/** A heading's text as rendered: code spans, emphasis, links and tags reduced to their text. */
function headingText(markdown: string): string {
  return markdown
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/\*\*(.+?)\*\*/g, '$1')
    .replace(/\*(.+?)\*/g, '$1')
    .replace(/(?<!\w)__(.+?)__(?!\w)/g, '$1')
    .replace(/(?<!\w)_(.+?)_(?!\w)/g, '$1')
    .trim();
}

interface Line {
  number: number;
  text: string;
  /** Inside a fenced code block (its fences included). */
  fenced: boolean;
}

function lines(markdown: string): Line[] {
  let fence: string | undefined;
  return markdown.split('\n').map((text, index) => {
    const opener = /^\s*(```+|~~~+)/.exec(text)?.[1];
    if (fence === undefined && opener) {
      fence = opener;
      return { number: index + 1, text, fenced: true };
    }
    if (fence !== undefined) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length && text.trim() === opener)
        fence = undefined;
      return { number: index + 1, text, fenced: true };
    }
    return { number: index + 1, text, fenced: false };
  });
}

/** The anchors of a page: its ATX headings' slugs (`{#id}` when given; repeats get `-1`, `-2`). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  for (const { text, fenced } of lines(markdown)) {
    const heading = fenced ? undefined : /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)?.[1];
    if (heading === undefined) continue;
    const custom = /\s*\{#([^}]+)\}$/.exec(heading);
    let slug = custom ? custom[1]! : slugify(headingText(heading));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    if (count > 0) slug = `${slug}-${count}`;
    found.add(slug);
  }
  return found;
}

/** Code spans of a line outside fenced blocks (a span may not cross a line in these pages' use). */
const codeSpans = (text: string): string[] => [...text.matchAll(/(`+)(.+?)\1/g)].map((m) => m[2]!);

/** Markdown link targets of a line, code spans left out: `[text](target)`, `![alt](target "title")`. */
function linkTargets(text: string): string[] {
  const bare = text.replace(/(`+)(.+?)\1/g, '');
  return [...bare.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** Paths of this repository in a piece of text: tokens starting with one of CHECKED_ROOTS. */
function repositoryPaths(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|[\s(`'"[=,])((?:src|test|scripts|bench|admin)\/[^\s`'"()[\],;]*)/g)) {
    let path = match[1]!.replace(/[.:]+$/, '');
    if (PLACEHOLDER.test(path) || PROJECT_PATHS.test(path)) continue;
    path = path.replace(/#.*$/, '');
    if (CHECKED_ROOTS.includes(path)) continue;
    found.push(path);
  }
  return found;
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/** Checks `files` (Markdown, relative to the repository) against `tree`. */
function checkDocs(files: string[], tree: Tree): Problem[] {
  const problems: Problem[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (path: string) => {
    let found = anchorCache.get(path);
    if (!found) anchorCache.set(path, (found = anchors(tree.read(path))));
    return found;
  };
  /** The file a link names: as written, a folder's index.md, or VitePress's clean link without `.md`. */
  const resolveTarget = (path: string): string | undefined => {
    if (tree.isFile(path)) return path;
    if (tree.isDirectory(path) && tree.isFile(posix.join(path, 'index.md'))) return posix.join(path, 'index.md');
    if (tree.isDirectory(path)) return path;
    if (tree.isFile(`${path}.md`)) return `${path}.md`;
    return undefined;
  };
  for (const file of files) {
    const dir = posix.dirname(file);
    for (const { number, text, fenced } of lines(tree.read(file))) {
      const report = (message: string) => problems.push({ file, line: number, message });
      if (!fenced) {
        for (const raw of linkTargets(text)) {
          if (isExternal(raw)) continue;
          const [pathPart = '', anchor] = raw.split('#', 2) as [string, string | undefined];
          let target = file;
          if (pathPart !== '') {
            const decoded = decodeURIComponent(pathPart.replace(/\?.*$/, ''));
            const joined = decoded.startsWith('/')
              ? posix.join(file.startsWith('docs/') ? 'docs' : '.', decoded)
              : posix.join(dir, decoded);
            const resolved = resolveTarget(posix.normalize(joined));
            if (resolved === undefined) {
              report(`link to ${raw}: ${posix.normalize(joined)} does not exist`);
              continue;
            }
            target = resolved;
          }
          if (anchor !== undefined && anchor !== '' && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
            report(`link to ${raw}: ${target} has no heading whose anchor is #${anchor}`);
          }
        }
      }
      const code = fenced ? [text] : [...codeSpans(text), ...linkTargets(text).filter((t) => !isExternal(t))];
      for (const piece of code) {
        for (const path of repositoryPaths(piece)) {
          if (!tree.isFile(path) && !tree.isDirectory(path.replace(/\/$/, ''))) report(`${path} does not exist`);
        }
      }
    }
  }
  return problems;
}

/** The repository on disk. */
const disk: Tree = {
  isFile: (path) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isFile(),
  isDirectory: (path) => existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory(),
  read: (path) => readFileSync(join(ROOT, path), 'utf8'),
};

/** README.md and docs/**\/*.md, the site's build output and cache left out. */
function documentationFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === 'cache') return [];
      return statSync(path).isDirectory()
        ? walk(path)
        : name.endsWith('.md')
          ? [relative(ROOT, path).split('\\').join('/')]
          : [];
    });
  return ['README.md', ...walk(join(ROOT, 'docs'))];
}

/** Citations of the docs in code: `docs/<page>.md`, optionally followed by a quoted heading. */
function checkCitations(files: string[], tree: Tree): Problem[] {
  const problems: Problem[] = [];
  for (const file of files) {
    tree
      .read(file)
      .split('\n')
      .forEach((text, index) => {
        for (const match of text.matchAll(/(?<![\w/.-])(docs\/[\w/-]+\.md)(?: "([^"]+)")?/g)) {
          const [, page, heading] = match as unknown as [string, string, string | undefined];
          const report = (message: string) => problems.push({ file, line: index + 1, message });
          if (!tree.isFile(page)) report(`cites ${page}, which does not exist`);
          else if (heading !== undefined && !anchors(tree.read(page)).has(slugify(headingText(heading))))
            report(`cites ${page} "${heading}", a heading it does not have`);
        }
      });
  }
  return problems;
}

/** The code that may cite the docs: src/, test/, bench/, scripts/, examples/ (this file's samples left out). */
function codeFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === '.tmp') return [];
      return statSync(path).isDirectory()
        ? walk(path)
        : /\.(ts|tsx|mts|mjs|cjs|js)$/.test(name)
          ? [relative(ROOT, path).split('\\').join('/')]
          : [];
    });
  return ['src', 'test', 'bench', 'scripts', 'examples']
    .flatMap((dir) => walk(join(ROOT, dir)))
    .filter((file) => file !== 'test/docs-links.test.ts');
}

/** An in-memory tree for the checker's own tests. */
function memory(files: Record<string, string>): Tree {
  const folders = new Set(
    Object.keys(files).flatMap((path) =>
      path
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  return {
    isFile: (path) => path in files,
    isDirectory: (path) => folders.has(path.replace(/\/$/, '')),
    read: (path) => files[path] ?? assert.fail(`no ${path}`),
  };
}

const format = (problems: Problem[]) => problems.map((p) => `${p.file}:${p.line}: ${p.message}`);

describe('documentation links', () => {
  it('finds README.md and the pages of docs/', () => {
    const files = documentationFiles();
    assert.ok(files.includes('README.md') && files.includes('docs/index.md'), files.join(', '));
    assert.ok(files.length > 10, `only ${files.length} pages`);
  });

  it('has no broken relative link, anchor or repository path', () => {
    const problems = format(checkDocs(documentationFiles(), disk));
    assert.deepEqual(problems, [], `broken in the documentation:\n${problems.join('\n')}`);
  });

  it('is cited by src/, test/, bench/, scripts/ and examples/ with pages and headings that exist', () => {
    const files = codeFiles();
    assert.ok(files.includes('src/core/errors.ts'), 'the code files are found');
    const problems = format(checkCitations(files, disk));
    assert.deepEqual(problems, [], `citations of the docs that name nothing:\n${problems.join('\n')}`);
  });

  it('fails on a citation of a missing page or heading', () => {
    const tree = memory({
      'docs/rest.md': '# REST\n\n## Pagination\n\n## Earlier response format (v4)\n',
      'src/a.ts': [
        '// docs/rest.md "Pagination": fine',
        'describe(\'format, docs/rest.md "Earlier response format (v4)"\', () => {});',
        '/** docs/rest.md "Paging" and docs/gone.md, docs/rest.md */',
      ].join('\n'),
    });
    assert.deepEqual(format(checkCitations(['src/a.ts'], tree)), [
      'src/a.ts:3: cites docs/rest.md "Paging", a heading it does not have',
      'src/a.ts:3: cites docs/gone.md, which does not exist',
    ]);
  });

  it('slugs headings as VitePress does', () => {
    assert.equal(slugify(headingText('Differences from Strapi 5.54')), 'differences-from-strapi-5-54');
    assert.equal(slugify(headingText('Admin panel (`admin/`)')), 'admin-panel-admin');
    assert.equal(
      slugify(headingText('Grants: config/permissions seeds, the database decides')),
      'grants-config-permissions-seeds-the-database-decides',
    );
    assert.equal(
      slugify(headingText('Schemas: projects Strapi starts on, Vellum starts on')),
      'schemas-projects-strapi-starts-on-vellum-starts-on',
    );
    assert.equal(slugify(headingText('Earlier response format (v4)')), 'earlier-response-format-v4');
    assert.equal(slugify(headingText("What's **new** in [REST](rest.md)")), 'what-s-new-in-rest');
    assert.equal(slugify('2026 figures'), '_2026-figures');
  });

  it('fails on a broken link, a missing anchor and a missing path, naming file and line', () => {
    const tree = memory({
      'README.md': '# Title\n\nSee [the guide](docs/guide.md#setup) and [nothing](docs/missing.md).\n',
      'docs/guide.md': [
        '# Guide',
        '',
        '## Setup',
        '',
        '```sh',
        '# not a heading',
        'node test/run.mjs',
        'node test/gone.mjs',
        '```',
        '',
        '## Setup',
        '',
        'A [repeat](#setup-1), a [fenced comment](#not-a-heading), [another page](other#nope), [clean](other).',
        'Code: `src/real.ts`, `src/unreal.ts`, `src/api/article/routes/x.js`, `src/**/*.test.ts`, `src/<name>.ts`.',
        '![shot](./screenshots/a.png) ![none](./screenshots/b.png) [site](https://example.com/x.md#y)',
        '`/admin/content/...` is a URL, [code](../src/real.ts) a link to a file.',
      ].join('\n'),
      'docs/other.md': '# Other\n\n## Here {#custom}\n\n[back](guide.md#custom) [there](other.md#custom)\n',
      'docs/screenshots/a.png': '',
      'src/real.ts': '',
      'test/run.mjs': '',
    });
    const problems = format(checkDocs(['README.md', 'docs/guide.md', 'docs/other.md'], tree));
    assert.deepEqual(problems, [
      'README.md:3: link to docs/missing.md: docs/missing.md does not exist',
      'docs/guide.md:8: test/gone.mjs does not exist',
      'docs/guide.md:13: link to #not-a-heading: docs/guide.md has no heading whose anchor is #not-a-heading',
      'docs/guide.md:13: link to other#nope: docs/other.md has no heading whose anchor is #nope',
      'docs/guide.md:14: src/unreal.ts does not exist',
      'docs/guide.md:15: link to ./screenshots/b.png: docs/screenshots/b.png does not exist',
      'docs/other.md:5: link to guide.md#custom: docs/guide.md has no heading whose anchor is #custom',
    ]);
  });

  it('passes a page whose links, anchors and paths all exist', () => {
    const tree = memory({
      'docs/a.md':
        '# A\n\n## Two words\n\n[self](#two-words) [b](b.md) [b title](b.md#b "B") `src/x.ts` `bench/` `scripts/y.mjs`\n',
      'docs/b.md': '# B\n',
      'src/x.ts': '',
      'bench/run.mjs': '',
      'scripts/y.mjs': '',
    });
    assert.deepEqual(format(checkDocs(['docs/a.md'], tree)), []);
  });
});
