/**
 * What the rich-text field looks like with and without TipTap: its props, the frame around the
 * editing box (label, hint, error) and the toolbar's buttons. The stand-in shown while the TipTap
 * chunk loads (rich-text-editor.tsx) and the editor itself (rich-text-tiptap.tsx) both draw from
 * here, so the page does not move when one replaces the other.
 */
import type { ReactNode } from 'react';

export interface RichTextEditorProps {
  /** id of the editable area; the label, hint and error ids derive from it. */
  id: string;
  label: string;
  value: string;
  onChange: (html: string) => void;
  required?: boolean;
  error?: string;
}

const RICH_TEXT_HINT = 'Supports bold, italics, lists, and links.';

/** Toggles show their state with aria-pressed; clean is an action. */
export const TOOLS = [
  { name: 'bold', label: 'Bold', toggle: true },
  { name: 'italic', label: 'Italic', toggle: true },
  { name: 'underline', label: 'Underline', toggle: true },
  { name: 'orderedList', label: 'Ordered list', toggle: true },
  { name: 'bulletList', label: 'Bullet list', toggle: true },
  { name: 'link', label: 'Link', toggle: true },
  { name: 'clean', label: 'Clear formatting', toggle: false },
] as const;
export type ToolName = (typeof TOOLS)[number]['name'];

export const icons: Record<ToolName, ReactNode> = {
  bold: <b aria-hidden="true">B</b>,
  italic: <i aria-hidden="true">I</i>,
  underline: <u aria-hidden="true">U</u>,
  orderedList: (
    <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="1.4">
      <path d="M2.5 3.2l1.3-.9v5.4" />
      <path d="M2 12.3c.4-1 2.6-1 2.6.4 0 1-2.6 2.2-2.6 3.6h2.8" />
      <path d="M8 5h11M8 14h11" strokeWidth="2" />
    </svg>
  ),
  bulletList: (
    <svg aria-hidden="true" viewBox="0 0 20 20" width="18" height="18">
      <circle cx="3.5" cy="5" r="2" fill="currentColor" />
      <circle cx="3.5" cy="14" r="2" fill="currentColor" />
      <rect x="8" y="4" width="11" height="2" fill="currentColor" />
      <rect x="8" y="13" width="11" height="2" fill="currentColor" />
    </svg>
  ),
  link: (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M8.5 11.5a3.5 3.5 0 0 0 5 0l3-3a3.5 3.5 0 0 0-5-5l-1 1" />
      <path d="M11.5 8.5a3.5 3.5 0 0 0-5 0l-3 3a3.5 3.5 0 0 0 5 5l1-1" />
    </svg>
  ),
  clean: (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M4 4h10M9 4l-3 12" />
      <path d="M12 12l5 5M17 12l-5 5" />
    </svg>
  ),
};

interface FrameProps {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  /** Clicking the label focuses the editor (there is none to focus in the stand-in). */
  onLabelClick?: () => void;
  /** The box: toolbar and editing area. */
  children: ReactNode;
  /** After the texts (the link dialog). */
  extra?: ReactNode;
}

/** The field around the box: label, hint and error, with the ids the editing area refers to. */
export function RichTextFrame({ id, label, required, error, onLabelClick, children, extra }: FrameProps) {
  return (
    <div className={`field rte-field${error ? ' has-error' : ''}`}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: acts as the editor's <label>; keyboard users reach the editor with Tab */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: acts as the editor's <label>; keyboard users reach the editor with Tab */}
      <span className="label" id={`${id}-label`} onClick={onLabelClick}>
        {label}
        {required && (
          <span className="required-mark" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </span>
      <div className="rte">{children}</div>
      <p className="help-text" id={`${id}-hint`}>
        {RICH_TEXT_HINT}
      </p>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
      {extra}
    </div>
  );
}
