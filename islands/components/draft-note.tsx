/** The "Draft restored" note beside a form whose unsaved text came back (drafts.ts), with a way to discard it. */
export function DraftNote({ id, onDiscard }: { id: string; onDiscard: () => void }) {
  return (
    <p className="draft-note" id={id} role="status">
      <span>Draft restored: unsaved text from your last visit.</span>
      <button type="button" className="btn btn-link" onClick={onDiscard}>
        Discard draft
      </button>
    </p>
  );
}
