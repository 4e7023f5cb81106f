/**
 * The status texts (/hr/settings/status-texts, admins; issue 35): one text field per stage name in
 * use, prefilled with the text candidates read now; **Save texts** saves them all (an emptied one
 * returns to the built-in text). What the API refuses is shown beside its field.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { Notice, type NoticeState } from './components/notice.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import type { StageStatusText } from '../src/candidates/types.js';

type Props = { max: number };

function StatusTexts({ max }: Props) {
  const [texts, setTexts] = useState<StageStatusText[] | null>(null);
  const [drafts, setDrafts] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [busy, setBusy] = useState(false);

  const show = useCallback((list: StageStatusText[]) => {
    setTexts(list);
    setDrafts(list.map((t) => t.text));
  }, []);
  useEffect(() => {
    hrJson<{ results: StageStatusText[] }>('/api/hr/settings/status-texts/')
      .then((r) => show(r.results))
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 401)) setNotice({ kind: 'error', text: 'Status texts could not be loaded.' });
      });
  }, [show]);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!texts || busy) return;
    setBusy(true);
    setErrors({});
    try {
      const saved = await hrJson<{ results: StageStatusText[] }>('/api/hr/settings/status-texts/', {
        method: 'PUT',
        body: { texts: texts.map((t, i) => ({ stage: t.stage, text: drafts[i] })) },
      });
      show(saved.results);
      setNotice({ kind: 'success', text: 'Status texts saved.' });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return setBusy(false);
      const byField = err instanceof ApiError ? fieldErrors(err.body) : {};
      const found: Record<number, string> = {};
      for (const [path, message] of Object.entries(byField)) {
        const m = /^texts\.(\d+)\.text$/.exec(path);
        if (m) found[Number(m[1])] = message;
      }
      setErrors(found);
      setNotice({ kind: 'error', text: err instanceof ApiError ? errorLines(err.body).join(' ') : 'Status texts could not be saved.' });
    }
    setBusy(false);
  };

  return (
    <form className="status-texts" onSubmit={save} noValidate>
      <Notice notice={notice} />
      {texts === null && notice === null && <p className="muted">Loading status texts…</p>}
      {texts?.map((t, i) => (
        <div key={t.stage} className="field">
          <label htmlFor={`status-text-${i}`}>{t.stage}</label>
          <textarea
            id={`status-text-${i}`}
            rows={2}
            maxLength={max}
            value={drafts[i] ?? ''}
            aria-invalid={errors[i] ? true : undefined}
            aria-describedby={`status-text-${i}-help${errors[i] ? ` status-text-${i}-error` : ''}`}
            onChange={(e) => setDrafts((d) => d.map((v, k) => (k === i ? e.target.value : v)))}
          />
          <p id={`status-text-${i}-help`} className="help-text">
            {t.custom ? `Your text. Built in: “${t.default_text}”` : 'The built-in text.'}
          </p>
          {errors[i] && (
            <p id={`status-text-${i}-error`} className="field-error">
              {errors[i]}
            </p>
          )}
        </div>
      ))}
      {texts && texts.length > 0 && (
        <button type="submit" className="btn btn-primary" aria-busy={busy || undefined}>
          Save texts
        </button>
      )}
    </form>
  );
}

mountIsland('status-texts', StatusTexts);
