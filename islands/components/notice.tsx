/**
 * What an action on an HR list or settings screen came to (duplicates, erasure requests, status
 * texts, talent pools): a success in a polite live region that is always on the page (so its text is announced
 * when it appears), an error as an alert after it. Focus stays where the island puts it.
 * `className`: the live region's own look.
 */
export type NoticeState = { kind: 'success' | 'error'; text: string };

export function Notice({ notice, className }: { notice: NoticeState | null; className?: string }) {
  return (
    <>
      <div aria-live="polite" className={className}>
        {notice?.kind === 'success' && <p className="alert alert-success">{notice.text}</p>}
      </div>
      {notice?.kind === 'error' && (
        <div className="alert alert-error" role="alert">
          {notice.text}
        </div>
      )}
    </>
  );
}
