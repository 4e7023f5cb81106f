/**
 * The application wizard (spec 01 'Application wizard', sections 4, 5, 7 and 8): steps Basic Info,
 * Experience, Education & Skills, Questions (only when the job has questions) and Review.
 * Next advances only when the step validates; errors show after a failed Next or Submit. Submit
 * posts multipart to the apply API; a failure opens the 'Unable to Submit Application' dialog and
 * the step-level banner, with the server's field messages next to their fields. The banner belongs
 * to that failed attempt: it goes once every field message it points at is edited away, or when
 * the applicant moves on with Next.
 * A skill typed but not added yet is added when the applicant leaves its step with Next.
 * Beyond the spec: a per-job draft in localStorage (not the file), focus management and a live
 * region for screen readers; with APPLY_CONSENT_TEXT set (`consentText`), a required consent box
 * on the review step, never kept in the draft (consent is given for each submission).
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { CONSENT_FIELD, LIMITS, MESSAGES, addSkill, joinPhone, yearOptions, type AnswerValue } from '../../src/shared/application-rules.js';
import { extractErrorMessage, fieldErrorMessages, flattenErrorBody } from '../../src/shared/api-errors.js';
import { Modal } from './modal.js';
import { BasicStep } from './BasicStep.js';
import { EntryList } from './EntryList.js';
import { Progress } from './Progress.js';
import { QuestionsStep } from './QuestionsStep.js';
import { ReviewStep } from './ReviewStep.js';
import { funnelReporter } from './funnel.js';
import { WIZARD_SUBMIT_HEADER } from '../../src/funnel/types.js';
import { PHONE_RULE_MESSAGES, type PhoneRule } from '../../src/shared/phone-rule-names.js';
import { SkillsInput } from './SkillsInput.js';
import { clearDraft, loadDraft, saveDraft } from './draft.js';
import {
  STEP_LABELS,
  STEP_MESSAGES,
  answersPayload,
  dialCodeOf,
  emptyEducation,
  emptyExperience,
  emptyForm,
  stepOfKey,
  stepsFor,
  validateStep,
  type Errors,
  type FormState,
  type StepKey,
} from './state.js';
import type { WizardJob } from '../../src/applicants/types.js';

const NETWORK_MESSAGE = 'We could not reach the server. Please check your connection and try again.';

const STEP_INTROS: Record<StepKey, string> = {
  basic: 'Tell us who you are and how to reach you, and attach your resume.',
  experience: 'Add the jobs you have held, most recent first. If you have none yet, just continue.',
  education_skills: 'Add your education and the skills you bring.',
  questions: 'A few questions from the hiring team for this role.',
  review: 'Check everything below before you submit. Use Edit to change a section.',
};

interface Failure {
  message: string;
  /** The whole error body flattened into lines, shown when it says more than the message. */
  lines: string[];
  banner: string;
  /** The server's field messages the banner points the applicant at; once all are gone, so is it. */
  keys: string[];
}

const hasKeys = (o: object) => Object.keys(o).length > 0;

/** PHONE_RULE=international's check, loaded as its own chunk only on sites that use it. */
type InternationalPhone = (raw: string, country?: string) => string | null;

export function ApplyWizard({
  job,
  consentText = null,
  phoneRule = 'ten-digits',
}: {
  job: WizardJob;
  consentText?: string | null;
  phoneRule?: PhoneRule;
}) {
  const steps = useMemo(() => stepsFor(job), [job]);
  const years = useMemo(() => yearOptions(), []);
  const questions = job.questions;
  const jobHref = `/careers/${encodeURIComponent(job.public_id)}`;

  const [start] = useState(() => {
    const draft = loadDraft(job.public_id, questions);
    return { form: draft ?? emptyForm(), restored: draft !== null };
  });
  const [form, setForm] = useState<FormState>(start.form);
  const [restored, setRestored] = useState(start.restored);
  const [resumeFile, setResumeFile] = useState<File | null>(null);
  const [step, setStep] = useState(0);
  const [shown, setShown] = useState<Partial<Record<StepKey, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Errors>({});
  /** What is typed in the skills input and not added yet. */
  const [skillText, setSkillText] = useState('');
  /** Number questions whose input the browser cannot read as a number (validity.badInput). */
  const [unparsed, setUnparsed] = useState<ReadonlySet<number>>(() => new Set());
  const [consented, setConsented] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [modalOpen, setModalOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [focusRequest, setFocusRequest] = useState<{ target: 'heading' | 'invalid' | 'submit'; n: number } | null>(null);
  const [intlPhone, setIntlPhone] = useState<InternationalPhone | null>(null);
  useEffect(() => {
    if (phoneRule !== 'international') return;
    void import('../../src/shared/phone-rule.js').then((m) => setIntlPhone(() => m.internationalPhone));
  }, [phoneRule]);

  const dirty = useRef(false);
  /** Set while a submission is in flight (a double click must not send twice) and after it succeeded. */
  const inFlight = useRef(false);
  const sent = useRef(false);
  const sections = useRef<Partial<Record<StepKey, HTMLElement | null>>>({});
  const headings = useRef<Partial<Record<StepKey, HTMLHeadingElement | null>>>({});
  const honeypot = useRef<HTMLInputElement>(null);
  const submitButton = useRef<HTMLButtonElement>(null);

  const funnel = useMemo(() => funnelReporter(job.public_id), [job.public_id]);
  const current = steps[step];
  const isLast = step === steps.length - 1;
  const resume = resumeFile ? { name: resumeFile.name, size: resumeFile.size } : null;
  const validate = (s: StepKey): Errors => {
    const found = validateStep(s, form, resume, questions, unparsed);
    // PHONE_RULE=international: any number valid for the chosen country instead of 10 digits (the
    // server judges it the same way; until the check has loaded, the server's answer stands).
    if (s === 'basic' && phoneRule === 'international' && form.phone) {
      delete found.phone;
      if (intlPhone && !intlPhone(form.phone, form.phone_country)) found.phone = PHONE_RULE_MESSAGES.invalid;
    }
    return s === 'review' && consentText && !consented ? { ...found, [CONSENT_FIELD]: MESSAGES.consentRequired } : found;
  };

  // Server messages first; a step whose check failed shows its own (live) errors over them.
  const errors: Errors = { ...serverErrors };
  for (const s of steps) if (shown[s]) Object.assign(errors, validate(s));
  const stepMessage = shown[current] && hasKeys(validate(current)) ? STEP_MESSAGES[current] : null;

  useEffect(() => funnel.listen(), [funnel]);
  useEffect(() => {
    funnel.report(current, 'reached');
  }, [current, funnel]);

  useEffect(() => {
    if (dirty.current) saveDraft(job.public_id, form);
  }, [form, job.public_id]);

  // The failed attempt's banner goes once the applicant has dealt with every field it points at.
  useEffect(() => {
    if (failure && failure.keys.length > 0 && failure.keys.every((k) => !(k in serverErrors))) setFailure(null);
  }, [failure, serverErrors]);

  // Focus starts on the first step's heading, so a screen reader begins with the form (no scroll:
  // the page may have been scrolled already).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount only
  useEffect(() => {
    headings.current[steps[0]]?.focus({ preventScroll: true });
  }, []);

  useEffect(() => {
    if (!focusRequest) return;
    if (focusRequest.target === 'heading') headings.current[current]?.focus();
    else if (focusRequest.target === 'submit' && submitButton.current && !submitButton.current.disabled) submitButton.current.focus();
    else if (focusRequest.target === 'invalid') {
      const invalid = sections.current[current]?.querySelector<HTMLElement>('[aria-invalid="true"]');
      // A radio or checkbox group is invalid as a whole: focus its checked (or first) input.
      const target =
        invalid && !/^(INPUT|SELECT|TEXTAREA)$/.test(invalid.tagName)
          ? (invalid.querySelector<HTMLElement>('input:checked') ?? invalid.querySelector<HTMLElement>('input'))
          : invalid;
      (target ?? headings.current[current])?.focus();
    }
  }, [focusRequest, current]);

  useEffect(() => {
    // Back from the confirmation page may restore this page from the back/forward cache, still
    // "Submitting…" with the sent answers: load it afresh instead (the draft is gone by then).
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted && sent.current) window.location.reload();
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const requestFocus = (target: 'heading' | 'invalid' | 'submit') => setFocusRequest((r) => ({ target, n: (r?.n ?? 0) + 1 }));
  // The same text twice in a row would not be read again: alternate a trailing no-break space.
  const announce = (text: string) => setAnnouncement((prev) => (prev === text ? `${text}\u00a0` : text));

  const update = (patch: Partial<FormState>, keys: string[] = []) => {
    dirty.current = true;
    setForm((f) => ({ ...f, ...patch }));
    if (keys.some((k) => k in serverErrors))
      setServerErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !keys.includes(k))));
  };

  /** A list changed shape (add/remove): its server messages no longer line up with the entries. */
  const dropServerErrors = (prefix: string) =>
    setServerErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => k !== prefix && !k.startsWith(`${prefix}.`))));

  const goTo = (i: number) => {
    setStep(i);
    requestFocus('heading');
  };

  const setQuestionUnparsed = (id: number, bad: boolean) =>
    setUnparsed((prev) => {
      if (prev.has(id) === bad) return prev;
      const next = new Set(prev);
      if (bad) next.add(id);
      else next.delete(id);
      return next;
    });

  /** Leaving Education & Skills with Next: what is typed in the skills input counts as added. */
  const addPendingSkill = () => {
    if (!skillText.trim() || form.skills.length >= LIMITS.skills) return;
    const skills = addSkill(form.skills, skillText);
    if (skills !== form.skills) update({ skills }, ['skills']);
    setSkillText('');
  };

  /** Shows a step's errors and its banner message, and puts focus on the first invalid field. */
  const failStep = (i: number) => {
    const s = steps[i];
    setShown((prev) => ({ ...prev, [s]: true }));
    setStep(i);
    announce(STEP_MESSAGES[s] ?? MESSAGES.submitFallback);
    requestFocus('invalid');
  };

  const submit = async () => {
    const bad = steps.findIndex((s) => hasKeys(validate(s)));
    if (bad !== -1) return failStep(bad);

    if (inFlight.current) return;
    inFlight.current = true;
    funnel.report('review', 'completed');
    funnel.flush();
    setSubmitting(true);
    setFailure(null);
    announce('Submitting your application.');
    const fd = new FormData();
    fd.append('first_name', form.first_name.trim());
    fd.append('last_name', form.last_name.trim());
    fd.append('email', form.email.trim());
    // Under PHONE_RULE=international the number as E.164 (a national number's leading 0 dropped).
    fd.append(
      'phone',
      (phoneRule === 'international' && intlPhone?.(form.phone, form.phone_country)) ||
        joinPhone(dialCodeOf(form.phone_country), form.phone),
    );
    if (resumeFile) fd.append('resume', resumeFile, resumeFile.name);
    fd.append('professional_experiences', JSON.stringify(form.experiences));
    fd.append('education', JSON.stringify(form.education));
    fd.append('skills', JSON.stringify(form.skills));
    fd.append('answers', JSON.stringify(answersPayload(questions, form.answers)));
    fd.append('website', honeypot.current?.value ?? '');
    if (consentText) fd.append(CONSENT_FIELD, consented ? 'true' : 'false');

    let res: Response;
    try {
      res = await fetch(`/api/jobs/${encodeURIComponent(job.public_id)}/apply/`, {
        method: 'POST',
        body: fd,
        headers: { Accept: 'application/json', [WIZARD_SUBMIT_HEADER]: '1' },
        credentials: 'same-origin',
      });
    } catch {
      return fail({ message: NETWORK_MESSAGE, lines: [], banner: NETWORK_MESSAGE, keys: [] }, {});
    }
    if (res.ok) {
      sent.current = true;
      dirty.current = false;
      clearDraft(job.public_id);
      window.location.assign(`${jobHref}/submitted`);
      return;
    }
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: the text itself is the body */
    }
    const fields = fieldErrorMessages(body);
    const lines = flattenErrorBody(body);
    // Spec 01 section 8: one general message; the flattened body; the fallbacks.
    const message = extractErrorMessage(body) ?? (lines ? MESSAGES.submitFallback : MESSAGES.submitFailed);
    const shownLines = lines ?? [MESSAGES.submitFailed];
    const highlighted = Object.keys(fields).filter((k) => stepOfKey(k));
    fail(
      {
        message,
        // The lines are worth showing only when they add to the message.
        lines: shownLines.length > 1 || !shownLines[0].endsWith(message) ? shownLines : [],
        banner: highlighted.length ? MESSAGES.submitFallback : message,
        keys: highlighted,
      },
      fields,
    );
  };

  const fail = (f: Failure, fields: Errors) => {
    setServerErrors(fields);
    // Show the first step holding a field message, so the messages are visible next to their fields.
    // biome-ignore lint/complexity/useIndexOf: a predicate, not an item (false positive)
    const i = steps.findIndex((s) => Object.keys(fields).some((k) => stepOfKey(k) === s));
    if (i !== -1) setStep(i);
    setFailure(f);
    inFlight.current = false;
    setSubmitting(false);
    setModalOpen(true);
  };

  const closeModal = () => {
    setModalOpen(false);
    requestFocus(Object.keys(serverErrors).some((k) => stepOfKey(k) === current) ? 'invalid' : isLast ? 'submit' : 'heading');
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    if (hasKeys(validate(current))) return failStep(step);
    if (isLast) return void submit();
    funnel.report(current, 'completed');
    if (current === 'education_skills') addPendingSkill();
    // Moving on: a failed submission's banner has had its say.
    setFailure(null);
    goTo(step + 1);
  };

  const startOver = () => {
    clearDraft(job.public_id);
    dirty.current = false;
    setForm(emptyForm());
    setRestored(false);
    setShown({});
    setServerErrors({});
    setFailure(null);
    setSkillText('');
    goTo(0);
  };

  const stepContent = (s: StepKey) => {
    switch (s) {
      case 'basic':
        return (
          <BasicStep
            phoneRule={phoneRule}
            form={form}
            errors={errors}
            update={update}
            resume={resume}
            restored={restored}
            onResume={(file) => {
              setResumeFile(file);
              setServerErrors((e) => {
                const { resume: _drop, ...rest } = e;
                return rest;
              });
            }}
          />
        );
      case 'experience':
        return (
          <EntryList
            name="professional_experiences"
            noun="Experience"
            entries={form.experiences}
            errors={errors}
            years={years}
            make={emptyExperience}
            empty="No experience added. Add your work history, or continue if you have none."
            onChange={(experiences, key) => {
              update({ experiences }, key ? [key] : []);
              if (!key) dropServerErrors('professional_experiences');
            }}
            fields={[
              { name: 'company', label: 'Company', required: true },
              { name: 'role', label: 'Role', required: true },
              { name: 'start', label: 'Start date', required: true, kind: 'date' },
              { name: 'end', label: 'End date', kind: 'date', help: 'Leave empty if you work here now.' },
              { name: 'notice_period', label: 'Notice period', help: 'For example: 30 days, or Immediate.' },
              { name: 'salary', label: 'Salary (optional)' },
              { name: 'description', label: 'Description', kind: 'textarea', wide: true, help: 'What you did and achieved there.' },
            ]}
          />
        );
      case 'education_skills':
        return (
          <>
            <h3 className="sub-heading">Education</h3>
            <EntryList
              name="education"
              noun="Education"
              entries={form.education}
              errors={errors}
              years={years}
              make={emptyEducation}
              empty="No education added yet."
              onChange={(education, key) => {
                update({ education }, key ? [key] : []);
                if (!key) dropServerErrors('education');
              }}
              fields={[
                { name: 'school', label: 'School', required: true },
                { name: 'degree', label: 'Degree', required: true },
                { name: 'field', label: 'Field of study', wide: true },
                { name: 'start', label: 'Start date', required: true, kind: 'date' },
                { name: 'end', label: 'End date', kind: 'date', help: 'Leave empty if you are still studying.' },
              ]}
            />
            <h3 className="sub-heading">Skills</h3>
            <SkillsInput
              skills={form.skills}
              error={errors.skills}
              onChange={(skills) => update({ skills }, ['skills'])}
              text={skillText}
              onText={setSkillText}
            />
          </>
        );
      case 'questions':
        return (
          <QuestionsStep
            questions={questions}
            answers={form.answers}
            errors={errors}
            onAnswer={(id: number, value: AnswerValue) => update({ answers: { ...form.answers, [String(id)]: value } }, [`answers.${id}`])}
            onUnparsed={setQuestionUnparsed}
          />
        );
      case 'review':
        return (
          <ReviewStep
            form={form}
            resume={resume}
            questions={questions}
            onEdit={(s) => goTo(steps.indexOf(s))}
            consent={
              consentText
                ? {
                    text: consentText,
                    given: consented,
                    error: errors[CONSENT_FIELD],
                    onChange: (given) => {
                      setConsented(given);
                      setServerErrors((e) => {
                        const { [CONSENT_FIELD]: _drop, ...rest } = e;
                        return rest;
                      });
                    },
                  }
                : null
            }
          />
        );
    }
  };

  return (
    <div className="apply-wizard">
      <div inert={modalOpen}>
        <Progress steps={steps} current={step} />
        {restored && (
          <div className="alert alert-info draft-notice">
            <p>We restored the answers you saved on this device. Files cannot be saved, so please choose your resume again.</p>
            <button type="button" className="btn btn-link" onClick={startOver}>
              Start over
            </button>
          </div>
        )}
        <form className="card wizard-card" noValidate onSubmit={onSubmit} aria-busy={submitting}>
          {(stepMessage || failure) && (
            <div className="alert alert-error step-banner" id="step-banner">
              {stepMessage && <p>{stepMessage}</p>}
              {failure && <p>{failure.banner}</p>}
            </div>
          )}
          {steps.map((s, i) => (
            // Every step stays mounted (hidden when not current) so the chosen file stays in its input.
            <section
              key={s}
              hidden={s !== current}
              ref={(el) => {
                sections.current[s] = el;
              }}
              aria-labelledby={`step-${s}-title`}
              className="wizard-step"
            >
              <p className="step-count">
                Step {i + 1} of {steps.length}
              </p>
              <h2
                id={`step-${s}-title`}
                tabIndex={-1}
                ref={(el) => {
                  headings.current[s] = el;
                }}
              >
                {STEP_LABELS[s]}
              </h2>
              <p className="step-intro">{STEP_INTROS[s]}</p>
              {s !== 'review' && (
                <p className="required-note">
                  Fields marked{' '}
                  <span className="required-mark" aria-hidden="true">
                    *
                  </span>
                  <span className="visually-hidden">with an asterisk</span> are required.
                </p>
              )}
              {stepContent(s)}
            </section>
          ))}
          {/* A field people never see or reach; form-filling bots fill it in (the API drops those). */}
          <div className="hp-field" aria-hidden="true">
            <label htmlFor="f-website">Website</label>
            <input ref={honeypot} id="f-website" name="website" type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
          </div>
          <div className="wizard-actions">
            <a className="btn btn-link wizard-cancel" href={jobHref}>
              Cancel
            </a>
            <div className="wizard-nav">
              {step > 0 && (
                <button type="button" className="btn btn-secondary" onClick={() => goTo(step - 1)} disabled={submitting}>
                  Back
                </button>
              )}
              {isLast ? (
                <button ref={submitButton} type="submit" className="btn btn-primary" disabled={submitting}>
                  {submitting ? 'Submitting…' : 'Submit Application'}
                </button>
              ) : (
                <button type="submit" className="btn btn-primary">
                  Next
                </button>
              )}
            </div>
          </div>
          <p className="draft-hint">Your answers are saved on this device as you go, except the resume file.</p>
        </form>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      {modalOpen && failure && (
        <Modal
          id="submit-error"
          title="Unable to Submit Application"
          onClose={closeModal}
          actions={
            <button type="button" className="btn btn-primary" onClick={closeModal}>
              Close
            </button>
          }
        >
          <p>{failure.message}</p>
          {failure.lines.length > 0 && (
            <ul className="error-lines">
              {failure.lines.map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          )}
        </Modal>
      )}
    </div>
  );
}
