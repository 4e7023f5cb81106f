/**
 * A native modal <dialog> of the applicant page's interview islands (issue 32): focus moves in (to
 * `[data-autofocus]` when there is one), Escape closes it unless busy.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function Modal({
  title,
  busy,
  onClose,
  children,
  className = '',
}: {
  title: string;
  busy: boolean;
  onClose: () => void;
  children: (close: () => void, titleId: string) => ReactNode;
  className?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const d = dialog.current!;
    if (!d.open) d.showModal();
    d.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (d.open) d.close();
    };
  }, []);
  const close = () => {
    dialog.current?.close();
    onClose();
  };
  return (
    <dialog
      ref={dialog}
      className={`modal interview-dialog ${className}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) close();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children(close, titleId)}
    </dialog>
  );
}
