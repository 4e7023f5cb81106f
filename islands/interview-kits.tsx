/**
 * A job's interview kits (/hr/jobs/{id}/kits, issue 31): choose a stage, start its kit from a
 * template ("Use template") or write it, with instructions, questions (one per line) and the
 * attributes to rate with what 1 to 4 mean; save it, or save it as a new template for other jobs.
 * The API checks every input (src/scorecards/scorecards.schema.ts); its messages are shown beside
 * the fields, and what happened is announced.
 */
import { type FormEvent, useState } from 'react';
import { mountIsland } from './components/mount.js';
import { ApiError, hrJson } from './components/hr-api.js';
import { errorLines, fieldErrors } from '../src/shared/api-errors.js';
import { KIT_LIMITS } from '../src/scorecards/scorecards.schema.js';
import type { JobKits, KitAttribute, KitContent, KitTemplate } from '../src/scorecards/scorecards.types.js';
import './scorecards.css';

type Props = { kits: JobKits; templates: KitTemplate[] };
type Draft = { instructions: string; questions: string; attributes: KitAttribute[]; templateId: number | null };
type Notice = { kind: 'error' | 'success'; text: string } | null;

const LEVEL_HINTS = ['What a 1 means', 'What a 2 means', 'What a 3 means', 'What a 4 means'];
const emptyAttribute = (): KitAttribute => ({ name: '', levels: ['', '', '', ''] });

function draftOf(kit: (KitContent & { template_id?: number | null }) | null): Draft {
  return {
    instructions: kit?.instructions ?? '',
    questions: (kit?.questions ?? []).join('\n'),
    attributes: kit?.attributes.map((a) => ({ name: a.name, levels: [...a.levels] as KitAttribute['levels'] })) ?? [],
    templateId: kit?.template_id ?? null,
  };
}

const contentOf = (d: Draft) => ({
  instructions: d.instructions,
  questions: d.questions
    .split('\n')
    .map((q) => q.trim())
    .filter(Boolean),
  attributes: d.attributes,
});

function InterviewKits({ kits: initial, templates: initialTemplates }: Props) {
  const [kits, setKits] = useState(initial);
  const [templates, setTemplates] = useState(initialTemplates);
  const [stageId, setStageId] = useState<number | null>(initial.stages[0]?.stage_id ?? null);
  const stage = kits.stages.find((s) => s.stage_id === stageId) ?? null;
  const [draft, setDraft] = useState<Draft>(() => draftOf(stage?.kit ?? null));
  const [templatePick, setTemplatePick] = useState<string>('');
  const [templateName, setTemplateName] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);

  const chooseStage = (id: number) => {
    setStageId(id);
    setDraft(draftOf(kits.stages.find((s) => s.stage_id === id)?.kit ?? null));
    setErrors({});
    setNotice(null);
  };

  const failed = (err: unknown) => {
    if (err instanceof ApiError) {
      setErrors(fieldErrors(err.body));
      setNotice({ kind: 'error', text: errorLines(err.body)[0] ?? `The server answered ${err.status}.` });
    } else setNotice({ kind: 'error', text: 'The server could not be reached. Please try again.' });
  };

  const applyTemplate = () => {
    const t = templates.find((x) => String(x.id) === templatePick);
    if (!t) return;
    setDraft({ ...draftOf(t), templateId: t.id });
    setNotice({ kind: 'success', text: `Template “${t.name}” copied into this stage's kit: review it, then save.` });
  };

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!stage) return;
    setBusy(true);
    setErrors({});
    try {
      const next = await hrJson<JobKits>(`/api/hr/jobs/${kits.job.id}/kits/${stage.stage_id}/`, {
        method: 'PUT',
        body: { ...contentOf(draft), template_id: draft.templateId },
      });
      setKits(next);
      setNotice({ kind: 'success', text: `Kit for ${stage.stage_name} saved.` });
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  }

  async function saveAsTemplate() {
    setBusy(true);
    setErrors({});
    try {
      const t = await hrJson<KitTemplate>('/api/hr/kit-templates/', { method: 'POST', body: { name: templateName, ...contentOf(draft) } });
      setTemplates([...templates, t].sort((a, b) => a.name.localeCompare(b.name)));
      setTemplateName('');
      setNotice({ kind: 'success', text: `Template “${t.name}” saved.` });
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  }

  const setAttribute = (i: number, a: KitAttribute) =>
    setDraft({ ...draft, attributes: draft.attributes.map((x, j) => (j === i ? a : x)) });
  const err = (key: string) => errors[key];
  const described = (key: string) =>
    err(key) ? { 'aria-invalid': true as const, 'aria-describedby': `err-${key.replace(/\./g, '-')}` } : {};
  const errorLine = (key: string) =>
    err(key) ? (
      <p className="field-error" id={`err-${key.replace(/\./g, '-')}`}>
        {err(key)}
      </p>
    ) : null;

  if (!kits.stages.length) return <p className="empty-state">This job has no stages yet.</p>;
  return (
    <form className="kit-editor" onSubmit={save} noValidate>
      <div className="kit-row">
        <div className="field">
          <label htmlFor="kit-stage">Stage</label>
          <select id="kit-stage" value={stageId ?? ''} onChange={(e) => chooseStage(Number(e.target.value))}>
            {kits.stages.map((s) => (
              <option key={s.stage_id} value={s.stage_id}>
                {s.stage_name}
                {s.kit ? '' : ' (no kit yet)'}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="kit-template">Template</label>
          <select id="kit-template" value={templatePick} onChange={(e) => setTemplatePick(e.target.value)}>
            <option value="">{templates.length ? 'Choose a template' : 'No templates yet'}</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn btn-secondary" onClick={applyTemplate} disabled={!templatePick}>
          Use template
        </button>
      </div>
      <div role="status" aria-live="polite">
        {notice && <p className={`alert alert-${notice.kind === 'error' ? 'error' : 'success'}`}>{notice.text}</p>}
      </div>
      <h2>Kit for {stage?.stage_name}</h2>
      <div className="field">
        <label htmlFor="kit-instructions">Instructions for interviewers</label>
        <textarea
          id="kit-instructions"
          maxLength={KIT_LIMITS.instructions}
          value={draft.instructions}
          onChange={(e) => setDraft({ ...draft, instructions: e.target.value })}
          {...described('instructions')}
        />
        {errorLine('instructions')}
      </div>
      <div className="field">
        <label htmlFor="kit-questions">Questions (one per line)</label>
        <textarea
          id="kit-questions"
          value={draft.questions}
          onChange={(e) => setDraft({ ...draft, questions: e.target.value })}
          {...described('questions')}
        />
        {errorLine('questions')}
      </div>
      <h3>Attributes to rate</h3>
      {errorLine('attributes')}
      {draft.attributes.map((a, i) => (
        <fieldset key={i}>
          <legend>Attribute {i + 1}</legend>
          <div className="field">
            <label htmlFor={`attr-${i}-name`}>Name</label>
            <input
              id={`attr-${i}-name`}
              type="text"
              maxLength={KIT_LIMITS.attribute}
              value={a.name}
              onChange={(e) => setAttribute(i, { ...a, name: e.target.value })}
              {...described(`attributes.${i}.name`)}
            />
            {errorLine(`attributes.${i}.name`)}
          </div>
          <div className="kit-levels">
            {a.levels.map((level, n) => (
              <div className="field" key={n}>
                <label htmlFor={`attr-${i}-level-${n}`}>{LEVEL_HINTS[n]}</label>
                <input
                  id={`attr-${i}-level-${n}`}
                  type="text"
                  maxLength={KIT_LIMITS.level}
                  value={level}
                  onChange={(e) => {
                    const levels = [...a.levels] as KitAttribute['levels'];
                    levels[n] = e.target.value;
                    setAttribute(i, { ...a, levels });
                  }}
                />
              </div>
            ))}
          </div>
          <p>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setDraft({ ...draft, attributes: draft.attributes.filter((_, j) => j !== i) })}
            >
              Remove attribute {a.name || i + 1}
            </button>
          </p>
        </fieldset>
      ))}
      <p>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={draft.attributes.length >= KIT_LIMITS.attributes}
          onClick={() => setDraft({ ...draft, attributes: [...draft.attributes, emptyAttribute()] })}
        >
          Add attribute
        </button>
      </p>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save kit'}
        </button>
      </div>
      <fieldset>
        <legend>Save as a template for other jobs</legend>
        <div className="kit-row">
          <div className="field">
            <label htmlFor="kit-template-name">Template name</label>
            <input
              id="kit-template-name"
              type="text"
              maxLength={KIT_LIMITS.templateName}
              value={templateName}
              onChange={(e) => setTemplateName(e.target.value)}
              {...described('name')}
            />
            {errorLine('name')}
          </div>
          <button type="button" className="btn btn-secondary" onClick={saveAsTemplate} disabled={busy}>
            Save as template
          </button>
        </div>
      </fieldset>
    </form>
  );
}

mountIsland('interview-kits', InterviewKits);
