/**
 * A native modal <dialog> (the users page, the applicant page's interviews and booking links): focus
 * moves in (to `[data-autofocus]` when there is one: a confirmation starts on its least destructive
 * control), Escape closes it unless busy; it is closed before the trigger gets focus back (nothing
 * outside a modal dialog can take focus). `className`: the dialog's own look.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export function Modal({
  title,
  busy,
  onClose,
  children,
  className,
}: {
  title: string;
  busy: boolean;
  onClose: () => void;
  children: (close: () => void) => ReactNode;
  className: string;
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
      className={`modal ${className}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) close();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children(close)}
    </dialog>
  );
}
