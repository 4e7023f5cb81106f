/**
 * "Add to pool…" in the applicants list's bulk bar (/hr/applicants; issue 35; the page renders it
 * for admins and recruiters only, who may use talent pools): the rows selected with the list's
 * checkboxes (the applicants island's) go into a talent pool chosen in the pool picker, in one
 * request. The result (added, already in it, not found) shows where the list's bulk status change
 * says how it went (the applicants island's message, through an `applicants:notice` event); the
 * selection stays for the bar's other actions, and the focus comes back to the button.
 */
import { useEffect, useRef, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { PoolPicker } from './components/pool-picker.js';

const selectedBoxes = () => [...document.querySelectorAll<HTMLInputElement>('table.applicants-table input[data-select]:checked')];

/** The one selected row's candidate, or "N selected applicants". */
function whoOf(boxes: HTMLInputElement[]): string {
  if (boxes.length === 1) {
    const name = boxes[0].closest('tr')?.querySelector('.col-name a')?.textContent?.trim();
    if (name) return name;
  }
  return `${boxes.length} selected ${boxes.length === 1 ? 'applicant' : 'applicants'}`;
}

/** The list's message (the applicants island shows it). */
const say = (kind: 'success' | 'error', text: string) =>
  document.dispatchEvent(new CustomEvent('applicants:notice', { detail: { kind, lines: [text] } }));

function BulkPools() {
  const [selected, setSelected] = useState(0);
  const [open, setOpen] = useState<{ ids: number[]; who: string } | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  // The checkboxes are the applicants island's: their count is read whenever one changes.
  useEffect(() => {
    const count = () => setSelected(selectedBoxes().length);
    const onChange = (e: Event) => {
      if ((e.target as Element | null)?.closest?.('table.applicants-table')) count();
    };
    document.addEventListener('change', onChange);
    count();
    return () => document.removeEventListener('change', onChange);
  }, []);

  const start = () => {
    const boxes = selectedBoxes();
    if (!boxes.length) {
      say('error', 'Select the applicants to add to a pool first.');
      return;
    }
    setOpen({ ids: boxes.map((b) => Number(b.value)), who: whoOf(boxes) });
  };

  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn-secondary btn-sm"
        aria-disabled={selected === 0}
        aria-haspopup="dialog"
        onClick={start}
      >
        Add to pool…
      </button>
      {open && (
        <PoolPicker
          ids={open.ids}
          who={open.who}
          onDone={(text) => say('success', text)}
          onClose={() => {
            setOpen(null);
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}

mountIsland('bulk-pools', BulkPools);
