/**
 * Scorecards and the debrief on an applicant's page (/hr/applicants/{id}, issue 31):
 * - Ask for feedback: a stage and an HR user, or an outside person by email and name, and the
 *   interview's time when known.
 * - The scorecards: one's own as a form (the kit's instructions and questions, each attribute
 *   rated 1 to 4 or "No evidence" with a note, the overall recommendation; Save draft, Submit;
 *   for 24 h after submitting it can still be changed, then only amended with a note); the
 *   others' with their content, or the reason it is hidden (blind until one's own is submitted).
 * - Debrief: every submitted scorecard side by side per stage, the spread of each attribute and
 *   who recommended what, and the decision (advance, reject with a reason, offer).
 * After a decision the page's other parts are told the application changed (`applicant:changed`).
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { LocalTime } from './components/local-time.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { KIT_LIMITS } from '../src/scorecards/scorecards.schema.js';
import {
  RECOMMENDATIONS,
  RECOMMENDATION_LABELS,
  type AttributeRating,
  type Debrief,
  type Decision,
  type Recommendation,
  type Scorecard,
  type ScorecardChoices,
  type ScorecardList,
} from '../src/scorecards/scorecards.types.js';
import './scorecards.css';

type Props = { id: number };
type Notice = { kind: 'error' | 'success'; text: string } | null;

const CHANGED_EVENT = 'applicant:changed';
const OUTSIDE = 'outside';

function problem(err: unknown): { text: string; fields: Record<string, string> } {
  if (err instanceof ApiError)
    return { text: errorLines(err.body)[0] ?? `The server answered ${err.status}.`, fields: fieldErrors(err.body) };
  return { text: 'The server could not be reached. Please try again.', fields: {} };
}

function Announce({ notice }: { notice: Notice }) {
  return (
    <div role="status" aria-live="polite">
      {notice && <p className={`alert alert-${notice.kind === 'error' ? 'error' : 'success'}`}>{notice.text}</p>}
    </div>
  );
}

/** Ask an HR user or an outside person for feedback on a stage. */
function AskForm({ id, choices, onAsked }: { id: number; choices: ScorecardChoices; onAsked: (text: string) => void }) {
  const current = choices.stages.find((s) => s.current) ?? choices.stages[0];
  const [stage, setStage] = useState(String(current?.id ?? ''));
  const [who, setWho] = useState('');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [at, setAt] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setFields({});
    const body: Record<string, unknown> = { stage: Number(stage), interview_at: at ? new Date(at).toISOString() : null };
    if (who === OUTSIDE) Object.assign(body, { interviewer_email: email, interviewer_name: name });
    else if (who) body.interviewer_user_id = Number(who);
    try {
      const card = await hrJson<Scorecard>(`/api/hr/applications/${id}/scorecards/`, { method: 'POST', body });
      setNotice(null);
      setWho('');
      setEmail('');
      setName('');
      setAt('');
      onAsked(`${card.interviewer.name} was asked for feedback on ${card.stage_name}.`);
    } catch (err) {
      const p = problem(err);
      setFields(p.fields);
      setNotice({ kind: 'error', text: p.text });
    } finally {
      setBusy(false);
    }
  }

  const invalid = (key: string) => (fields[key] ? { 'aria-invalid': true as const, 'aria-describedby': `ask-err-${key}` } : {});
  const errorLine = (key: string) =>
    fields[key] ? (
      <p className="field-error" id={`ask-err-${key}`}>
        {fields[key]}
      </p>
    ) : null;
  return (
    <form className="card scorecard-form" onSubmit={submit} noValidate aria-labelledby="ask-heading">
      <h3 id="ask-heading">Ask for feedback</h3>
      <div className="kit-row">
        <div className="field">
          <label htmlFor="ask-stage">Stage</label>
          <select id="ask-stage" value={stage} onChange={(e) => setStage(e.target.value)} {...invalid('stage')}>
            {choices.stages.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
                {s.has_kit ? '' : ' (no kit)'}
              </option>
            ))}
          </select>
          {errorLine('stage')}
        </div>
        <div className="field">
          <label htmlFor="ask-who">Interviewer</label>
          <select id="ask-who" value={who} onChange={(e) => setWho(e.target.value)} {...invalid('interviewer_user_id')}>
            <option value="">Choose an interviewer</option>
            {choices.interviewers.map((u) => (
              <option key={u.id} value={u.id}>
                {u.username}
              </option>
            ))}
            <option value={OUTSIDE}>Someone without an account (by email)</option>
          </select>
          {errorLine('interviewer_user_id')}
        </div>
        <div className="field">
          <label htmlFor="ask-at">Interview time (optional)</label>
          <input id="ask-at" type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} {...invalid('interview_at')} />
          {errorLine('interview_at')}
        </div>
      </div>
      {who === OUTSIDE && (
        <div className="kit-row">
          <div className="field">
            <label htmlFor="ask-email">Their email</label>
            <input
              id="ask-email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              {...invalid('interviewer_email')}
            />
            {errorLine('interviewer_email')}
          </div>
          <div className="field">
            <label htmlFor="ask-name">Their name</label>
            <input
              id="ask-name"
              type="text"
              maxLength={KIT_LIMITS.interviewerName}
              value={name}
              onChange={(e) => setName(e.target.value)}
              {...invalid('interviewer_name')}
            />
            {errorLine('interviewer_name')}
          </div>
        </div>
      )}
      {who === '' && errorLine('interviewer_email')}
      <Announce notice={notice} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Asking…' : 'Ask for feedback'}
        </button>
      </div>
    </form>
  );
}

const ratingText = (r: number | null) => (r === null ? 'No evidence' : String(r));

/** One's own scorecard as a form: the kit, each attribute's rating and note, the recommendation. */
function OwnScorecard({ card, onChanged }: { card: Scorecard; onChanged: (c: Scorecard, text: string) => void }) {
  const attrs = card.kit?.attributes ?? [];
  const initial = () =>
    attrs.map(
      (a) => card.ratings.find((r) => r.attribute === a.name) ?? ({ attribute: a.name, rating: null, note: '' } as AttributeRating),
    );
  const [ratings, setRatings] = useState<AttributeRating[]>(initial);
  const [rec, setRec] = useState<Recommendation | null>(card.recommendation);
  const [note, setNote] = useState('');
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const editable = card.status === 'draft' || (card.editable_until !== null && Date.now() < Date.parse(card.editable_until));
  const prefix = `card-${card.id}`;

  async function call(path: string, method: string, body: unknown, done: string) {
    setBusy(true);
    try {
      const next = await hrJson<Scorecard>(`/api/hr/applications/${card.application_id}/scorecards/${card.id}/${path}`, { method, body });
      setNotice({ kind: 'success', text: done });
      onChanged(next, done);
      return next;
    } catch (err) {
      setNotice({ kind: 'error', text: problem(err).text });
      return null;
    } finally {
      setBusy(false);
    }
  }
  const save = () => call('', 'PATCH', { ratings, recommendation: rec }, 'Draft saved.');
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (card.status === 'submitted') {
      await call('', 'PATCH', { ratings, recommendation: rec }, 'Scorecard updated.');
      return;
    }
    if (await call('', 'PATCH', { ratings, recommendation: rec }, 'Draft saved.'))
      await call('submit/', 'POST', undefined, 'Scorecard submitted.');
  }
  async function amend(e: FormEvent) {
    e.preventDefault();
    if (await call('amendments/', 'POST', { note }, 'Amendment added.')) setNote('');
  }

  if (!editable)
    return (
      <>
        <ReadOnly card={card} />
        <form className="scorecard-form" onSubmit={amend} noValidate>
          <div className="field">
            <label htmlFor={`${prefix}-amend`}>Add an amendment (shown with your scorecard)</label>
            <textarea id={`${prefix}-amend`} maxLength={KIT_LIMITS.amendment} value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
          <Announce notice={notice} />
          <button type="submit" className="btn btn-secondary" disabled={busy}>
            Add amendment
          </button>
        </form>
      </>
    );
  return (
    <form className="scorecard-form" onSubmit={submit} noValidate>
      {card.kit ? (
        <>
          {card.kit.instructions && <p className="pre-line">{card.kit.instructions}</p>}
          {card.kit.questions.length > 0 && (
            <>
              <h4>Questions</h4>
              <ol className="kit-questions">
                {card.kit.questions.map((q) => (
                  <li key={q}>{q}</li>
                ))}
              </ol>
            </>
          )}
        </>
      ) : (
        <p className="help-text">This stage has no interview kit: give your overall recommendation.</p>
      )}
      {attrs.map((a, i) => (
        <fieldset key={a.name}>
          <legend>{a.name}</legend>
          <div className="rating-options">
            {[1, 2, 3, 4, null].map((value) => (
              <label key={String(value)}>
                <input
                  type="radio"
                  name={`${prefix}-rating-${i}`}
                  checked={ratings[i]?.rating === value}
                  onChange={() => setRatings(ratings.map((r, j) => (j === i ? { ...r, rating: value } : r)))}
                />
                <span>
                  <strong>{ratingText(value)}</strong>
                  {value !== null && a.levels[value - 1] ? `: ${a.levels[value - 1]}` : ''}
                </span>
              </label>
            ))}
          </div>
          <div className="field">
            <label htmlFor={`${prefix}-note-${i}`}>Note on {a.name}</label>
            <textarea
              id={`${prefix}-note-${i}`}
              maxLength={KIT_LIMITS.note}
              value={ratings[i]?.note ?? ''}
              onChange={(e) => setRatings(ratings.map((r, j) => (j === i ? { ...r, note: e.target.value } : r)))}
            />
          </div>
        </fieldset>
      ))}
      <fieldset>
        <legend>Overall recommendation</legend>
        <div className="rating-options">
          {RECOMMENDATIONS.map((r) => (
            <label key={r}>
              <input type="radio" name={`${prefix}-recommendation`} checked={rec === r} onChange={() => setRec(r)} />
              <span>{RECOMMENDATION_LABELS[r]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Announce notice={notice} />
      <div className="form-actions">
        {card.status === 'draft' && (
          <button type="button" className="btn btn-secondary" onClick={save} disabled={busy}>
            Save draft
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {card.status === 'draft' ? 'Submit scorecard' : 'Save changes'}
        </button>
      </div>
      {card.editable_until && card.status === 'submitted' && (
        <p className="help-text">
          You can change it until <LocalTime iso={card.editable_until} />; after that, add an amendment.
        </p>
      )}
    </form>
  );
}

function ReadOnly({ card }: { card: Scorecard }) {
  if (card.content_hidden) return <p className="muted-note">{card.hidden_reason}</p>;
  return (
    <>
      {card.recommendation && (
        <p>
          Recommendation: <strong>{RECOMMENDATION_LABELS[card.recommendation]}</strong>
        </p>
      )}
      {card.ratings.length > 0 && (
        <ul>
          {card.ratings.map((r) => (
            <li key={r.attribute}>
              {r.attribute}: <strong>{ratingText(r.rating)}</strong>
              {r.note && <span className="pre-line"> — {r.note}</span>}
            </li>
          ))}
        </ul>
      )}
      {card.amendments.map((a) => (
        <p key={a.id} className="alert alert-warning">
          Amendment by {a.author ?? 'a former user'} (<LocalTime iso={a.created_at} />
          ): <span className="pre-line">{a.note}</span>
        </p>
      ))}
    </>
  );
}

/** The debrief: the submitted scorecards of each stage side by side, and the decision. */
function DebriefView({
  id,
  debrief,
  reasons,
  onDecided,
}: {
  id: number;
  debrief: Debrief;
  reasons: string[];
  onDecided: (d: Debrief) => void;
}) {
  const [decision, setDecision] = useState<Decision>('advance');
  const [reason, setReason] = useState(reasons[0] ?? '');
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  async function decide(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    try {
      const next = await hrJson<Debrief>(`/api/hr/applications/${id}/debrief/decisions/`, {
        method: 'POST',
        body: decision === 'reject' ? { decision, reason } : { decision },
      });
      setNotice({ kind: 'success', text: 'Decision recorded.' });
      onDecided(next);
      document.dispatchEvent(new CustomEvent(CHANGED_EVENT));
    } catch (err) {
      setNotice({ kind: 'error', text: problem(err).text });
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="debrief-section" aria-labelledby="debrief-heading">
      <h2 id="debrief-heading">Debrief</h2>
      {debrief.hidden_reason ? (
        <p className="muted-note">{debrief.hidden_reason}</p>
      ) : debrief.stages.length === 0 ? (
        <p className="empty-state">No scorecard submitted yet.</p>
      ) : (
        debrief.stages.map((st) => (
          <div key={st.stage_id} className="table-wrap">
            <table className="debrief-table">
              <caption className="visually-hidden">Scorecards at {st.stage_name} side by side</caption>
              <thead>
                <tr>
                  <th scope="col">{st.stage_name}</th>
                  {st.interviewers.map((i) => (
                    <th scope="col" key={i.scorecard_id}>
                      {i.name}
                    </th>
                  ))}
                  <th scope="col">Spread</th>
                </tr>
              </thead>
              <tbody>
                {st.attributes.map((a) => (
                  <tr key={a.name}>
                    <th scope="row">{a.name}</th>
                    {a.ratings.map((r, n) => (
                      <td key={n}>{ratingText(r)}</td>
                    ))}
                    <td>{a.min === null ? '—' : a.min === a.max ? String(a.min) : `${a.min}–${a.max}`}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">Recommendation</th>
                  {st.interviewers.map((i) => (
                    <td key={i.scorecard_id}>
                      <strong>{RECOMMENDATION_LABELS[i.recommendation]}</strong>
                    </td>
                  ))}
                  <td />
                </tr>
              </tbody>
            </table>
          </div>
        ))
      )}
      {debrief.decisions.length > 0 && (
        <ul>
          {debrief.decisions.map((d) => (
            <li key={d.id}>
              {d.stage_name}:{' '}
              <strong>{d.decision === 'advance' ? 'Advance' : d.decision === 'reject' ? `Reject (${d.reason})` : 'Offer'}</strong> by{' '}
              {d.by ?? 'a former user'}, <LocalTime iso={d.created_at} />
            </li>
          ))}
        </ul>
      )}
      {!debrief.hidden_reason && (
        <form className="card scorecard-form" onSubmit={decide} noValidate>
          <fieldset>
            <legend>Decision</legend>
            <div className="rating-options">
              {(
                [
                  ['advance', 'Advance to the next stage'],
                  ['reject', 'Reject'],
                  ['offer', 'Make an offer'],
                ] as const
              ).map(([value, label]) => (
                <label key={value}>
                  <input type="radio" name="debrief-decision" checked={decision === value} onChange={() => setDecision(value)} />
                  <span>{label}</span>
                </label>
              ))}
            </div>
            {decision === 'reject' && (
              <div className="field">
                <label htmlFor="debrief-reason">Reason</label>
                <select id="debrief-reason" value={reason} onChange={(e) => setReason(e.target.value)}>
                  {reasons.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </div>
            )}
          </fieldset>
          <Announce notice={notice} />
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              Record decision
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function Scorecards({ id }: Props) {
  const [choices, setChoices] = useState<ScorecardChoices | null>(null);
  const [list, setList] = useState<ScorecardList | null>(null);
  const [debrief, setDebrief] = useState<Debrief | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [loadError, setLoadError] = useState(false);

  const load = useCallback(async () => {
    try {
      const [c, l, d] = await Promise.all([
        hrJson<ScorecardChoices>(`/api/hr/applications/${id}/scorecards/choices/`),
        hrJson<ScorecardList>(`/api/hr/applications/${id}/scorecards/`),
        hrJson<Debrief>(`/api/hr/applications/${id}/debrief/`),
      ]);
      setChoices(c);
      setList(l);
      setDebrief(d);
      setLoadError(false);
    } catch {
      setLoadError(true);
    }
  }, [id]);
  useEffect(() => {
    void load();
  }, [load]);

  if (loadError) return <p className="alert alert-error">The scorecards could not be loaded. Reload the page to try again.</p>;
  if (!choices || !list || !debrief) return <p className="muted">Loading the scorecards…</p>;
  return (
    <>
      <section className="scorecards-section" aria-labelledby="scorecards-heading">
        <h2 id="scorecards-heading">Scorecards</h2>
        <Announce notice={notice} />
        {list.results.length === 0 ? (
          <p className="empty-state">No one has been asked for feedback yet.</p>
        ) : (
          <ul className="scorecard-list">
            {list.results.map((card) => (
              <li key={card.id} className="card">
                <div className="scorecard-head">
                  <h3>
                    {card.mine ? 'Your scorecard' : card.interviewer.name} · {card.stage_name}
                  </h3>
                  <span>
                    <span className={`status ${card.status === 'submitted' ? 'status-delivered' : 'status-waiting'}`}>
                      {card.status === 'submitted' ? 'Submitted' : 'Draft'}
                    </span>{' '}
                    {card.overdue && <span className="status status-failed">Overdue</span>}
                  </span>
                </div>
                <p className="help-text">
                  {card.interviewer.email ? `${card.interviewer.name} (${card.interviewer.email}, no account)` : card.interviewer.name}
                  {card.interview_at && (
                    <>
                      {' '}
                      · interview <LocalTime iso={card.interview_at} />
                    </>
                  )}
                  {card.submitted_at && (
                    <>
                      {' '}
                      · submitted <LocalTime iso={card.submitted_at} />
                    </>
                  )}
                </p>
                {card.mine ? (
                  <OwnScorecard
                    card={card}
                    onChanged={(next) => {
                      setList({ ...list, results: list.results.map((c) => (c.id === next.id ? next : c)) });
                      if (next.status === 'submitted') void load();
                    }}
                  />
                ) : (
                  <ReadOnly card={card} />
                )}
              </li>
            ))}
          </ul>
        )}
        <AskForm
          id={id}
          choices={choices}
          onAsked={(text) => {
            setNotice({ kind: 'success', text });
            void load();
          }}
        />
      </section>
      <DebriefView id={id} debrief={debrief} reasons={choices.reasons} onDecided={setDebrief} />
    </>
  );
}

mountIsland('scorecards', Scorecards);
