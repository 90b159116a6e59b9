/**
 * Strapi 5's rich text "blocks" (a `blocks` attribute's JSON) and the editor's value, both ways.
 * Strapi's format is Slate's own (Strapi's editor is Slate): paragraph, heading (`level` 1-6),
 * quote, code (`language`), list (`format` ordered | unordered, `list-item` children, nested lists),
 * image (`image`: a media file, void), and inline links (`url`) around text leaves
 * `{ type: 'text', text, bold?, italic?, underline?, strikethrough?, code? }`.
 * No React and no Slate here: the unit tests run it in Node (blocks.test.ts).
 */

export const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
export type Mark = (typeof MARKS)[number];

export interface BlockText {
  type?: 'text';
  text: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strikethrough?: boolean;
  code?: boolean;
}

export interface BlockElement {
  type: string;
  children: BlockNode[];
  level?: number;
  format?: 'ordered' | 'unordered';
  url?: string;
  language?: string;
  image?: Record<string, unknown>;
  indentLevel?: number;
}

export type BlockNode = BlockElement | BlockText;

/** The block kinds the toolbar's select offers, by the name it shows. */
export const BLOCK_KINDS = [
  { value: 'paragraph', label: 'Paragraph' },
  ...[1, 2, 3, 4, 5, 6].map((level) => ({ value: `heading-${level}`, label: `Heading ${level}` })),
  { value: 'quote', label: 'Quote' },
  { value: 'code', label: 'Code block' },
  { value: 'list-unordered', label: 'Bulleted list' },
  { value: 'list-ordered', label: 'Numbered list' },
] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number]['value'];

/** The block a kind stands for, without children (what the toolbar sets on the blocks chosen). */
export function blockOfKind(kind: BlockKind): {
  type: string;
  level?: number;
  format?: 'ordered' | 'unordered';
  language?: string;
} {
  if (kind.startsWith('heading-')) return { type: 'heading', level: Number(kind.slice('heading-'.length)) };
  if (kind === 'list-ordered') return { type: 'list', format: 'ordered' };
  if (kind === 'list-unordered') return { type: 'list', format: 'unordered' };
  // Strapi's editor names a new code block's language (plaintext until one is picked).
  if (kind === 'code') return { type: 'code', language: 'plaintext' };
  return { type: kind };
}

/** A block's kind as the toolbar shows it (a list item's: its list's). */
export function kindOf(block: BlockElement, list?: BlockElement): BlockKind {
  if (list) return list.format === 'ordered' ? 'list-ordered' : 'list-unordered';
  if (block.type === 'heading') return `heading-${Math.min(6, Math.max(1, Number(block.level) || 1))}` as BlockKind;
  if (block.type === 'quote' || block.type === 'code') return block.type;
  return 'paragraph';
}

/**
 * The languages Strapi 5's editor offers a code block (stored as its `language`; `plaintext` when
 * none was picked), by the name its select shows.
 */
export const CODE_LANGUAGES: readonly { value: string; label: string }[] = (
  [
    ['asm', 'Assembly'],
    ['bash', 'Bash'],
    ['c', 'C'],
    ['clojure', 'Clojure'],
    ['cobol', 'COBOL'],
    ['cpp', 'C++'],
    ['csharp', 'C#'],
    ['css', 'CSS'],
    ['dart', 'Dart'],
    ['dockerfile', 'Dockerfile'],
    ['elixir', 'Elixir'],
    ['erlang', 'Erlang'],
    ['fortran', 'Fortran'],
    ['fsharp', 'F#'],
    ['go', 'Go'],
    ['graphql', 'GraphQL'],
    ['groovy', 'Groovy'],
    ['haskell', 'Haskell'],
    ['haxe', 'Haxe'],
    ['html', 'HTML'],
    ['ini', 'INI'],
    ['java', 'Java'],
    ['javascript', 'JavaScript'],
    ['jsx', 'JavaScript (React)'],
    ['json', 'JSON'],
    ['julia', 'Julia'],
    ['kotlin', 'Kotlin'],
    ['latex', 'LaTeX'],
    ['lua', 'Lua'],
    ['markdown', 'Markdown'],
    ['matlab', 'MATLAB'],
    ['makefile', 'Makefile'],
    ['objectivec', 'Objective-C'],
    ['perl', 'Perl'],
    ['php', 'PHP'],
    ['plaintext', 'Plain text'],
    ['powershell', 'PowerShell'],
    ['python', 'Python'],
    ['r', 'R'],
    ['ruby', 'Ruby'],
    ['rust', 'Rust'],
    ['sas', 'SAS'],
    ['scala', 'Scala'],
    ['scheme', 'Scheme'],
    ['shell', 'Shell'],
    ['sql', 'SQL'],
    ['stata', 'Stata'],
    ['swift', 'Swift'],
    ['typescript', 'TypeScript'],
    ['tsx', 'TypeScript (React)'],
    ['vbnet', 'VB.NET'],
    ['xml', 'XML'],
    ['yaml', 'YAML'],
  ] as const
).map(([value, label]) => ({ value, label }));

/** A code block's language as its select shows it: a language Strapi does not list is offered as it is stored. */
export function codeLanguageOptions(current: string | undefined): { value: string; label: string }[] {
  if (!current || CODE_LANGUAGES.some((language) => language.value === current)) return [...CODE_LANGUAGES];
  return [...CODE_LANGUAGES, { value: current, label: current }];
}

/** The keys of a media file an image block keeps, as Strapi's editor picks them. */
export const IMAGE_FIELDS = [
  'name',
  'alternativeText',
  'url',
  'caption',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
] as const;

/**
 * The image block of a media library file, as Strapi's editor writes it: the file's fields above
 * (not its id), the alternative text defaulting to the name, a local file's URL made absolute with
 * the server's address (`origin`), and the empty text child of a void block.
 */
export function imageBlock(file: Record<string, unknown>, origin: string): BlockElement {
  const image: Record<string, unknown> = {};
  for (const key of IMAGE_FIELDS) if (file[key] !== undefined) image[key] = file[key];
  image.alternativeText = image.alternativeText || image.name;
  if (typeof image.url === 'string' && image.url.startsWith('/')) image.url = `${origin}${image.url}`;
  return { type: 'image', image, children: [{ type: 'text', text: '' }] };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (node: Record<string, unknown>): boolean =>
  typeof node.text === 'string' && !Array.isArray(node.children);

export const emptyParagraph = (): BlockElement => ({ type: 'paragraph', children: [{ type: 'text', text: '' }] });

/** An element as the editor needs it: every element has children, its leaves are texts; other keys are kept as stored. */
function editorElement(node: Record<string, unknown>): BlockElement {
  // An image is void: its one child is the empty text Strapi stores.
  if (node.type === 'image') return { ...(node as unknown as BlockElement), children: [{ type: 'text', text: '' }] };
  const children = (Array.isArray(node.children) ? node.children : [])
    .filter(isRecord)
    .map((child) => (isText(child) ? (child as unknown as BlockText) : editorElement(child)));
  return {
    ...(node as unknown as BlockElement),
    type: typeof node.type === 'string' ? node.type : 'paragraph',
    children: children.length ? children : [{ type: 'text', text: '' }],
  };
}

/**
 * The editor's value of a stored blocks value: a valid Strapi value as it is (the same nodes, keys
 * and order); nothing, an empty list or something else, one empty paragraph (Slate needs a block).
 */
export function toEditorValue(stored: unknown): BlockElement[] {
  const blocks = Array.isArray(stored)
    ? stored
        .filter((node) => isRecord(node) && !isText(node))
        .map((node) => editorElement(node as Record<string, unknown>))
    : [];
  return blocks.length ? blocks : [emptyParagraph()];
}

const isEmptyParagraph = (block: BlockElement): boolean =>
  block.type === 'paragraph' && block.children.every((child) => 'text' in child && child.text === '');

/** A leaf as Strapi stores it: `type: 'text'`, its text, the marks that are on. */
function apiText(leaf: BlockText): BlockText {
  const text: BlockText = { ...leaf, type: 'text', text: leaf.text };
  for (const mark of MARKS) if (!text[mark]) delete text[mark];
  return text;
}

function apiNode(node: BlockNode): BlockNode {
  if (!('children' in node)) return apiText(node);
  if (node.type === 'image') return { ...node, children: [{ type: 'text' as const, text: '' }] };
  return { ...node, children: node.children.map(apiNode) };
}

/**
 * The API's value of the editor's: Strapi's format (every leaf `type: 'text'`, no marks that are
 * off); an editor left empty (one empty paragraph, as Strapi's editor normalises it) is null.
 */
export function toApiValue(value: unknown): BlockElement[] | null {
  const blocks = Array.isArray(value)
    ? (value as BlockNode[]).filter((node): node is BlockElement => isRecord(node) && 'children' in node)
    : [];
  if (blocks.length === 0 || (blocks.length === 1 && isEmptyParagraph(blocks[0]!))) return null;
  return blocks.map((block) => apiNode(block) as BlockElement);
}

/** A link's address as the editor accepts it: http(s), mailto, tel or a relative path; else null. */
export function safeUrl(input: string): string | null {
  const url = input.trim();
  if (url === '') return null;
  if (/^(https?:|mailto:|tel:)/i.test(url) || /^[/#?]/.test(url)) return url;
  // "example.com/page": a web address without its scheme.
  if (/^[\w-]+(\.[\w-]+)+([/?#].*)?$/.test(url)) return `https://${url}`;
  return null;
}
