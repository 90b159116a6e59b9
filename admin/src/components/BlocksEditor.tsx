/**
 * The blocks editor (Slate, as Strapi's): a toolbar (marks, link, block type, a code block's
 * language, images from the media library) over an editable region. Loaded with the first blocks
 * field (BlocksField.tsx), not with the first screen.
 */
import { ActionIcon, Button, Group, NativeSelect, Paper, Popover, Stack, TextInput, Tooltip } from '@mantine/core';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useDisclosure } from '@mantine/hooks';
import { createEditor, Editor, Element, Node, Path, Range, Transforms, type BaseEditor, type Descendant } from 'slate';
import { withHistory, type HistoryEditor } from 'slate-history';
import {
  Editable,
  ReactEditor,
  Slate,
  useFocused,
  useSelected,
  useSlate,
  useSlateStatic,
  withReact,
  type RenderElementProps,
  type RenderLeafProps,
} from 'slate-react';
import {
  BLOCK_KINDS,
  blockOfKind,
  codeLanguageOptions,
  emptyParagraph,
  imageBlock,
  kindOf,
  safeUrl,
  type BlockElement,
  type BlockKind,
  type BlockText,
  type Mark,
} from '../blocks.ts';
import { useAccess } from '../access.tsx';
import type { MediaFile } from '../media.ts';
import { LibraryPicker } from './media/LibraryPicker.tsx';

declare module 'slate' {
  interface CustomTypes {
    Editor: BaseEditor & ReactEditor & HistoryEditor;
    Element: BlockElement;
    Text: BlockText;
  }
}

const TEXT_BLOCKS = ['paragraph', 'heading', 'quote', 'code', 'list-item'];

function isMarkActive(editor: Editor, mark: Mark): boolean {
  return Editor.marks(editor)?.[mark] === true;
}

function toggleMark(editor: Editor, mark: Mark): void {
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

/** The text block at the selection (a paragraph, a heading, a list item...) and the list around it, if any. */
function currentBlock(editor: Editor): { block?: BlockElement; list?: BlockElement } {
  if (!editor.selection) return {};
  const [entry] = Editor.nodes(editor, {
    match: (node) => Element.isElement(node) && TEXT_BLOCKS.includes(node.type),
    mode: 'lowest',
  });
  if (!entry) return {};
  const [block, path] = entry as [BlockElement, Path];
  const parent = path.length > 1 ? Node.parent(editor, path) : undefined;
  return {
    block,
    list:
      block.type === 'list-item' && parent && Element.isElement(parent) && parent.type === 'list' ? parent : undefined,
  };
}

const isList = (node: Node): boolean => Element.isElement(node) && node.type === 'list';

/** Turns the chosen blocks into another kind: lists are left first, then the blocks set (and wrapped in a list). */
function setKind(editor: Editor, kind: BlockKind): void {
  const target = blockOfKind(kind);
  Editor.withoutNormalizing(editor, () => {
    Transforms.unwrapNodes(editor, { match: isList, split: true, mode: 'all' });
    const textBlock = (node: Node) => Element.isElement(node) && TEXT_BLOCKS.includes(node.type);
    Transforms.unsetNodes(editor, ['level', 'format', 'language', 'indentLevel'], { match: textBlock });
    if (target.type === 'list') {
      Transforms.setNodes(editor, { type: 'list-item' }, { match: textBlock });
      Transforms.wrapNodes(
        editor,
        { type: 'list', format: target.format, children: [] },
        { match: (node) => Element.isElement(node) && node.type === 'list-item' },
      );
    } else {
      Transforms.setNodes(editor, target, { match: textBlock });
    }
  });
}

/** The link around the selection, if any. */
function activeLink(editor: Editor): [BlockElement, Path] | undefined {
  const [entry] = Editor.nodes(editor, { match: (node) => Element.isElement(node) && node.type === 'link' });
  return entry as [BlockElement, Path] | undefined;
}

function setLink(editor: Editor, at: Range, url: string): void {
  Transforms.select(editor, at);
  const link = activeLink(editor);
  if (link) {
    Transforms.setNodes(editor, { url }, { at: link[1] });
  } else if (Range.isCollapsed(at)) {
    Transforms.insertNodes(editor, { type: 'link', url, children: [{ type: 'text', text: url }] });
  } else {
    Transforms.wrapNodes(editor, { type: 'link', url, children: [] }, { split: true });
    Transforms.collapse(editor, { edge: 'end' });
  }
}

/**
 * The browser's selection in the editor, read now: Slate takes in a selection made with the mouse
 * or Shift+arrows a moment later (it throttles selectionchange), and a quick click on Link comes first.
 */
function domSelection(editor: Editor): Range | null {
  const selection = window.getSelection();
  if (
    !selection ||
    selection.rangeCount === 0 ||
    !selection.anchorNode ||
    !ReactEditor.hasDOMNode(editor, selection.anchorNode)
  )
    return null;
  return ReactEditor.toSlateRange(editor, selection, { exactMatch: false, suppressThrow: true });
}

function removeLink(editor: Editor, at: Range): void {
  Transforms.select(editor, at);
  Transforms.unwrapNodes(editor, { match: (node) => Element.isElement(node) && node.type === 'link' });
}

/** The image block at the selection, if any. */
function selectedImage(editor: Editor): [BlockElement, Path] | undefined {
  if (!editor.selection) return undefined;
  const [entry] = Editor.nodes(editor, { match: (node) => Element.isElement(node) && node.type === 'image' });
  return entry as [BlockElement, Path] | undefined;
}

/**
 * Images from the media library, after the top-level block at `at` (in its place when it is an
 * empty paragraph, as Strapi's editor turns the block into images); the last one ends selected.
 */
function insertImages(editor: Editor, at: Range | null, files: MediaFile[]): void {
  if (files.length === 0) return;
  const nodes = files.map((file) => imageBlock(file as unknown as Record<string, unknown>, window.location.origin));
  const index = Math.min(at ? at.anchor.path[0]! : editor.children.length - 1, editor.children.length - 1);
  const block = editor.children[index] as BlockElement | undefined;
  const replace =
    block !== undefined &&
    block.type === 'paragraph' &&
    Node.string(block) === '' &&
    block.children.every((child) => 'text' in child);
  Editor.withoutNormalizing(editor, () => {
    if (replace) Transforms.removeNodes(editor, { at: [index] });
    const first = replace ? index : index + 1;
    Transforms.insertNodes(editor, nodes, { at: [first] });
    Transforms.select(editor, [first + nodes.length - 1]);
  });
}

/** Removes an image block; the editor keeps a block (an empty paragraph) and a cursor near where it was. */
function removeImage(editor: Editor, path: Path): void {
  Editor.withoutNormalizing(editor, () => {
    Transforms.removeNodes(editor, { at: path });
    if (editor.children.length === 0) Transforms.insertNodes(editor, emptyParagraph(), { at: [0] });
  });
  const index = path[0]!;
  const target = index > 0 ? Editor.end(editor, [index - 1]) : Editor.start(editor, [0]);
  Transforms.select(editor, target);
}

function withBlocks(editor: Editor): Editor {
  const { isInline, isVoid, normalizeNode } = editor;
  editor.isInline = (element) => element.type === 'link' || isInline(element);
  editor.isVoid = (element) => element.type === 'image' || isVoid(element);
  editor.normalizeNode = (entry) => {
    const [node, path] = entry;
    // Strapi's leaves say what they are: the texts Slate adds (splits, new blocks) get `type: 'text'`.
    if (!Element.isElement(node) && !Editor.isEditor(node) && node.type !== 'text') {
      Transforms.setNodes(editor, { type: 'text' }, { at: path });
      return;
    }
    normalizeNode(entry);
  };
  return editor;
}

function onKeyDown(editor: Editor, event: KeyboardEvent<HTMLDivElement>): void {
  // A key pressed right after the caret moved (a click, End, an arrow) acts where the caret is now,
  // not where Slate last read it (it reads the browser's selection a moment later).
  const fresh = event.nativeEvent.isComposing ? null : domSelection(editor);
  if (fresh && !(editor.selection && Range.equals(fresh, editor.selection))) Transforms.select(editor, fresh);
  const mod = event.ctrlKey || event.metaKey;
  if (mod && !event.altKey && !event.shiftKey) {
    const mark = ({ b: 'bold', i: 'italic', u: 'underline' } as const)[event.key.toLowerCase() as 'b' | 'i' | 'u'];
    if (mark) {
      event.preventDefault();
      toggleMark(editor, mark);
      return;
    }
  }
  const image = selectedImage(editor);
  if (image && (event.key === 'Backspace' || event.key === 'Delete')) {
    // An image selected (an arrow key onto it, or just inserted) goes with Backspace or Delete.
    event.preventDefault();
    removeImage(editor, image[1]);
    return;
  }
  if (image && event.key === 'Enter') {
    // Enter on an image opens a paragraph after it.
    event.preventDefault();
    const after = Path.next(image[1]);
    Transforms.insertNodes(editor, emptyParagraph(), { at: after });
    Transforms.select(editor, Editor.start(editor, after));
    return;
  }
  if (event.key !== 'Enter' || event.shiftKey || !editor.selection || !Range.isCollapsed(editor.selection)) return;
  const { block } = currentBlock(editor);
  if (!block) return;
  if (block.type === 'list-item' && Node.string(block) === '') {
    // An empty item leaves the list: it becomes a paragraph after it.
    event.preventDefault();
    setKind(editor, 'paragraph');
  } else if (block.type === 'code') {
    // A code block keeps its lines together.
    event.preventDefault();
    editor.insertText('\n');
  } else if (
    block.type === 'heading' &&
    Editor.isEnd(editor, editor.selection.anchor, ReactEditor.findPath(editor, block))
  ) {
    // After a heading comes a paragraph.
    event.preventDefault();
    Transforms.insertNodes(editor, { type: 'paragraph', children: [{ type: 'text', text: '' }] });
  }
}

function renderElement({ attributes, children, element }: RenderElementProps) {
  switch (element.type) {
    case 'heading': {
      const Heading = `h${Math.min(6, Math.max(1, Number(element.level) || 1))}` as 'h1';
      return <Heading {...attributes}>{children}</Heading>;
    }
    case 'quote':
      return (
        <blockquote
          {...attributes}
          style={{
            borderLeft: '3px solid var(--mantine-color-gray-4)',
            margin: '0.5em 0',
            paddingLeft: '0.75em',
            color: 'var(--mantine-color-dimmed)',
          }}
        >
          {children}
        </blockquote>
      );
    case 'code':
      return (
        <pre {...attributes} style={{ background: 'var(--mantine-color-gray-1)', padding: '0.5em', borderRadius: 4 }}>
          <code>{children}</code>
        </pre>
      );
    case 'list':
      return element.format === 'ordered' ? <ol {...attributes}>{children}</ol> : <ul {...attributes}>{children}</ul>;
    case 'list-item':
      return <li {...attributes}>{children}</li>;
    case 'link':
      return (
        <a {...attributes} href={element.url} onClick={(event) => event.preventDefault()}>
          {children}
        </a>
      );
    case 'image':
      return (
        <ImageElement attributes={attributes} element={element}>
          {children}
        </ImageElement>
      );
    default:
      return <p {...attributes}>{children}</p>;
  }
}

/** An image block: the picture (outlined while selected) and a button that removes it. */
function ImageElement({ attributes, children, element }: RenderElementProps) {
  const editor = useSlateStatic();
  const selected = useSelected();
  const focused = useFocused();
  const image = element.image ?? {};
  const name = String(image.name ?? 'image');
  return (
    <div {...attributes}>
      {children}
      <div
        contentEditable={false}
        style={{
          position: 'relative',
          display: 'inline-block',
          margin: '0.25em 0',
          borderRadius: 4,
          boxShadow: selected && focused ? '0 0 0 3px var(--mantine-primary-color-filled)' : undefined,
        }}
      >
        <img
          src={String(image.url ?? '')}
          alt={String(image.alternativeText ?? image.name ?? '')}
          style={{ display: 'block', maxWidth: '100%', maxHeight: 320 }}
        />
        <ActionIcon
          size="sm"
          color="red"
          variant="filled"
          aria-label={`Remove image ${name}`}
          style={{ position: 'absolute', top: 4, right: 4 }}
          onClick={() => {
            removeImage(editor, ReactEditor.findPath(editor, element));
            ReactEditor.focus(editor);
          }}
        >
          ✕
        </ActionIcon>
      </div>
    </div>
  );
}

function renderLeaf({ attributes, children, leaf }: RenderLeafProps) {
  let content = children;
  if (leaf.code) content = <code>{content}</code>;
  if (leaf.bold) content = <strong>{content}</strong>;
  if (leaf.italic) content = <em>{content}</em>;
  if (leaf.underline) content = <u>{content}</u>;
  if (leaf.strikethrough) content = <s>{content}</s>;
  return <span {...attributes}>{content}</span>;
}

const MARK_BUTTONS: { mark: Mark; label: string; shortcut?: string; glyph: JSX.Element }[] = [
  { mark: 'bold', label: 'Bold', shortcut: 'Ctrl+B', glyph: <b>B</b> },
  { mark: 'italic', label: 'Italic', shortcut: 'Ctrl+I', glyph: <i>I</i> },
  { mark: 'underline', label: 'Underline', shortcut: 'Ctrl+U', glyph: <u>U</u> },
  { mark: 'strikethrough', label: 'Strikethrough', glyph: <s>S</s> },
  { mark: 'code', label: 'Code', glyph: <code>{'</>'}</code> },
];

function Toolbar({ name }: { name: string }) {
  const editor = useSlate();
  const { block, list } = currentBlock(editor);
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkAt, setLinkAt] = useState<Range | null>(null);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const link = activeLink(editor);
  const [picking, picker] = useDisclosure(false);
  // Images come from the media library: its read action.
  const mayPickImages = useAccess().can('plugin::upload.read');
  const [imageAt, setImageAt] = useState<Range | null>(null);
  // Toolbar buttons keep the editor's selection: a mouse press does not take the focus from it.
  const keep = (event: { preventDefault(): void }) => event.preventDefault();
  const openLink = () => {
    const at = domSelection(editor) ?? editor.selection ?? Editor.end(editor, []);
    setLinkAt(Editor.range(editor, at));
    setUrl(link?.[0].url ?? '');
    setUrlError(null);
    setLinkOpen(true);
  };
  const closeLink = () => {
    setLinkOpen(false);
    ReactEditor.focus(editor);
  };
  const applyLink = () => {
    const safe = safeUrl(url);
    if (!safe) return setUrlError('Enter a web address (https://...), a mail address (mailto:...) or a path (/...)');
    setLinkOpen(false);
    ReactEditor.focus(editor);
    if (linkAt) setLink(editor, linkAt, safe);
  };

  return (
    <Group gap={4} role="toolbar" aria-label="Formatting" data-field={name} wrap="wrap">
      <NativeSelect
        aria-label="Block type"
        size="xs"
        w={150}
        value={block ? kindOf(block, list) : 'paragraph'}
        data={BLOCK_KINDS.map((kind) => ({ value: kind.value, label: kind.label }))}
        onChange={(event) => {
          if (!editor.selection) Transforms.select(editor, Editor.end(editor, []));
          setKind(editor, event.currentTarget.value as BlockKind);
          ReactEditor.focus(editor);
        }}
      />
      {block?.type === 'code' && (
        <NativeSelect
          aria-label="Code language"
          size="xs"
          w={170}
          value={block.language ?? 'plaintext'}
          data={codeLanguageOptions(block.language)}
          onChange={(event) => {
            const language = event.currentTarget.value;
            Transforms.setNodes(
              editor,
              { language },
              { match: (node) => Element.isElement(node) && node.type === 'code' },
            );
            ReactEditor.focus(editor);
          }}
        />
      )}
      {mayPickImages && (
        <>
          <Tooltip label="Image (from the media library)" openDelay={400}>
            <ActionIcon
              variant="default"
              aria-label="Image"
              onMouseDown={keep}
              onClick={() => {
                setImageAt(domSelection(editor) ?? editor.selection);
                picker.open();
              }}
            >
              <svg
                width="16"
                height="16"
                viewBox="0 0 24 24"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
                strokeLinejoin="round"
                aria-hidden
              >
                <rect x="3" y="3" width="18" height="18" rx="2" />
                <circle cx="8.5" cy="8.5" r="1.5" />
                <path d="m21 15-5-5L5 21" />
              </svg>
            </ActionIcon>
          </Tooltip>
          <LibraryPicker
            opened={picking}
            onClose={() => {
              picker.close();
              ReactEditor.focus(editor);
            }}
            title="Insert images"
            multiple
            chosen={NONE}
            kinds={['images']}
            onPick={(files) => {
              insertImages(editor, imageAt, files);
              ReactEditor.focus(editor);
            }}
          />
        </>
      )}
      {MARK_BUTTONS.map(({ mark, label, shortcut, glyph }) => {
        const active = isMarkActive(editor, mark);
        return (
          <Tooltip key={mark} label={shortcut ? `${label} (${shortcut})` : label} openDelay={400}>
            <ActionIcon
              variant={active ? 'filled' : 'default'}
              aria-label={label}
              aria-pressed={active}
              onMouseDown={keep}
              onClick={() => {
                const selected = domSelection(editor);
                if (selected && !(editor.selection && Range.equals(selected, editor.selection)))
                  Transforms.select(editor, selected);
                toggleMark(editor, mark);
                // From the keyboard too: the editor takes the focus back, its selection as it was.
                ReactEditor.focus(editor);
              }}
            >
              {glyph}
            </ActionIcon>
          </Tooltip>
        );
      })}
      <Popover opened={linkOpen} onChange={setLinkOpen} trapFocus returnFocus position="bottom-start" shadow="md">
        <Popover.Target>
          <ActionIcon
            variant={link ? 'filled' : 'default'}
            aria-label="Link"
            aria-pressed={Boolean(link)}
            onMouseDown={keep}
            onClick={() => (linkOpen ? closeLink() : openLink())}
          >
            <svg
              width="16"
              height="16"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden
            >
              <path d="M10 13a5 5 0 0 0 7.54.54l3-3a5 5 0 0 0-7.07-7.07l-1.72 1.71" />
              <path d="M14 11a5 5 0 0 0-7.54-.54l-3 3a5 5 0 0 0 7.07 7.07l1.71-1.71" />
            </svg>
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <TextInput
              label="Link URL"
              value={url}
              error={urlError}
              onChange={(event) => setUrl(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  applyLink();
                }
                if (event.key === 'Escape') closeLink();
              }}
              w={320}
            />
            <Group gap="xs">
              <Button size="xs" onClick={applyLink}>
                Apply link
              </Button>
              {link && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => {
                    setLinkOpen(false);
                    ReactEditor.focus(editor);
                    if (linkAt) removeLink(editor, linkAt);
                  }}
                >
                  Remove link
                </Button>
              )}
              <Button size="xs" variant="default" onClick={closeLink}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Group>
  );
}

const NONE: ReadonlySet<number> = new Set();

export interface BlocksEditorProps {
  name: string;
  labelId: string;
  value: BlockElement[];
  onChange: (value: BlockElement[]) => void;
  invalid: boolean;
  describedBy?: string;
  /** Shown, not edited (the administrator may read the field but not change it): no toolbar. */
  readOnly?: boolean;
}

/** A controlled editor: the form holds its value, a new value from outside (a save, another locale) replaces the editor's. */
export default function BlocksEditor({
  name,
  labelId,
  value,
  onChange,
  invalid,
  describedBy,
  readOnly = false,
}: BlocksEditorProps) {
  const editor = useMemo(() => withBlocks(withHistory(withReact(createEditor()))), []);
  return (
    <Slate editor={editor} value={value as Descendant[]} onValueChange={(next) => onChange(next as BlockElement[])}>
      <Paper withBorder p={0} style={invalid ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
        {!readOnly && (
          <div style={{ padding: 6, borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            <Toolbar name={name} />
          </div>
        )}
        <Editable
          readOnly={readOnly}
          aria-readonly={readOnly || undefined}
          aria-labelledby={labelId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          aria-multiline
          role="textbox"
          renderElement={renderElement}
          renderLeaf={renderLeaf}
          onKeyDown={(event) => onKeyDown(editor, event)}
          placeholder="Write here"
          style={{ minHeight: 160, padding: '4px 12px', outline: 'none' }}
        />
      </Paper>
    </Slate>
  );
}
