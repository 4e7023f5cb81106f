/**
 * The applicant page's Offer section (/hr/applicants/{id}, issue 34), for admins, recruiters and
 * the job's hiring manager (never interviewers: the page leaves it out for them and the API refuses
 * them; a hiring manager on the team in another role gets 403 and no section). The newest offer with its status, terms and approvals, and what can be done next: make one
 * (terms, template), change it (a submitted offer's approval restarts), submit it for approval,
 * approve or reject it with a comment (an approver asked now), send it, withdraw it, download its
 * PDF (the signed one once accepted). Earlier offers are listed below. Inputs are checked first
 * with the API's own schema (src/offers/schema.ts).
 */
import { type FormEvent, useCallback, useEffect, useId, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrorMessages } from '../src/shared/api-errors.js';
import { fieldErrorsOf } from '../src/shared/field-errors.js';
import { formatTime } from '../src/shared/time-format.js';
import { SALARY_PERIODS, type SalaryPeriod } from '../src/shared/enums.js';
import { offerSchema } from '../src/offers/schema.js';
import { EDITABLE_STATUSES, WITHDRAWABLE_STATUSES, type Offer, type OfferTemplate } from '../src/offers/types.js';
import './applicant-offer.css';

const PERIOD_LABELS: Record<SalaryPeriod, string> = { YEAR: 'per year', MONTH: 'per month', HOUR: 'per hour' };
const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 });
const day = (d: string) =>
  new Date(`${d}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayAhead = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

interface Draft {
  base_pay: string;
  salary_period: SalaryPeriod;
  currency: string;
  start_date: string;
  expires_on: string;
  bonus: string;
  equity: string;
  benefits: string;
  template_id: string;
}

const draftOf = (o: Offer | null, props: Props): Draft => ({
  base_pay: o ? String(o.base_pay) : '',
  salary_period: o?.salary_period ?? props.salary_period,
  currency: o?.currency ?? props.currency,
  start_date: o?.start_date ?? dayAhead(30),
  expires_on: o?.expires_on ?? dayAhead(7),
  bonus: o?.bonus ?? '',
  equity: o?.equity ?? '',
  benefits: o?.benefits ?? '',
  template_id: '',
});

interface Props {
  id: number;
  currency: string;
  salary_period: SalaryPeriod;
}

function OfferForm({
  props,
  offer,
  templates,
  onSaved,
  onCancel,
}: {
  props: Props;
  offer: Offer | null;
  templates: OfferTemplate[];
  onSaved: (o: Offer, note: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(offer, props));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const describedBy = (key: string) => (errors[key] ? `${id}-${key}-err` : undefined);
  const error = (key: string) =>
    errors[key] ? (
      <p id={`${id}-${key}-err`} className="field-error">
        {errors[key]}
      </p>
    ) : null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const { template_id, ...terms } = draft;
    const body: Record<string, unknown> = { ...terms, currency: terms.currency.trim().toUpperCase() };
    if (template_id) body.template_id = Number(template_id);
    const parsed = offerSchema(!!offer).safeParse(body);
    if (!parsed.success) {
      setErrors(Object.fromEntries(Object.entries(fieldErrorsOf(parsed.error.issues)).map(([k, v]) => [k, v.join(' ')])));
      return;
    }
    setErrors({});
    setProblem(null);
    setBusy(true);
    try {
      const saved = await hrJson<Offer>(offer ? `/api/hr/offers/${offer.id}/` : `/api/hr/applications/${props.id}/offers/`, {
        method: offer ? 'PATCH' : 'POST',
        body,
      });
      setBusy(false);
      onSaved(saved, offer ? 'Offer saved.' : 'Offer drafted.');
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.status === 401) return;
      if (err instanceof ApiError && err.status === 400) {
        const fields = fieldErrorMessages(err.body as never);
        setErrors(fields);
        if (!Object.keys(fields).length) setProblem(errorLines(err.body as never));
      } else setProblem(err instanceof ApiError ? errorLines(err.body as never) : ['The server could not be reached. Please try again.']);
    }
  };

  const text = (key: keyof Draft, label: string, type = 'text') => (
    <div className="field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type={type}
        value={draft[key]}
        onChange={(e) => set(key, e.target.value as never)}
        aria-invalid={!!errors[key]}
        aria-describedby={describedBy(key)}
      />
      {error(key)}
    </div>
  );

  return (
    <form className="offer-form" noValidate onSubmit={(e) => void submit(e)}>
      {problem && (
        <div className="alert alert-error" role="alert">
          {problem.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      )}
      {offer && offer.status !== 'draft' && <p className="help-text">Changing the terms of a submitted offer starts its approval again.</p>}
      <div className="offer-grid">
        {text('base_pay', 'Base pay')}
        <div className="field">
          <label htmlFor={`${id}-period`}>Period</label>
          <select id={`${id}-period`} value={draft.salary_period} onChange={(e) => set('salary_period', e.target.value as SalaryPeriod)}>
            {SALARY_PERIODS.map((p) => (
              <option key={p} value={p}>
                {PERIOD_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
        {text('currency', 'Currency')}
        {text('start_date', 'Start date', 'date')}
        {text('expires_on', 'Offer open until', 'date')}
      </div>
      {text('bonus', 'Bonus')}
      {text('equity', 'Equity')}
      <div className="field">
        <label htmlFor={`${id}-benefits`}>Benefits</label>
        <textarea
          id={`${id}-benefits`}
          rows={3}
          value={draft.benefits}
          onChange={(e) => set('benefits', e.target.value)}
          aria-invalid={!!errors.benefits}
          aria-describedby={describedBy('benefits')}
        />
        {error('benefits')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-template`}>Letter</label>
        <select id={`${id}-template`} value={draft.template_id} onChange={(e) => set('template_id', e.target.value)}>
          <option value="">{offer ? 'Keep the letter' : 'The default template'}</option>
          {templates.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
        {error('template_id')}
        {error('letter')}
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy} aria-busy={busy}>
          {busy ? 'Saving…' : offer ? 'Save the offer' : 'Draft the offer'}
        </button>
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ApplicantOffer(props: Props) {
  const uid = useId();
  const [offers, setOffers] = useState<Offer[] | null>(null);
  const [templates, setTemplates] = useState<OfferTemplate[]>([]);
  const [editing, setEditing] = useState<'new' | 'edit' | null>(null);
  const [comment, setComment] = useState('');
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  // A hiring manager on the job's team in another role than hiring manager or recruiter sees no offers (403): no section.
  const [hidden, setHidden] = useState(false);

  const load = useCallback(async () => {
    try {
      setOffers((await hrJson<{ results: Offer[] }>(`/api/hr/applications/${props.id}/offers/`)).results);
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) setHidden(true);
      else if (!(err instanceof ApiError && err.status === 401)) setMessage('The offers could not be loaded.');
    }
  }, [props.id]);
  useEffect(() => {
    void load();
    hrJson<{ results: OfferTemplate[] }>('/api/hr/offer-templates/').then(
      (r) => setTemplates(r.results),
      () => setTemplates([]),
    );
  }, [load]);

  const act = async (offer: Offer, action: string, body: unknown, done: string) => {
    if (busy) return;
    setBusy(true);
    try {
      await hrJson<Offer>(`/api/hr/offers/${offer.id}/${action}/`, { method: 'POST', body });
      setMessage(done);
      setComment('');
      setReason('');
      document.dispatchEvent(new CustomEvent('applicant:changed'));
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401))
        setMessage(
          err instanceof ApiError ? errorLines(err.body as never).join(' ') : 'The server could not be reached. Please try again.',
        );
    }
    setBusy(false);
    void load();
  };

  if (hidden) return null;
  const current = offers?.[0] ?? null;
  const earlier = offers?.slice(1) ?? [];
  const open = current && !['accepted', 'declined', 'expired', 'withdrawn'].includes(current.status);

  return (
    <section className="card offer-section" aria-labelledby={`${uid}-title`}>
      <div className="offer-head">
        <h2 id={`${uid}-title`}>Offer</h2>
        {offers && !open && !editing && (
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setEditing('new')}>
            Make an offer
          </button>
        )}
      </div>
      <div className="offer-message" role="status" aria-live="polite">
        {message}
      </div>
      {offers && !current && !editing && <p className="empty-state">No offer yet.</p>}
      {editing && (
        <OfferForm
          props={props}
          offer={editing === 'edit' ? current : null}
          templates={templates}
          onSaved={(_o, note) => {
            setEditing(null);
            setMessage(note);
            void load();
          }}
          onCancel={() => setEditing(null)}
        />
      )}
      {current && !editing && (
        <article className="offer-current">
          <p>
            <span className={`offer-status offer-status-${current.status}`}>{current.status_label}</span>{' '}
            <strong>
              {money(current.base_pay)} {current.currency} {PERIOD_LABELS[current.salary_period]}
            </strong>
            {current.in_range === false && <span className="offer-range"> · outside the job's range</span>}
          </p>
          <dl className="offer-facts">
            <dt>Start date</dt>
            <dd>{day(current.start_date)}</dd>
            <dt>Open until</dt>
            <dd>{day(current.expires_on)}</dd>
            {current.bonus && (
              <>
                <dt>Bonus</dt>
                <dd>{current.bonus}</dd>
              </>
            )}
            {current.equity && (
              <>
                <dt>Equity</dt>
                <dd>{current.equity}</dd>
              </>
            )}
            {current.benefits && (
              <>
                <dt>Benefits</dt>
                <dd>{current.benefits}</dd>
              </>
            )}
            {current.sent_at && (
              <>
                <dt>Sent</dt>
                <dd>{formatTime(current.sent_at)}</dd>
              </>
            )}
            {current.signed_name && (
              <>
                <dt>Signed</dt>
                <dd>
                  “{current.signed_name}”{current.decided_at ? `, ${formatTime(current.decided_at)}` : ''}
                </dd>
              </>
            )}
            {current.decline_reason && (
              <>
                <dt>Reason for declining</dt>
                <dd>{current.decline_reason}</dd>
              </>
            )}
            {current.withdraw_reason && (
              <>
                <dt>Reason for withdrawing</dt>
                <dd>{current.withdraw_reason}</dd>
              </>
            )}
          </dl>
          {current.rejection_comment && current.status === 'draft' && (
            <p className="alert alert-warning">Rejected: {current.rejection_comment}</p>
          )}
          {current.approvals.length > 0 && current.status === 'pending_approval' && (
            <>
              <h3>Approvals</h3>
              <ul className="offer-approvals">
                {current.approvals.map((a) => (
                  <li key={a.id}>
                    {a.approver}:{' '}
                    {a.decision === 'PENDING'
                      ? a.asked
                        ? 'asked, waiting'
                        : 'not asked yet'
                      : a.decision === 'APPROVED'
                        ? 'approved'
                        : 'rejected'}
                    {a.comment ? ` (“${a.comment}”)` : ''}
                  </li>
                ))}
              </ul>
            </>
          )}
          {current.can_decide && (
            <div className="field">
              <label htmlFor={`${uid}-comment`}>Your comment (required to reject)</label>
              <textarea id={`${uid}-comment`} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
            </div>
          )}
          <div className="offer-actions">
            {current.can_decide && (
              <>
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  disabled={busy}
                  onClick={() => void act(current, 'approve', { comment }, 'Offer approved.')}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className="btn btn-danger btn-sm"
                  disabled={busy}
                  onClick={() => void act(current, 'reject', { comment }, 'Offer rejected.')}
                >
                  Reject
                </button>
              </>
            )}
            {current.status === 'draft' && (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                disabled={busy}
                onClick={() => void act(current, 'submit', {}, 'Offer submitted.')}
              >
                Submit for approval
              </button>
            )}
            {current.status === 'approved' && (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                disabled={busy}
                onClick={() => void act(current, 'send', {}, 'Offer sent to the candidate.')}
              >
                Send to the candidate
              </button>
            )}
            {EDITABLE_STATUSES.includes(current.status) && (
              <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={() => setEditing('edit')}>
                Change
              </button>
            )}
            <a className="btn btn-secondary btn-sm" href={`/api/hr/offers/${current.id}/pdf/`}>
              {current.status === 'accepted' ? 'Signed PDF' : 'PDF'}
              <span className="visually-hidden"> of the offer</span>
            </a>
          </div>
          {WITHDRAWABLE_STATUSES.includes(current.status) && (
            <details className="offer-withdraw">
              <summary>Withdraw the offer</summary>
              <div className="field">
                <label htmlFor={`${uid}-reason`}>Reason (optional)</label>
                <input id={`${uid}-reason`} type="text" value={reason} onChange={(e) => setReason(e.target.value)} />
              </div>
              <button
                type="button"
                className="btn btn-danger btn-sm"
                disabled={busy}
                onClick={() => void act(current, 'withdraw', { reason }, 'Offer withdrawn.')}
              >
                Withdraw
              </button>
            </details>
          )}
        </article>
      )}
      {earlier.length > 0 && (
        <>
          <h3>Earlier offers</h3>
          <ul className="offer-earlier">
            {earlier.map((o) => (
              <li key={o.id}>
                {o.status_label}: {money(o.base_pay)} {o.currency} {PERIOD_LABELS[o.salary_period]}, made {formatTime(o.created_at, 'date')}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

mountIsland('applicant-offer', ApplicantOffer);
