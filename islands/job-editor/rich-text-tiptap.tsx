/**
 * Rich-text field on TipTap (StarterKit v3, which includes Underline and Link), limited to what the
 * sanitiser keeps (spec 01 section 5): bold, italic, underline, ordered and bullet lists, links,
 * paragraphs and line breaks. Toolbar: bold, italic, underline, ordered list, bullet list, link
 * (asked for in a small dialog) and clean. Tab nests list items at most MAX_LIST_NESTING lists
 * deep. The server sanitises the HTML again on save and refuses text nested deeper than 20 elements.
 * TipTap is most of an island's code, so this module is a chunk of its own that the islands load
 * after their first render (RichTextEditor in rich-text-editor.tsx, which also holds the styles).
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { EditorContent, Extension, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { RichTextFrame, TOOLS, icons, type RichTextEditorProps, type ToolName } from './rich-text-parts.js';

const LINK_PROTOCOL = /^(https?:|mailto:)/i;

/**
 * The deepest text typed here, a link in bold, italic and underline in a list item this many lists
 * down (ul > li > ... > p > a > strong > em > u), nests 19 elements: within the server's limit of 20.
 * Pasted HTML can nest deeper; the server then answers 'Rich text is nested too deeply.'.
 */
const MAX_LIST_NESTING = 7;

/** Tab (which sinks a list item one list deeper) does nothing once the item is that deep. */
const ListNestingLimit = Extension.create({
  name: 'listNestingLimit',
  priority: 1000, // ahead of the list item's own Tab
  addKeyboardShortcuts() {
    return {
      Tab: ({ editor }) => {
        const { $from } = editor.state.selection;
        let lists = 0;
        for (let d = $from.depth; d > 0; d--) if (['bulletList', 'orderedList'].includes($from.node(d).type.name)) lists++;
        return lists >= MAX_LIST_NESTING;
      },
    };
  },
});

function extensions() {
  return [
    ListNestingLimit,
    StarterKit.configure({
      // Nothing the sanitiser would drop: no headings, quotes, code, rules or strike-through.
      heading: false,
      blockquote: false,
      code: false,
      codeBlock: false,
      horizontalRule: false,
      strike: false,
      link: {
        openOnClick: false,
        autolink: true,
        defaultProtocol: 'https',
        // Only http, https and mailto links, the same rule as the server's sanitiser.
        isAllowedUri: (url: string) => LINK_PROTOCOL.test(url.trim()),
        HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer' },
      },
    }),
  ];
}

/** The TipTap field; RichTextEditor (rich-text-editor.tsx) renders it and keeps it from needless renders. */
export function RichTextEditorField({ id, label, value, onChange, required, error }: RichTextEditorProps) {
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const lastEmitted = useRef(value);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [linkOpen, setLinkOpen] = useState(false);

  const describedBy = error ? `${hintId} ${errorId}` : hintId;
  const attributes: Record<string, string> = {
    id,
    class: 'rte-content rte-text',
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-labelledby': labelId,
    'aria-describedby': describedBy,
    ...(required ? { 'aria-required': 'true' } : {}),
    ...(error ? { 'aria-invalid': 'true' } : {}),
  };
  const editor = useEditor({
    extensions: extensions(),
    content: value || '',
    editorProps: { attributes },
    onUpdate: ({ editor: e }) => {
      const html = e.isEmpty ? '' : e.getHTML();
      lastEmitted.current = html;
      onChangeRef.current(html);
    },
  });

  // ARIA attributes follow the error state.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attributes` is new each render; its inputs are the dependencies
  useEffect(() => {
    editor.setOptions({
      editorProps: { attributes },
    });
  }, [editor, id, labelId, describedBy, required, error]);

  // A value set from outside (the saved job coming back from the server) replaces the content.
  useEffect(() => {
    if (value !== lastEmitted.current) {
      lastEmitted.current = value;
      editor.commands.setContent(value || '', { emitUpdate: false });
    }
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      orderedList: e.isActive('orderedList'),
      bulletList: e.isActive('bulletList'),
      link: e.isActive('link'),
    }),
  });

  const run: Record<ToolName, (e: Editor) => void> = {
    bold: (e) => e.chain().focus().toggleBold().run(),
    italic: (e) => e.chain().focus().toggleItalic().run(),
    underline: (e) => e.chain().focus().toggleUnderline().run(),
    orderedList: (e) => e.chain().focus().toggleOrderedList().run(),
    bulletList: (e) => e.chain().focus().toggleBulletList().run(),
    link: () => setLinkOpen(true),
    clean: (e) => e.chain().focus().unsetAllMarks().clearNodes().run(),
  };

  // Toolbar pattern: one tab stop, arrow keys move between buttons.
  const [focusIndex, setFocusIndex] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const onToolbarKey = (e: KeyboardEvent) => {
    const last = TOOLS.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? focusIndex === last
          ? 0
          : focusIndex + 1
        : e.key === 'ArrowLeft'
          ? focusIndex === 0
            ? last
            : focusIndex - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : -1;
    if (next < 0) return;
    e.preventDefault();
    setFocusIndex(next);
    buttons.current[next]?.focus();
  };

  return (
    <RichTextFrame
      id={id}
      label={label}
      required={required}
      error={error}
      onLabelClick={() => editor.commands.focus()}
      extra={linkOpen && <LinkDialog editor={editor} onClose={() => setLinkOpen(false)} />}
    >
      <div className="rte-toolbar" role="toolbar" aria-label={`${label} formatting`} aria-controls={id} onKeyDown={onToolbarKey}>
        {TOOLS.map((t, i) => (
          <button
            key={t.name}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            className="rte-button"
            aria-label={t.label}
            title={t.label}
            aria-pressed={t.toggle ? state[t.name as keyof typeof state] : undefined}
            tabIndex={i === focusIndex ? 0 : -1}
            onFocus={() => setFocusIndex(i)}
            onMouseDown={(e) => e.preventDefault() /* keep the selection in the editor */}
            onClick={() => run[t.name](editor)}
          >
            {icons[t.name]}
          </button>
        ))}
      </div>
      <EditorContent editor={editor} className="rte-body" />
    </RichTextFrame>
  );
}

/** Asks for a link address in a modal dialog (native <dialog>: focus kept inside, Escape closes). */
function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const inputId = useId();
  const active = editor.isActive('link');
  const [href, setHref] = useState<string>(() => (editor.getAttributes('link').href as string | undefined) ?? '');
  const [problem, setProblem] = useState('');

  useEffect(() => {
    const d = dialog.current!;
    if (!d.open) d.showModal();
    return () => {
      if (d.open) d.close();
    };
  }, []);

  // The dialog closes first, so focus can go back to the editor behind it.
  const finish = (run?: () => void) => {
    dialog.current?.close();
    onClose();
    if (run) run();
    else editor.commands.focus();
  };

  const apply = () => {
    let url = href.trim();
    if (!url) return finish(() => editor.chain().focus().extendMarkRange('link').unsetLink().run());
    // "example.com" means a web address; anything with another scheme is refused.
    if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) url = url.includes('@') && !url.includes('/') ? `mailto:${url}` : `https://${url}`;
    if (!LINK_PROTOCOL.test(url)) {
      setProblem('Enter an address starting with http://, https:// or mailto:.');
      return;
    }
    const insert = editor.state.selection.empty && !active;
    finish(() => {
      const chain = editor.chain().focus();
      if (insert) chain.insertContent({ type: 'text', text: url, marks: [{ type: 'link', attrs: { href: url } }] }).run();
      else chain.extendMarkRange('link').setLink({ href: url }).run();
    });
  };

  return (
    // No <form> here: the editor sits inside the job form, and forms cannot nest.
    <dialog
      ref={dialog}
      className="modal rte-link-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        finish();
      }}
    >
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Enter in the dialog's input applies the link (no <form>, see above) */}
      <div
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
            e.preventDefault();
            e.stopPropagation();
            apply();
          }
        }}
      >
        <h2 id={titleId}>{active ? 'Edit link' : 'Add link'}</h2>
        <div className="field">
          <label htmlFor={inputId}>Link address</label>
          <input
            id={inputId}
            type="text"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com"
            value={href}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${inputId}-error` : undefined}
            onChange={(e) => {
              setHref(e.target.value);
              setProblem('');
            }}
            autoFocus
          />
          {problem && (
            <p className="field-error" id={`${inputId}-error`}>
              {problem}
            </p>
          )}
        </div>
        <div className="modal-actions">
          <button type="button" className="btn btn-primary" onClick={apply}>
            Apply
          </button>
          {active && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => finish(() => editor.chain().focus().extendMarkRange('link').unsetLink().run())}
            >
              Remove link
            </button>
          )}
          <button type="button" className="btn btn-secondary" onClick={() => finish()}>
            Cancel
          </button>
        </div>
      </div>
    </dialog>
  );
}
