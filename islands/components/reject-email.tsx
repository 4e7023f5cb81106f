/**
 * Reject with email, shared by the board's and the applicant page's Reject dialogs and the
 * applicants list's bulk rejection (issue 30): whether to email, which template (the rejection
 * one first), when ("Send later": now, in an hour ... in a week, or a date and time in the
 * viewer's zone; the template's default delay chosen first), and the preview of the email with
 * how many of those chosen are already rejected (they get no second email unless "Email them
 * again" is ticked). The rejection and its emails go in one request
 * (`POST /api/hr/applications/emails/bulk/` with the outcome).
 */
import { useEffect, useId, useState } from 'react';
import { ApiError, hrJson } from './hr-api.js';
import { errorLines } from '../../src/shared/api-errors.js';
import { formatTime } from '../../src/shared/time-format.js';
import { DELAY_CHOICES, EMAIL_LIMITS, EMAIL_MESSAGES } from '../../src/emails/schema.js';
import type { BulkEmailResult, BulkPreview, EmailChoices, EmailTemplate } from '../../src/emails/types.js';
import './reject-email.css';

/** When to send: after a delay in minutes (0: now), or at a local date and time (`YYYY-MM-DDTHH:mm`). */
export type SendWhen = { kind: 'delay'; minutes: number } | { kind: 'at'; local: string };

export interface EmailOptionsState {
  send: boolean;
  templateId: number | null;
  when: SendWhen;
  emailAgain: boolean;
}

/** The templates and whether email is on (null while loading; `failed` when they could not be read). */
export function useEmailChoices(): { choices: EmailChoices | null; failed: boolean } {
  const [choices, setChoices] = useState<EmailChoices | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    hrJson<EmailChoices>('/api/hr/applications/emails/')
      .then(setChoices)
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 401)) setFailed(true);
      });
  }, []);
  return { choices, failed };
}

const delayOf = (t: EmailTemplate | undefined): SendWhen => ({ kind: 'delay', minutes: t?.default_delay_minutes ?? 0 });

/** The first state for these choices: email on when it can be sent, the rejection template, its default delay. */
export function initialEmailOptions(choices: EmailChoices | null): EmailOptionsState {
  const t = choices?.templates.find((x) => x.purpose === 'rejection') ?? choices?.templates[0];
  return { send: !!choices?.email_on && !!t, templateId: t?.id ?? null, when: delayOf(t), emailAgain: false };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A Date as the value of a datetime-local input, in the viewer's zone. */
const localValue = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

/** `send_at` for the API (null: now), or the problem with the chosen time. */
export function sendAtOf(when: SendWhen, now = new Date()): { sendAt: string | null; problem: string | null } {
  if (when.kind === 'delay')
    return { sendAt: when.minutes > 0 ? new Date(now.getTime() + when.minutes * 60_000).toISOString() : null, problem: null };
  const at = when.local ? new Date(when.local) : null;
  if (!at || Number.isNaN(at.getTime())) return { sendAt: null, problem: 'Enter the date and time to send it.' };
  if (at.getTime() <= now.getTime()) return { sendAt: null, problem: EMAIL_MESSAGES.sendAtPast };
  if (at.getTime() > now.getTime() + EMAIL_LIMITS.scheduleDays * 86_400_000) return { sendAt: null, problem: EMAIL_MESSAGES.sendAtFar };
  return { sendAt: at.toISOString(), problem: null };
}

/** "in 2 days" as the select lists it, or a template's own default delay. */
function delayLabel(minutes: number): string {
  const known = DELAY_CHOICES.find((c) => c.minutes === minutes);
  if (known) return known.label;
  if (minutes % 1440 === 0) return `In ${minutes / 1440} days`;
  if (minutes % 60 === 0) return `In ${minutes / 60} hours`;
  return `In ${minutes} minutes`;
}

const zoneName = (() => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return null;
  }
})();

/** The "Send" choice: now, after a delay, or at a date and time in the viewer's zone. */
export function SendLater({
  when,
  onChange,
  templateDelay,
  idPrefix,
}: {
  when: SendWhen;
  onChange: (w: SendWhen) => void;
  templateDelay: number | null;
  idPrefix: string;
}) {
  const minutes = [...new Set([...DELAY_CHOICES.map((c) => c.minutes), ...(templateDelay ? [templateDelay] : [])])].sort((a, b) => a - b);
  const value = when.kind === 'at' ? 'at' : String(when.minutes);
  const problem = when.kind === 'at' && when.local ? sendAtOf(when).problem : null;
  const now = new Date();
  return (
    <div className="send-later">
      <div className="field">
        <label htmlFor={`${idPrefix}-when`}>Send</label>
        <select
          id={`${idPrefix}-when`}
          value={value}
          onChange={(e) =>
            onChange(
              e.target.value === 'at'
                ? { kind: 'at', local: localValue(new Date(now.getTime() + 86_400_000)) }
                : { kind: 'delay', minutes: Number(e.target.value) },
            )
          }
        >
          {minutes.map((m) => (
            <option key={m} value={m}>
              {delayLabel(m)}
              {m === templateDelay ? ' (template default)' : ''}
            </option>
          ))}
          <option value="at">At a date and time…</option>
        </select>
      </div>
      {when.kind === 'at' && (
        <div className="field">
          <label htmlFor={`${idPrefix}-at`}>Date and time{zoneName ? ` (${zoneName})` : ''}</label>
          <input
            id={`${idPrefix}-at`}
            type="datetime-local"
            value={when.local}
            min={localValue(now)}
            max={localValue(new Date(now.getTime() + EMAIL_LIMITS.scheduleDays * 86_400_000))}
            onChange={(e) => onChange({ kind: 'at', local: e.target.value })}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${idPrefix}-at-error` : undefined}
          />
          {problem && (
            <p id={`${idPrefix}-at-error`} className="field-error">
              {problem}
            </p>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The email part of a Reject dialog: "Send the rejection email", the template, when, and the
 * preview for `ids` (read again when the template changes).
 */
export function RejectEmailOptions({
  ids,
  choices,
  state,
  onChange,
}: {
  ids: number[];
  choices: EmailChoices;
  state: EmailOptionsState;
  onChange: (s: EmailOptionsState) => void;
}) {
  const uid = useId();
  const [preview, setPreview] = useState<BulkPreview | null>(null);
  const [problem, setProblem] = useState<string[] | null>(null);
  const key = ids.join(',');
  useEffect(() => {
    setPreview(null);
    setProblem(null);
    const chosen = key ? key.split(',').map(Number) : [];
    if (!state.send || state.templateId === null || !chosen.length) return;
    let live = true;
    hrJson<BulkPreview>('/api/hr/applications/emails/bulk/preview/', {
      method: 'POST',
      body: { ids: chosen, template_id: state.templateId },
    })
      .then((p) => live && setPreview(p))
      .catch((err) => {
        if (!live || (err instanceof ApiError && err.status === 401)) return;
        setProblem([
          'The preview could not be made.',
          ...(err instanceof ApiError ? errorLines(err.body) : ['The server could not be reached. Please try again.']),
        ]);
      });
    return () => {
      live = false;
    };
  }, [state.send, state.templateId, key]);

  const off = !choices.email_on;
  const template = choices.templates.find((t) => t.id === state.templateId);
  const again = preview?.already_rejected ?? 0;
  return (
    <fieldset className="reject-email">
      <legend className="visually-hidden">Rejection email</legend>
      <div className="checkbox-field">
        <input
          id={`${uid}-send`}
          type="checkbox"
          checked={state.send}
          disabled={off}
          aria-describedby={off ? `${uid}-off` : undefined}
          onChange={(e) => onChange({ ...state, send: e.target.checked })}
        />
        <label htmlFor={`${uid}-send`}>{ids.length > 1 ? 'Send them the rejection email' : 'Send the rejection email'}</label>
      </div>
      {off && (
        <p id={`${uid}-off`} className="hint">
          {choices.off_reason}
        </p>
      )}
      {state.send && (
        <>
          <div className="reject-email-row">
            <div className="field">
              <label htmlFor={`${uid}-template`}>Email</label>
              <select
                id={`${uid}-template`}
                value={state.templateId ?? ''}
                onChange={(e) => {
                  const t = choices.templates.find((x) => x.id === Number(e.target.value));
                  onChange({ ...state, templateId: t?.id ?? null, when: delayOf(t) });
                }}
              >
                {choices.templates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </div>
            <SendLater
              idPrefix={uid}
              when={state.when}
              templateDelay={template?.default_delay_minutes ?? null}
              onChange={(when) => onChange({ ...state, when })}
            />
          </div>
          {again > 0 && (
            <div className="alert alert-warning reject-email-again">
              <p>
                {again === ids.length && ids.length === 1
                  ? 'This applicant is already rejected and was probably emailed: no second email is sent.'
                  : `${again} of the ${preview!.count} selected ${again === 1 ? 'is' : 'are'} already rejected: ${again === 1 ? 'it gets' : 'they get'} no second email.`}
              </p>
              <div className="checkbox-field">
                <input
                  id={`${uid}-again`}
                  type="checkbox"
                  checked={state.emailAgain}
                  onChange={(e) => onChange({ ...state, emailAgain: e.target.checked })}
                />
                <label htmlFor={`${uid}-again`}>Email {again === 1 ? 'them' : `those ${again}`} again</label>
              </div>
            </div>
          )}
          {problem && (
            <div className="alert alert-error" role="alert">
              {problem.map((l) => (
                <div key={l}>{l}</div>
              ))}
            </div>
          )}
          {preview && (
            <details className="email-preview" open={ids.length === 1 ? undefined : true}>
              <summary>Preview{ids.length > 1 ? ` (for ${preview.email.to})` : ''}</summary>
              <dl>
                <dt>To</dt>
                <dd>{preview.email.to}</dd>
                <dt>Subject</dt>
                <dd>{preview.email.subject}</dd>
              </dl>
              <pre className="email-text">{preview.email.text}</pre>
            </details>
          )}
        </>
      )}
    </fieldset>
  );
}

/** The problem that keeps the dialog from being sent (a time in the past), or null. */
export function emailOptionsProblem(state: EmailOptionsState): string | null {
  if (!state.send) return null;
  if (state.templateId === null) return EMAIL_MESSAGES.templateId;
  return sendAtOf(state.when).problem;
}

/** Rejects `ids` with `reason` and queues (or schedules) their email, in one request. */
export function rejectWithEmail(ids: number[], reason: string, state: EmailOptionsState): Promise<BulkEmailResult> {
  const { sendAt } = sendAtOf(state.when);
  return hrJson<BulkEmailResult>('/api/hr/applications/emails/bulk/', {
    method: 'POST',
    body: { ids, template_id: state.templateId, outcome: 'REJECTED', reason, send_at: sendAt, email_again: state.emailAgain },
  });
}

/** What a rejection with email says afterwards: sent now, scheduled (in the viewer's zone), or none for those already rejected. */
export function emailResultText(result: BulkEmailResult): string {
  const skipped = result.skipped_ids.length ? ` ${result.skipped_ids.length} already rejected got no second email.` : '';
  if (!result.queued) return `No email sent.${skipped}`;
  const n = result.queued === 1 ? '1 email' : `${result.queued} emails`;
  if (!result.send_after) return `${n} queued.${skipped}`;
  return `${n} scheduled for ${formatTime(result.send_after)}: it can be cancelled until then.${skipped}`;
}
