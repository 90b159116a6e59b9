// Strapi blocks <-> the editor's value (run by the unit tier: npm run test:unit -- admin/src).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  blockOfKind,
  CODE_LANGUAGES,
  codeLanguageOptions,
  emptyParagraph,
  imageBlock,
  kindOf,
  safeUrl,
  toApiValue,
  toEditorValue,
  type BlockElement,
} from './blocks.ts';
import { apiData, formValues, modelsOf } from './fields.ts';

/** Every kind of node Strapi 5's editor writes, as the API answers them. */
const stored: BlockElement[] = [
  { type: 'heading', level: 2, children: [{ type: 'text', text: 'A heading' }] },
  {
    type: 'paragraph',
    children: [
      { type: 'text', text: 'Some ' },
      { type: 'text', text: 'bold', bold: true },
      { type: 'text', text: ' and ', italic: true, underline: true },
      { type: 'text', text: 'struck', strikethrough: true },
      { type: 'text', text: ' ' },
      { type: 'text', text: 'code()', code: true },
      { type: 'text', text: ', ' },
      { type: 'link', url: 'https://example.com', children: [{ type: 'text', text: 'a link' }] },
      { type: 'text', text: '' },
    ],
  },
  {
    type: 'list',
    format: 'unordered',
    children: [
      { type: 'list-item', children: [{ type: 'text', text: 'one' }] },
      { type: 'list-item', children: [{ type: 'text', text: 'two' }] },
      {
        type: 'list',
        format: 'ordered',
        indentLevel: 1,
        children: [{ type: 'list-item', children: [{ type: 'text', text: 'nested' }] }],
      },
    ],
  },
  { type: 'quote', children: [{ type: 'text', text: 'Quoted' }] },
  { type: 'code', language: 'javascript', children: [{ type: 'text', text: 'let a = 1;\nlet b = 2;' }] },
  {
    type: 'image',
    image: { id: 3, name: 'cat.png', url: '/uploads/cat.png', width: 10, height: 10, alternativeText: 'A cat' },
    children: [{ type: 'text', text: '' }],
  },
];

describe('admin panel: blocks <-> the editor', () => {
  it('loads a stored value into the editor unchanged, and writes it back the same', () => {
    const copy = structuredClone(stored);
    const value = toEditorValue(copy);
    assert.deepEqual(value, stored);
    assert.deepEqual(toApiValue(value), stored);
    assert.deepEqual(copy, stored, 'the stored value is not changed in place');
  });

  it('gives an empty or missing value one empty paragraph, and writes an empty editor as null', () => {
    for (const empty of [null, undefined, [], 'text', { type: 'paragraph' }, [{ text: 'a leaf at the top' }]])
      assert.deepEqual(toEditorValue(empty), [emptyParagraph()]);
    assert.equal(toApiValue([emptyParagraph()]), null);
    assert.equal(toApiValue([{ type: 'paragraph', children: [{ text: '' }] }]), null);
    assert.equal(toApiValue([]), null);
    assert.equal(toApiValue(null), null);
    // Two empty paragraphs are the editor's content, as in Strapi.
    assert.equal(toApiValue([emptyParagraph(), emptyParagraph()])?.length, 2);
  });

  it('gives every element children, and an image its one empty text', () => {
    assert.deepEqual(toEditorValue([{ type: 'paragraph' }, { type: 'image', image: { id: 1 } }]), [
      { type: 'paragraph', children: [{ type: 'text', text: '' }] },
      { type: 'image', image: { id: 1 }, children: [{ type: 'text', text: '' }] },
    ]);
  });

  it('writes the leaves the editor makes in Strapi format: type text, no marks that are off', () => {
    // Slate adds text nodes without a type (splits, new blocks); removing a mark may leave it false.
    const edited = [
      {
        type: 'paragraph',
        children: [
          { text: 'plain', bold: false },
          { text: 'bold', bold: true, italic: undefined },
        ],
      },
    ] as unknown as BlockElement[];
    assert.deepEqual(toApiValue(edited), [
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'plain' },
          { type: 'text', text: 'bold', bold: true },
        ],
      },
    ]);
  });

  it('maps the toolbar kinds to blocks and back', () => {
    assert.deepEqual(blockOfKind('heading-3'), { type: 'heading', level: 3 });
    assert.deepEqual(blockOfKind('list-ordered'), { type: 'list', format: 'ordered' });
    assert.deepEqual(blockOfKind('code'), { type: 'code', language: 'plaintext' });
    assert.equal(kindOf({ type: 'heading', level: 4, children: [] }), 'heading-4');
    assert.equal(
      kindOf({ type: 'list-item', children: [] }, { type: 'list', format: 'unordered', children: [] }),
      'list-unordered',
    );
    assert.equal(kindOf({ type: 'image', children: [] }), 'paragraph');
  });

  it('accepts web, mail and relative links, and refuses scripts', () => {
    assert.equal(safeUrl(' https://example.com/a '), 'https://example.com/a');
    assert.equal(safeUrl('example.com/page'), 'https://example.com/page');
    assert.equal(safeUrl('/about'), '/about');
    assert.equal(safeUrl('mailto:a@example.com'), 'mailto:a@example.com');
    assert.equal(safeUrl('javascript:alert(1)'), null);
    assert.equal(safeUrl(''), null);
  });

  it('sends a blocks attribute only when edited, in Strapi format', () => {
    const attributes = [{ name: 'content', type: 'blocks', required: false, localized: false }];
    const models = modelsOf({ contentTypes: [], components: [] });
    const initial = formValues(attributes, { content: stored }, models);
    assert.deepEqual(initial.content, stored);
    assert.deepEqual(apiData(attributes, initial, models, initial), {});
    const edited = { content: [...stored.slice(0, 1)] };
    assert.deepEqual(apiData(attributes, edited, models, initial), { content: stored.slice(0, 1) });
    assert.deepEqual(apiData(attributes, formValues(attributes, null, models), models), { content: null });
  });

  it("makes an image block of a library file as Strapi's editor does", () => {
    const formats = {
      thumbnail: {
        name: 'thumbnail_cat.png',
        url: '/uploads/thumbnail_cat.png',
        width: 156,
        height: 100,
        size: 3.2,
        mime: 'image/png',
      },
    };
    const file = {
      id: 7,
      documentId: 'abc',
      name: 'cat.png',
      alternativeText: null,
      caption: null,
      width: 640,
      height: 410,
      formats,
      hash: 'cat_123',
      ext: '.png',
      mime: 'image/png',
      size: 12.5,
      url: '/uploads/cat_123.png',
      previewUrl: null,
      provider: 'local',
      provider_metadata: null,
      folderPath: '/',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-02T00:00:00.000Z',
    };
    const block = imageBlock(file, 'http://localhost:1337');
    // Not the id, documentId or folder: the file's fields Strapi keeps, the name as the alternative text, the URL absolute.
    assert.deepEqual(block, {
      type: 'image',
      image: {
        name: 'cat.png',
        alternativeText: 'cat.png',
        url: 'http://localhost:1337/uploads/cat_123.png',
        caption: null,
        width: 640,
        height: 410,
        formats,
        hash: 'cat_123',
        ext: '.png',
        mime: 'image/png',
        size: 12.5,
        previewUrl: null,
        provider: 'local',
        provider_metadata: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-02T00:00:00.000Z',
      },
      children: [{ type: 'text', text: '' }],
    });
    assert.equal(
      imageBlock({ ...file, alternativeText: 'A cat', url: 'https://cdn.example.com/cat.png' }, 'http://localhost:1337')
        .image?.alternativeText,
      'A cat',
    );
    assert.equal(
      imageBlock({ ...file, url: 'https://cdn.example.com/cat.png' }, 'http://localhost:1337').image?.url,
      'https://cdn.example.com/cat.png',
    );
    // The editor keeps it as it is, and writes it back the same.
    assert.deepEqual(toApiValue(toEditorValue([block])), [block]);
  });

  it("offers Strapi's code languages, and a stored language it does not list", () => {
    assert.equal(CODE_LANGUAGES.length, 53);
    assert.ok(CODE_LANGUAGES.some((language) => language.value === 'plaintext' && language.label === 'Plain text'));
    assert.deepEqual(codeLanguageOptions('python'), CODE_LANGUAGES);
    assert.deepEqual(codeLanguageOptions('brainfuck').at(-1), { value: 'brainfuck', label: 'brainfuck' });
    const code: BlockElement = { type: 'code', language: 'python', children: [{ type: 'text', text: 'print(1)' }] };
    assert.deepEqual(toApiValue(toEditorValue([code])), [code]);
  });
});
