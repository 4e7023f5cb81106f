/** The wizard's progress indicator: one icon and label per step; the current one has aria-current. */
import { STEP_LABELS, type StepKey } from './state.js';

const ICON_PATHS: Record<StepKey | 'done', string> = {
  basic: 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 8a7 7 0 0 1 14 0',
  experience: 'M4 8h16v11H4zM9 8V5h6v3M4 13h16',
  education_skills: 'M2 9l10-5 10 5-10 5zM6 11v5c3 2.5 9 2.5 12 0v-5',
  questions: 'M4 5h16v11H9l-5 4zM9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.6.3-1 .8-1 1.4M12 14.5v.01',
  review: 'M9 5h10M9 12h10M9 19h10M4 5l1 1 2-2M4 12l1 1 2-2M4 19l1 1 2-2',
  done: 'M5 12.5l4.5 4.5L19 7.5',
};

function Icon({ name }: { name: StepKey | 'done' }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}

export function Progress({ steps, current }: { steps: StepKey[]; current: number }) {
  return (
    <nav className="wizard-progress" aria-label="Application progress">
      <ol style={{ gridTemplateColumns: `repeat(${steps.length}, minmax(0, 1fr))` }}>
        {steps.map((s, i) => {
          const state = i < current ? 'done' : i === current ? 'current' : 'todo';
          return (
            <li key={s} className={`progress-step ${state}`} aria-current={i === current ? 'step' : undefined}>
              <span className="progress-icon">
                <Icon name={state === 'done' ? 'done' : s} />
              </span>
              <span className="progress-label">
                {STEP_LABELS[s]}
                {state === 'done' && <span className="visually-hidden"> (completed)</span>}
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
