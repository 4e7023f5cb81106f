/**
 * Skills as chips. The text input is an ARIA 1.2 combobox: suggestions (after 2 characters, at
 * most 8) appear in a listbox, ArrowDown/ArrowUp move through them, Enter adds the highlighted
 * suggestion or else what was typed, Escape closes the list. Blanks and case-insensitive
 * duplicates are ignored (addSkill). The typed text is held by the wizard (text/onText), which
 * adds what is still pending when the applicant leaves the step with Next.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { LIMITS, addSkill, suggestSkills } from '../../src/shared/application-rules.js';
import { SUGGESTED_SKILLS } from '../../src/shared/skills.js';
import { ErrorText, describedBy } from './fields.js';
import { errorId } from './state.js';

interface Props {
  skills: string[];
  onChange: (skills: string[]) => void;
  /** What is typed in the input and not yet added. */
  text: string;
  onText: (text: string) => void;
  error?: string;
}

const INPUT_ID = 'f-skills';
const LIST_ID = 'skills-suggestions';

export function SkillsInput({ skills, onChange, text, onText: setText, error }: Props) {
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const chips = useRef<HTMLUListElement>(null);
  const suggestions = useMemo(() => suggestSkills(SUGGESTED_SKILLS, text, skills), [text, skills]);
  const open = suggestions.length > 0 && !dismissed;
  const full = skills.length >= LIMITS.skills;

  const add = (raw: string) => {
    if (full) return;
    const next = addSkill(skills, raw);
    if (next !== skills) onChange(next);
    setText('');
    setActive(-1);
  };

  const remove = (i: number) => {
    onChange(skills.filter((_, j) => j !== i));
    // Keep the keyboard where it was: on the next chip's remove button, else the input.
    requestAnimationFrame(() => {
      const buttons = chips.current?.querySelectorAll<HTMLButtonElement>('button');
      const target = buttons?.[Math.min(i, buttons.length - 1)];
      (target ?? input.current)?.focus();
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (!suggestions.length) return;
      e.preventDefault();
      setDismissed(false);
      const n = suggestions.length;
      setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
    } else if (e.key === 'Enter') {
      // Enter adds a skill; it never submits the form.
      e.preventDefault();
      add(open && active >= 0 ? suggestions[active] : text);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setDismissed(true);
      setActive(-1);
    }
  };

  const activeId = open && active >= 0 ? `skill-option-${active}` : undefined;
  return (
    <div className="field skills-field">
      <label htmlFor={INPUT_ID}>Add a skill</label>
      <div className="skills-combo">
        <div className="skills-input-wrap">
          <input
            ref={input}
            id={INPUT_ID}
            type="text"
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={LIST_ID}
            aria-activedescendant={activeId}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('skills-help', error && errorId('skills'))}
            autoComplete="off"
            maxLength={LIMITS.skillLength}
            value={text}
            disabled={full}
            placeholder={full ? `Up to ${LIMITS.skills} skills` : 'e.g. TypeScript'}
            onChange={(e) => {
              setText(e.target.value);
              setActive(-1);
              setDismissed(false);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => setDismissed(true)}
            onFocus={() => setDismissed(false)}
          />
          {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA combobox pattern: focus stays in the input, which handles the keys */}
          <ul id={LIST_ID} role="listbox" aria-label="Suggested skills" className="skills-suggestions" hidden={!open}>
            {suggestions.map((s, i) => (
              // biome-ignore lint/a11y/useFocusableInteractive: the ARIA combobox pattern: focus stays in the input, which handles the keys
              // biome-ignore lint/a11y/useKeyWithClickEvents: the ARIA combobox pattern: focus stays in the input, which handles the keys
              <li
                key={s}
                id={`skill-option-${i}`}
                // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the ARIA combobox pattern: focus stays in the input, which handles the keys
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : undefined}
                // Keep focus in the input while the mouse picks an option.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => {
                  add(s);
                  input.current?.focus();
                }}
              >
                {s}
              </li>
            ))}
          </ul>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => add(text)} disabled={full || !text.trim()}>
          Add skill
        </button>
      </div>
      <p className="help-text" id="skills-help">
        Type a skill and press Enter. Suggestions appear after 2 characters; use the arrow keys to pick one.
      </p>
      <p className="visually-hidden" aria-live="polite">
        {open ? `${suggestions.length} suggestion${suggestions.length === 1 ? '' : 's'} available.` : ''}
      </p>
      <ErrorText fieldKey="skills" error={error} />
      {skills.length > 0 ? (
        <ul className="skill-chips" ref={chips} aria-label="Your skills">
          {skills.map((s, i) => (
            <li key={s} className="chip skill-chip">
              <span>{s}</span>
              <button type="button" className="chip-remove" onClick={() => remove(i)} aria-label={`Remove skill ${s}`}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="entry-empty">No skills added yet.</p>
      )}
    </div>
  );
}
