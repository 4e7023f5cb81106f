/**
 * The rich-text field of the islands (job editor, offer and site settings). Its TipTap editor
 * (rich-text-tiptap.tsx) is most of an island's code, so it is a chunk of its own, asked for once
 * a field is first shown (after the island's first render): the island's first render (fields,
 * labels, help texts) waits only for its own bundle, and a page whose open tab has no rich text
 * (a new job's Basics) does not compile TipTap while it starts. Until the chunk is in, a field shows a stand-in the size of the editor:
 * the same label, hint and error, the toolbar's buttons disabled, and the text as it will look.
 */
import { Fragment, createElement, memo, useSyncExternalStore, type ComponentType, type ReactNode } from 'react';
import { RichTextFrame, TOOLS, icons, type RichTextEditorProps } from './rich-text-parts.js';
// Here, not in the chunk: esbuild puts a chunk's CSS in a file of its own that nothing loads.
import './rich-text-editor.css';

let Loaded: ComponentType<RichTextEditorProps> | null = null;
let failed = false;
let loading: Promise<void> | null = null;

function load(): Promise<void> {
  loading ??= import('./rich-text-tiptap.js').then(
    (m) => {
      Loaded = m.RichTextEditorField;
    },
    () => {
      failed = true;
    },
  );
  return loading;
}

/**
 * Asks for the chunk (React subscribes once a field is on the page) and tells the field when it is
 * in or failed; the promise is settled once, so there is nothing to undo but the call.
 */
function subscribe(notify: () => void): () => void {
  let live = true;
  void load().then(() => live && notify());
  return () => {
    live = false;
  };
}

function RichTextEditorSlot(props: RichTextEditorProps) {
  const Field = useSyncExternalStore(subscribe, () => Loaded);
  const broken = useSyncExternalStore(subscribe, () => failed);
  return Field ? <Field {...props} /> : <StandIn {...props} broken={broken} />;
}

/**
 * A form with many editors re-renders on every keystroke; an editor only needs to when its own
 * props change. `onChange` is left out of the comparison: callers pass functional state updates,
 * so an earlier callback does the same thing.
 */
export const RichTextEditor = memo(
  RichTextEditorSlot,
  (a, b) => a.id === b.id && a.value === b.value && a.error === b.error && a.required === b.required && a.label === b.label,
);

/** The editor's box before TipTap is there: not editable, and with no element a test or a label could take for the editor. */
function StandIn({ id, label, value, required, error, broken }: RichTextEditorProps & { broken: boolean }) {
  return (
    <RichTextFrame
      id={id}
      label={label}
      required={required}
      error={error}
      extra={broken && <p className="field-error">The text editor could not be loaded. Reload the page to try again.</p>}
    >
      <div className="rte-toolbar" role="toolbar" aria-label={`${label} formatting`}>
        {TOOLS.map((t) => (
          <button key={t.name} type="button" className="rte-button" aria-label={t.label} title={t.label} disabled>
            {icons[t.name]}
          </button>
        ))}
      </div>
      <div className="rte-body">
        <div className="rte-text rte-pending">{value ? preview(value) : null}</div>
      </div>
    </RichTextFrame>
  );
}

const PREVIEW_TAGS = new Set(['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'a', 'ul', 'ol', 'li']);
/** Elements holding blocks; the inline nodes between their blocks make a paragraph of their own. */
const CONTAINERS = new Set(['BODY', 'UL', 'OL', 'LI']);

/**
 * The text as the editor will show it, built as React elements from an inert parse (no markup of
 * the value reaches the page as HTML): the sanitiser's tags without attributes, others unwrapped.
 */
function preview(html: string): ReactNode {
  const body = new DOMParser().parseFromString(html, 'text/html').body;
  collapseSpaces(body);
  const convert = (node: Node): ReactNode => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE) return null;
    const tag = node.nodeName.toLowerCase();
    const children = Array.from(node.childNodes, convert);
    if (!PREVIEW_TAGS.has(tag)) return createElement(Fragment, null, ...children);
    if (tag === 'br') return createElement('br');
    // The editor keeps an empty paragraph, or a line break at a paragraph's end, a line high.
    if (tag === 'p' && ((node.textContent === '' && !(node as Element).querySelector('br')) || lastLeaf(node)?.nodeName === 'BR'))
      children.push(createElement('br'));
    return createElement(tag, null, ...children);
  };
  return createElement(Fragment, null, ...Array.from(body.childNodes, convert));
}

function lastLeaf(node: Node): Node | null {
  let leaf = node.lastChild;
  while (leaf?.lastChild) leaf = leaf.lastChild;
  return leaf;
}

/**
 * White space as ProseMirror parses it: runs are one space, none at a paragraph's start, after a
 * line break or at its end, none between blocks. The area keeps spaces as the editor's does
 * (white-space: break-spaces), which decides where lines wrap.
 */
function collapseSpaces(container: Node): void {
  let afterSpace = true;
  let lastText: Text | null = null;
  const endParagraph = () => {
    if (lastText) lastText.data = lastText.data.replace(/ +$/, '');
    afterSpace = true;
    lastText = null;
  };
  const inline = (node: Node) => {
    if (node instanceof Text) {
      let text = node.data.replace(/[ \t\r\n\f]+/g, ' ');
      if (afterSpace && text.startsWith(' ')) text = text.slice(1);
      node.data = text;
      if (text) {
        afterSpace = text.endsWith(' ');
        lastText = node;
      }
    } else if (node.nodeName === 'BR') {
      afterSpace = true;
      lastText = null;
    } else {
      for (const child of Array.from(node.childNodes)) inline(child);
    }
  };
  for (const child of Array.from(container.childNodes)) {
    if (child.nodeName === 'P') {
      endParagraph();
      for (const part of Array.from(child.childNodes)) inline(part);
      endParagraph();
    } else if (CONTAINERS.has(child.nodeName)) {
      endParagraph();
      collapseSpaces(child);
    } else {
      inline(child);
    }
  }
  endParagraph();
}
