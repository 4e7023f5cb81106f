/** The Questions tab: the job's extra questions, added, removed, reordered and edited in place. */
import { useState } from 'react';
import { RichTextEditor } from './rich-text-editor.js';
import { JOB_LIMITS } from '../../src/jobs/schema.js';
import { emptyQuestion, isChoice, type Option, type QuestionDraft } from './draft.js';
import { FieldShell, described } from './fields.js';

export function QuestionsEditor({
  questions,
  editQuestion: update,
  reshapeQuestions,
  errors,
  answerTypes,
}: {
  questions: QuestionDraft[];
  editQuestion: (key: string, patch: Partial<QuestionDraft>) => void;
  reshapeQuestions: (update: (qs: QuestionDraft[]) => QuestionDraft[]) => void;
  errors: Record<string, string>;
  answerTypes: Option[];
}) {
  const [announce, setAnnounce] = useState('');
  const move = (from: number, to: number) => {
    if (to < 0 || to >= questions.length || to === from) return;
    reshapeQuestions((qs) => {
      const next = [...qs];
      const [q] = next.splice(from, 1);
      next.splice(to, 0, q);
      return next;
    });
    setAnnounce(`Question moved to position ${to + 1} of ${questions.length}.`);
  };
  const add = () => {
    const q = emptyQuestion();
    reshapeQuestions((qs) => [...qs, q]);
    setAnnounce(`Question ${questions.length + 1} added.`);
    // Focus the new question's text once it is rendered.
    setTimeout(() => document.getElementById(`q-${q.key}-text`)?.focus(), 0);
  };
  const remove = (i: number) => {
    reshapeQuestions((qs) => qs.filter((_, j) => j !== i));
    setAnnounce(`Question ${i + 1} removed.`);
  };

  return (
    <div id="questions-list" tabIndex={-1} className="questions">
      <p className="help-text">Extra questions shown to applicants in the application form, in this order.</p>
      {errors.questions && <p className="field-error">{errors.questions}</p>}
      {questions.length === 0 && <p className="empty-state">No additional questions yet.</p>}
      <ol className="question-list">
        {questions.map((q, i) => {
          const err = (f: string) => errors[`questions.${i}.${f}`];
          const base = `q-${q.key}`;
          const choice = isChoice(q.answer_type);
          return (
            <li key={q.key} className="question-card" aria-labelledby={`${base}-heading`}>
              <div className="question-head">
                <h2 id={`${base}-heading`}>Question {i + 1}</h2>
                <div className="question-tools">
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    aria-label={`Move question ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => move(i, i - 1)}
                  >
                    ↑ Up
                  </button>
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    aria-label={`Move question ${i + 1} down`}
                    disabled={i === questions.length - 1}
                    onClick={() => move(i, i + 1)}
                  >
                    ↓ Down
                  </button>
                  <button type="button" className="btn btn-danger btn-sm" aria-label={`Remove question ${i + 1}`} onClick={() => remove(i)}>
                    Remove
                  </button>
                </div>
              </div>
              {errors[`questions.${i}`] && <p className="field-error">{errors[`questions.${i}`]}</p>}
              <RichTextEditor
                id={`${base}-text`}
                label="Question text"
                required
                value={q.text}
                error={err('text')}
                onChange={(html) => update(q.key, { text: html })}
              />
              <div className="grid-3">
                <FieldShell id={`${base}-answer_type`} label="Answer type" error={err('answer_type')}>
                  <select
                    {...described(`${base}-answer_type`, false, err('answer_type'))}
                    value={q.answer_type}
                    onChange={(e) =>
                      update(q.key, {
                        answer_type: e.target.value,
                        options: isChoice(e.target.value) && q.options.length === 0 ? [''] : q.options,
                      })
                    }
                  >
                    {answerTypes.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                </FieldShell>
                <FieldShell id={`${base}-placeholder`} label="Placeholder" error={err('placeholder')}>
                  <input
                    type="text"
                    {...described(`${base}-placeholder`, false, err('placeholder'))}
                    maxLength={JOB_LIMITS.text}
                    value={q.placeholder}
                    onChange={(e) => update(q.key, { placeholder: e.target.value })}
                  />
                </FieldShell>
                <FieldShell id={`${base}-order`} label="Order" error={err('order')}>
                  <select {...described(`${base}-order`, false, err('order'))} value={i} onChange={(e) => move(i, Number(e.target.value))}>
                    {questions.map((_, j) => (
                      <option key={j} value={j}>
                        {j + 1}
                      </option>
                    ))}
                  </select>
                </FieldShell>
              </div>
              {choice && (
                <fieldset className="options">
                  <legend>Options</legend>
                  {q.options.map((opt, j) => (
                    <div className="option-row" key={j}>
                      <label className="visually-hidden" htmlFor={`${base}-option-${j}`}>
                        Option {j + 1}
                      </label>
                      <input
                        type="text"
                        id={`${base}-option-${j}`}
                        maxLength={JOB_LIMITS.option}
                        placeholder={`Option ${j + 1}`}
                        value={opt}
                        aria-invalid={err('options') ? true : undefined}
                        aria-describedby={err('options') ? `${base}-options-error` : undefined}
                        onChange={(e) => update(q.key, { options: q.options.map((o, k) => (k === j ? e.target.value : o)) })}
                      />
                      <button
                        type="button"
                        className="btn btn-secondary btn-sm"
                        aria-label={`Remove option ${j + 1}`}
                        onClick={() => update(q.key, { options: q.options.filter((_, k) => k !== j) })}
                      >
                        Remove
                      </button>
                    </div>
                  ))}
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => {
                      update(q.key, { options: [...q.options, ''] });
                      setTimeout(() => document.getElementById(`${base}-option-${q.options.length}`)?.focus(), 0);
                    }}
                  >
                    Add option
                  </button>
                  <p className="help-text">Blank options are dropped on save.</p>
                  {err('options') && (
                    <p className="field-error" id={`${base}-options-error`}>
                      {err('options')}
                    </p>
                  )}
                </fieldset>
              )}
              <RichTextEditor
                id={`${base}-help_text`}
                label="Help text"
                value={q.help_text}
                error={err('help_text')}
                onChange={(html) => update(q.key, { help_text: html })}
              />
              <div className="check-field">
                <input
                  type="checkbox"
                  {...described(`${base}-required`, false, err('required'))}
                  checked={q.required}
                  onChange={(e) => update(q.key, { required: e.target.checked })}
                />
                <label htmlFor={`${base}-required`}>Required</label>
              </div>
              {err('required') && (
                <p className="field-error" id={`${base}-required-error`}>
                  {err('required')}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" className="btn btn-secondary" onClick={add}>
        Add question
      </button>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announce}
      </p>
    </div>
  );
}
