/**
 * The job editor: loads the job (edit), keeps the draft and its field messages, saves, and shows
 * the tabs with Previous/Next. See islands/job-editor.tsx for the behaviour as a whole.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ApiError, hrJson } from '../components/hr-api.js';
import { useDraft } from '../components/drafts.js';
import { DraftNote } from '../components/draft-note.js';
import { flashNext } from '../components/flash.js';
import { errorLines, fieldErrors } from '../../src/shared/api-errors.js';
import type { HrJob } from '../../src/jobs/types.js';
import {
  RELATED_FIELDS,
  emptyDraft,
  fromStoredDraft,
  snapshot,
  toDraft,
  toPayload,
  withoutErrors,
  type Draft,
  type Props,
  type QuestionDraft,
  type SetField,
} from './draft.js';
import { useLeaveGuard } from './leave-guard.js';
import { BasicsPanel, CompensationPanel, DescriptionPanel, NotificationsPanel, TabPanel } from './panels.js';
import { QuestionsEditor } from './QuestionsEditor.js';
import { SaveBanner, type Failure } from './SaveBanner.js';
import { TABS, elementIdOf, tabOf, type TabKey } from './tabs.js';
import { TeamPanel } from './TeamPanel.js';
import { ChecksPanel, refusedByChecks } from './ChecksPanel.js';
import { PUBLISHING_LIMITS, PUBLISHING_MESSAGES } from '../../src/publishing/schema.js';

/** Said on the job list after a job is created (the editor's own banner says an edit was saved). */
const JOB_CREATED = 'Job created.';

export function JobEditor(props: Props) {
  const { mode, jobId } = props;
  const [draft, setDraft] = useState<Draft | null>(mode === 'create' ? emptyDraft() : null);
  const [savedTitle, setSavedTitle] = useState(props.title);
  const [tab, setTab] = useState<TabKey>('basics');
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saved, setSaved] = useState(false);
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  /** Issue 34: the checklist is read again after each save; an admin may retry a refused activation with an override note. */
  const [checksVersion, setChecksVersion] = useState(0);
  const [overrideOffer, setOverrideOffer] = useState(false);
  const [overrideNote, setOverrideNote] = useState('');
  const [overrideError, setOverrideError] = useState('');
  const banner = useRef<HTMLDivElement>(null);
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  /** The draft as last rendered, for event handlers that outlive a render. */
  const latest = useRef(draft);
  latest.current = draft;
  /** The form as loaded or last saved, and a state the user already agreed to leave behind. */
  const [initial] = useState(() => (draft ? snapshot(draft, mode) : null));
  const baseline = useRef<string | null>(initial);
  /** The form as loaded or last saved, for "Discard draft". */
  const savedForm = useRef<Draft | null>(null);
  const leaveConfirmed = useRef<string | null>(null);
  const unsaved = () => {
    const now = latest.current ? snapshot(latest.current, mode) : null;
    return now !== null && now !== baseline.current && now !== leaveConfirmed.current;
  };

  // The unsaved fields are kept on this device until saved (issue 30); brought back once the job has loaded.
  const kept = useDraft(
    'job',
    jobId ?? 'new',
    draft,
    draft !== null && snapshot(draft, mode) !== baseline.current,
    fromStoredDraft,
    setDraft,
    draft !== null,
  );

  useLeaveGuard(unsaved, () => {
    leaveConfirmed.current = latest.current ? snapshot(latest.current, mode) : null;
  });

  // The failed save's banner goes once every field message it points at has been edited away.
  useEffect(() => {
    if (failure && failure.keys.length > 0 && failure.keys.every((k) => !(k in errors))) setFailure(null);
  }, [failure, errors]);

  useEffect(() => {
    if (mode !== 'edit' || jobId === null) return;
    hrJson<HrJob>(`/api/hr/jobs/${jobId}/`)
      .then((job) => {
        const loaded = toDraft(job);
        baseline.current = snapshot(loaded, mode);
        savedForm.current = loaded;
        setDraft(loaded);
        setSavedTitle(job.title);
      })
      // Spec: a job that cannot be loaded sends the user to the login page (a 401 is already on
      // its way there through hrFetch). No `next` back here: with a live session the login page
      // moves on to the dashboard instead of looping into this failing load.
      .catch((err) => {
        if (!(err instanceof ApiError && err.status === 401)) location.assign('/hrviewlogin');
      });
  }, [mode, jobId]);

  // The selected tab stays in view (the tab list scrolls sideways on small screens).
  useEffect(() => {
    tabRefs.current[tab]?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [tab]);

  // After a failed save: show the tab of the first error, then move focus to that field.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again once the tab is shown, when its field exists
  useEffect(() => {
    if (!focusTarget) return;
    const [panelId, fallbackId] = focusTarget.includes('|') ? focusTarget.split('|') : ['', focusTarget];
    const el =
      (panelId ? document.getElementById(panelId)?.querySelector<HTMLElement>('[aria-invalid="true"]') : null) ??
      document.getElementById(fallbackId);
    if (el) {
      el.focus();
      el.scrollIntoView({ block: 'center' });
    } else {
      banner.current?.focus();
    }
    setFocusTarget(null);
  }, [focusTarget, tab]);

  if (!draft) {
    return (
      <>
        <div className="page-title">
          <h1>{`Edit Job: ${savedTitle}`}</h1>
        </div>
        <p className="help-text" role="status">
          Loading job…
        </p>
      </>
    );
  }

  // Every change is a functional update: rich-text editors keep an earlier onChange (see RichTextEditor).
  const dropErrors = (drop: (key: string) => boolean) => setErrors((e) => withoutErrors(e, drop));
  const set: SetField = (key, value) => {
    setDraft((d) => (d ? { ...d, [key]: value } : d));
    setSaved(false);
    const related: string[] = RELATED_FIELDS[key] ?? [key];
    dropErrors((k) => related.includes(k));
  };
  const setQuestions = (update: (qs: QuestionDraft[]) => QuestionDraft[]) => {
    setDraft((d) => (d ? { ...d, questions: update(d.questions) } : d));
    setSaved(false);
  };
  /** One question's fields changed: their messages go, and the question's own. */
  const editQuestion = (key: string, patch: Partial<QuestionDraft>) => {
    const i = latest.current?.questions.findIndex((q) => q.key === key) ?? -1;
    setQuestions((qs) => qs.map((q) => (q.key === key ? { ...q, ...patch } : q)));
    // A new answer type decides whether options are needed at all.
    const fields = 'answer_type' in patch ? [...Object.keys(patch), 'options'] : Object.keys(patch);
    if (i >= 0)
      dropErrors((k) => k === `questions.${i}` || fields.some((f) => k === `questions.${i}.${f}` || k.startsWith(`questions.${i}.${f}.`)));
  };
  /** Questions added, removed or moved: the list's messages no longer line up with its questions. */
  const reshapeQuestions = (update: (qs: QuestionDraft[]) => QuestionDraft[]) => {
    setQuestions(update);
    dropErrors((k) => k === 'questions' || k.startsWith('questions.'));
  };

  const save = async (override?: string) => {
    if (saving) return;
    if (override !== undefined && !override.trim()) {
      setOverrideError(PUBLISHING_MESSAGES.overrideNote);
      document.getElementById('override-note')?.focus();
      return;
    }
    setSaving(true);
    setSaved(false);
    setFailure(null);
    setErrors({});
    setOverrideError('');
    try {
      const body = { ...toPayload(draft, mode), ...(override !== undefined ? { override_checks: { note: override } } : {}) };
      if (mode === 'create') {
        await hrJson<HrJob>('/api/hr/jobs/', { method: 'POST', body });
        baseline.current = snapshot(draft, mode); // saved: nothing to ask about on the way out
        kept.clear();
        flashNext(JOB_CREATED);
        location.assign('/hr/jobs/list');
        return;
      }
      const job = await hrJson<HrJob>(`/api/hr/jobs/${jobId}/`, { method: 'PUT', body });
      const savedDraft = toDraft(job, latest.current ?? undefined);
      baseline.current = snapshot(savedDraft, mode);
      savedForm.current = savedDraft;
      kept.clear();
      setDraft(savedDraft);
      setSavedTitle(job.title);
      document.title = `Edit Job: ${job.title}`;
      setSaved(true);
      setSaving(false);
      setOverrideOffer(false);
      setOverrideNote('');
      setChecksVersion((v) => v + 1);
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError && err.status === 401) return; // hrFetch is sending the user to the login page
      const body = err instanceof ApiError ? err.body : null;
      setOverrideOffer(props.canOverrideChecks && refusedByChecks(body));
      const fields = fieldErrors(body);
      // The banner names the fields whose messages are shown beside them.
      setFailure({ lines: errorLines(body), keys: Object.keys(fields).filter((k) => tabOf(k) !== null) });
      setErrors(fields);
      // The first tab (in tab order) holding an error is shown; focus goes to its first marked field.
      const firstTab = TABS.find((t) => Object.keys(fields).some((k) => tabOf(k) === t.key));
      if (firstTab) {
        const inTab = Object.keys(fields).filter((k) => tabOf(k) === firstTab.key);
        setTab(firstTab.key);
        setFocusTarget(`panel-${firstTab.key}|${elementIdOf(inTab[0], draft.questions)}`);
      } else {
        setFocusTarget('job-save-banner');
      }
    }
  };

  /** After an approval (issue 34) the job's status may have changed: taken into the form unless it holds unsaved edits. */
  const reloadStatus = () => {
    if (jobId === null) return;
    hrJson<HrJob>(`/api/hr/jobs/${jobId}/`)
      .then((job) => {
        if (unsaved()) return;
        const loaded = toDraft(job, latest.current ?? undefined);
        baseline.current = snapshot(loaded, mode);
        savedForm.current = loaded;
        setDraft(loaded);
      })
      .catch(() => {});
  };

  const tabIndex = TABS.findIndex((t) => t.key === tab);
  const goTab = (i: number) => {
    const next = TABS[(i + TABS.length) % TABS.length].key;
    setTab(next);
    tabRefs.current[next]?.focus();
  };
  const onTabKey = (e: KeyboardEvent) => {
    const map: Record<string, number> = { ArrowRight: tabIndex + 1, ArrowLeft: tabIndex - 1, Home: 0, End: TABS.length - 1 };
    if (!(e.key in map)) return;
    e.preventDefault();
    goTab(map[e.key]);
  };
  const tabHasErrors = (key: TabKey) => Object.keys(errors).some((f) => tabOf(f) === key);

  const heading = mode === 'create' ? 'Create Job' : `Edit Job: ${savedTitle}`;
  const panel = { draft, errors, set };

  return (
    <form
      className="job-editor"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <div className="page-title">
        <h1>{heading}</h1>
      </div>

      {kept.restored && (
        <DraftNote
          id="job-draft-note"
          onDiscard={() => {
            kept.clear();
            // Back to the job as saved (create: the empty form).
            setDraft(savedForm.current ?? emptyDraft());
          }}
        />
      )}
      <SaveBanner bannerRef={banner} failure={failure} saved={saved} />
      {overrideOffer && (
        <fieldset className="card override-offer">
          <legend className="subheading">Override the checks</legend>
          <p className="help-text" id="override-help">
            As an admin you may save this job as active anyway. Say why: the note is kept in the audit log and shown on the checklist.
          </p>
          <div className="field">
            <label htmlFor="override-note">Why the job may be active anyway</label>
            <textarea
              id="override-note"
              rows={3}
              maxLength={PUBLISHING_LIMITS.overrideNote}
              value={overrideNote}
              aria-invalid={overrideError ? true : undefined}
              aria-describedby={overrideError ? 'override-help override-note-err' : 'override-help'}
              onChange={(e) => {
                setOverrideNote(e.target.value);
                setOverrideError('');
              }}
            />
            {overrideError && (
              <p id="override-note-err" className="field-error">
                {overrideError}
              </p>
            )}
          </div>
          <div>
            <button type="button" className="btn btn-danger" disabled={saving} onClick={() => void save(overrideNote)}>
              Save with override
            </button>
          </div>
        </fieldset>
      )}

      <div className="tabs" role="tablist" aria-label="Job sections" onKeyDown={onTabKey}>
        {TABS.map((t) => (
          <button
            key={t.key}
            ref={(el) => {
              tabRefs.current[t.key] = el;
            }}
            type="button"
            role="tab"
            id={`tab-${t.key}`}
            aria-controls={`panel-${t.key}`}
            aria-selected={tab === t.key}
            tabIndex={tab === t.key ? 0 : -1}
            className="tab"
            onClick={() => setTab(t.key)}
          >
            {t.label}
            {tabHasErrors(t.key) && (
              <>
                <span className="tab-error-dot" aria-hidden="true" />
                <span className="visually-hidden"> (has errors)</span>
              </>
            )}
          </button>
        ))}
      </div>

      <TabPanel tab="basics" current={tab}>
        <BasicsPanel
          {...panel}
          mode={mode}
          statuses={props.statuses}
          jobTypes={props.jobTypes}
          workModes={props.workModes}
          departments={props.departments}
        />
      </TabPanel>
      <TabPanel tab="comp" current={tab}>
        <CompensationPanel {...panel} currencies={props.currencies} salaryPeriods={props.salaryPeriods} />
      </TabPanel>
      <TabPanel tab="desc" current={tab} className="tab-panel card stack">
        <DescriptionPanel {...panel} />
      </TabPanel>
      <TabPanel tab="qs" current={tab}>
        <QuestionsEditor
          questions={draft.questions}
          editQuestion={editQuestion}
          reshapeQuestions={reshapeQuestions}
          errors={errors}
          answerTypes={props.answerTypes}
        />
      </TabPanel>
      <TabPanel tab="notify" current={tab}>
        <NotificationsPanel {...panel} canChangeWebhook={props.canChangeWebhook} />
      </TabPanel>
      <TabPanel tab="team" current={tab}>
        <TeamPanel jobId={jobId} />
      </TabPanel>

      <ChecksPanel jobId={jobId} version={checksVersion} onDecided={reloadStatus} />

      <div className="editor-actions">
        <div className="step-buttons">
          <button type="button" className="btn btn-secondary" disabled={tabIndex === 0} onClick={() => setTab(TABS[tabIndex - 1].key)}>
            Previous
          </button>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={tabIndex === TABS.length - 1}
            onClick={() => setTab(TABS[tabIndex + 1].key)}
          >
            Next
          </button>
        </div>
        <div className="save-buttons">
          <a className="btn btn-secondary" href="/hr/jobs/list">
            Cancel
          </a>
          <button type="submit" className="btn btn-primary" disabled={saving} aria-disabled={saving}>
            {saving ? 'Saving…' : 'Save Changes'}
          </button>
        </div>
      </div>
    </form>
  );
}
