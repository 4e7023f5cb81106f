/** The last step: everything entered, with a way back to each step to change it. */
import type { ReactNode } from 'react';
import { joinPhone, type AnswerValue } from '../../src/shared/application-rules.js';
import { RESUME_LABEL } from './BasicStep.js';
import { ErrorText, RequiredMark, controlProps } from './fields.js';
import { STEP_LABELS, dialCodeOf, formatBytes, formatYearMonth, type FormState, type ResumeFile, type StepKey } from './state.js';
import type { WizardQuestion } from '../../src/applicants/types.js';

interface Props {
  form: FormState;
  resume: ResumeFile | null;
  questions: WizardQuestion[];
  onEdit: (step: StepKey) => void;
  /** The consent box (APPLY_CONSENT_TEXT set), or null when none is asked. */
  consent: Consent | null;
}

interface Consent {
  text: string;
  given: boolean;
  error?: string;
  onChange: (given: boolean) => void;
}

/** The consent text as a required checkbox; the privacy page opens in a new tab so the answers stay. */
function ConsentBox({ consent }: { consent: Consent }) {
  const helpId = 'f-consent-help';
  return (
    <div className="field consent-field">
      <div className="consent-choice">
        <input
          type="checkbox"
          {...controlProps('consent', consent.error, helpId)}
          aria-required
          checked={consent.given}
          onChange={(e) => consent.onChange(e.target.checked)}
        />
        <label htmlFor="f-consent">
          {consent.text}
          <RequiredMark />
        </label>
      </div>
      <p className="help-text" id={helpId}>
        How we use your data:{' '}
        <a href="/privacy" target="_blank" rel="noopener">
          Privacy Policy<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        .
      </p>
      <ErrorText fieldKey="consent" error={consent.error} />
    </div>
  );
}

function Section({ step, onEdit, children }: { step: StepKey; onEdit: (s: StepKey) => void; children: ReactNode }) {
  const id = `review-${step}`;
  return (
    <section className="review-section" aria-labelledby={id}>
      <div className="review-head">
        <h3 id={id}>{STEP_LABELS[step]}</h3>
        <button type="button" className="btn btn-link" onClick={() => onEdit(step)} aria-label={`Edit ${STEP_LABELS[step]}`}>
          Edit
        </button>
      </div>
      {children}
    </section>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="review-row">
      <dt>{label}</dt>
      <dd>{value === '' || value === null || value === undefined ? <span className="muted">Not provided</span> : value}</dd>
    </div>
  );
}

const period = (start: string, end: string, ongoing: string) => `${formatYearMonth(start)} – ${formatYearMonth(end) || ongoing}`;

function answerText(v: AnswerValue | undefined): string {
  if (Array.isArray(v)) return v.join(', ');
  return (v ?? '').trim();
}

export function ReviewStep({ form, resume, questions, onEdit, consent }: Props) {
  return (
    <div className="review">
      <Section step="basic" onEdit={onEdit}>
        <dl className="review-list">
          <Row label="First name" value={form.first_name} />
          <Row label="Last name" value={form.last_name} />
          <Row label="Email" value={form.email} />
          <Row label="Phone" value={form.phone ? joinPhone(dialCodeOf(form.phone_country), form.phone) : ''} />
          <Row label={RESUME_LABEL.replace(/ \(.*/, '')} value={resume ? `${resume.name} (${formatBytes(resume.size)})` : ''} />
        </dl>
      </Section>

      <Section step="experience" onEdit={onEdit}>
        {form.experiences.length === 0 ? (
          <p className="muted">No experience added.</p>
        ) : (
          form.experiences.map((e, i) => (
            <div className="review-entry" key={i}>
              <h4>
                {e.role} at {e.company}
              </h4>
              <dl className="review-list">
                <Row label="Period" value={period(e.start, e.end, 'Present')} />
                <Row label="Notice period" value={e.notice_period} />
                <Row label="Salary" value={e.salary} />
                <Row label="Description" value={e.description ? <span className="pre-line">{e.description}</span> : ''} />
              </dl>
            </div>
          ))
        )}
      </Section>

      <Section step="education_skills" onEdit={onEdit}>
        <h4 className="review-sub">Education</h4>
        {form.education.length === 0 ? (
          <p className="muted">No education added.</p>
        ) : (
          form.education.map((e, i) => (
            <div className="review-entry" key={i}>
              <h5>
                {e.degree}
                {e.field ? `, ${e.field}` : ''} — {e.school}
              </h5>
              <p className="muted">{period(e.start, e.end, 'Ongoing')}</p>
            </div>
          ))
        )}
        <h4 className="review-sub">Skills</h4>
        {form.skills.length === 0 ? (
          <p className="muted">No skills added.</p>
        ) : (
          <ul className="skill-chips" aria-label="Skills">
            {form.skills.map((s) => (
              <li key={s} className="chip">
                {s}
              </li>
            ))}
          </ul>
        )}
      </Section>

      {questions.length > 0 && (
        <Section step="questions" onEdit={onEdit}>
          <dl className="review-list review-answers">
            {questions.map((q) => (
              <div className="review-row" key={q.id}>
                {/* biome-ignore lint/security/noDangerouslySetInnerHtml: question texts are rich text sanitised on save (src/shared/sanitize.ts) */}
                <dt className="rich-text" dangerouslySetInnerHTML={{ __html: q.text }} />
                <dd>{answerText(form.answers[String(q.id)]) || <span className="muted">Not answered</span>}</dd>
              </div>
            ))}
          </dl>
        </Section>
      )}
      {consent && <ConsentBox consent={consent} />}
    </div>
  );
}
