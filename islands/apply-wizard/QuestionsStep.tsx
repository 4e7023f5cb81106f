/**
 * The job's questions, one input per answer_type. Question text and help_text are rich text the
 * server already sanitised (toPublicQuestion), so they are rendered as HTML and referenced by
 * aria-labelledby / aria-describedby (a <label> may not hold paragraphs and lists).
 * Checkboxes carry no required attribute of their own (spec 01 section 5); a required checkbox
 * question still needs one ticked, which the step check enforces.
 * A number input the browser cannot read ('-', 'e' ...) has the value '' like an empty one: its
 * `validity.badInput` is reported with onUnparsed, so the step can say 'Enter a number.' instead.
 */
import type { ReactNode } from 'react';
import { LIMITS, type AnswerValue } from '../../src/shared/application-rules.js';
import { ErrorText, describedBy } from './fields.js';
import { errorId, fieldId, type Errors } from './state.js';
import type { WizardQuestion } from '../../src/applicants/types.js';

interface Props {
  questions: WizardQuestion[];
  answers: Record<string, AnswerValue>;
  errors: Errors;
  onAnswer: (id: number, value: AnswerValue) => void;
  /** A number input's text could (false) or could not (true) be read as a number. */
  onUnparsed: (id: number, unparsed: boolean) => void;
}

/** Plain question text gets a paragraph, so the required asterisk can follow its last line. */
function asBlock(html: string): string {
  return /^\s*<(p|ul|ol)[\s>]/i.test(html) ? html : `<p>${html}</p>`;
}

function Question({
  q,
  value,
  error,
  onAnswer,
  onUnparsed,
}: {
  q: WizardQuestion;
  value: AnswerValue | undefined;
  error?: string;
  onAnswer: (v: AnswerValue) => void;
  onUnparsed: (unparsed: boolean) => void;
}) {
  const key = `answers.${q.id}`;
  const id = fieldId(key);
  const labelId = `${id}-label`;
  const helpId = q.help_text ? `${id}-help` : undefined;
  const aria = {
    'aria-labelledby': labelId,
    'aria-describedby': describedBy(helpId, error && errorId(key)),
    'aria-invalid': error ? (true as const) : undefined,
  };
  const text = typeof value === 'string' ? value : '';
  const list = Array.isArray(value) ? value : [];

  let control: ReactNode;
  switch (q.answer_type) {
    case 'short_text':
      control = (
        <input
          {...aria}
          id={id}
          type="text"
          value={text}
          placeholder={q.placeholder || undefined}
          maxLength={LIMITS.answerText}
          aria-required={q.required || undefined}
          onChange={(e) => onAnswer(e.target.value)}
        />
      );
      break;
    case 'long_text':
      control = (
        <textarea
          {...aria}
          id={id}
          value={text}
          placeholder={q.placeholder || undefined}
          maxLength={LIMITS.answerText}
          rows={5}
          aria-required={q.required || undefined}
          onChange={(e) => onAnswer(e.target.value)}
        />
      );
      break;
    case 'number':
      control = (
        <input
          {...aria}
          id={id}
          type="number"
          step="any"
          inputMode="decimal"
          value={text}
          placeholder={q.placeholder || undefined}
          aria-required={q.required || undefined}
          onChange={(e) => onAnswer(e.target.value)}
          // onChange does not fire while the value stays '' (typing '-' into an empty input), input does.
          onInput={(e) => onUnparsed(e.currentTarget.validity.badInput)}
          onBlur={(e) => onUnparsed(e.currentTarget.validity.badInput)}
        />
      );
      break;
    case 'single_choice':
      control = (
        <div {...aria} id={id} role="radiogroup" aria-required={q.required || undefined} className="choices">
          {q.placeholder && <p className="choice-hint">{q.placeholder}</p>}
          {q.options.map((o, i) => (
            <label className="choice" key={o}>
              <input type="radio" name={id} id={`${id}-${i}`} value={o} checked={text === o} onChange={() => onAnswer(o)} />
              <span>{o}</span>
            </label>
          ))}
        </div>
      );
      break;
    case 'checkbox':
      control = (
        // biome-ignore lint/a11y/useSemanticElements: labelled by the question text above it, which a <legend> cannot hold
        <div {...aria} id={id} role="group" className="choices">
          {q.placeholder && <p className="choice-hint">{q.placeholder}</p>}
          {q.options.map((o, i) => (
            <label className="choice" key={o}>
              <input
                type="checkbox"
                name={id}
                id={`${id}-${i}`}
                value={o}
                checked={list.includes(o)}
                onChange={(e) =>
                  onAnswer(e.target.checked ? q.options.filter((x) => x === o || list.includes(x)) : list.filter((x) => x !== o))
                }
              />
              <span>{o}</span>
            </label>
          ))}
        </div>
      );
      break;
  }

  return (
    <div className={`field question question-${q.answer_type}`}>
      <div className={`question-label${q.required ? ' is-required' : ''}`} id={labelId}>
        {/* The asterisk is drawn after the last line of the text by CSS; this names it for screen readers. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: question texts are rich text sanitised on save (src/shared/sanitize.ts) */}
        <div className="rich-text" dangerouslySetInnerHTML={{ __html: asBlock(q.text) }} />
        {q.required && <span className="visually-hidden"> (required)</span>}
      </div>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: question texts are rich text sanitised on save (src/shared/sanitize.ts) */}
      {helpId && <div className="help-text rich-text" id={helpId} dangerouslySetInnerHTML={{ __html: q.help_text }} />}
      {control}
      <ErrorText fieldKey={key} error={error} />
    </div>
  );
}

export function QuestionsStep({ questions, answers, errors, onAnswer, onUnparsed }: Props) {
  return (
    <div className="step-fields questions">
      {questions.map((q) => (
        <Question
          key={q.id}
          q={q}
          value={answers[String(q.id)]}
          error={errors[`answers.${q.id}`]}
          onAnswer={(v) => onAnswer(q.id, v)}
          onUnparsed={(u) => onUnparsed(q.id, u)}
        />
      ))}
    </div>
  );
}
