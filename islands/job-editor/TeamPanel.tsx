/**
 * The Team tab (issue 31): a job's hiring team, chosen from the active HR users, each with one
 * role. Saved on its own (PUT /api/hr/jobs/{id}/team/), apart from the job's Save Changes; a new
 * job gets its team once it is saved.
 */
import { useEffect, useId, useState } from 'react';
import { ApiError, hrJson } from '../components/hr-api.js';
import { errorLines } from '../../src/shared/api-errors.js';
import { TEAM_ROLES, TEAM_ROLE_LABELS, type JobTeam, type TeamRole } from '../../src/teams/types.js';
import { ROLE_LABELS } from '../../src/users/types.js';

interface Member {
  user_id: number;
  username: string;
  role: TeamRole;
}

export function TeamPanel({ jobId }: { jobId: number | null }) {
  const id = useId();
  const [team, setTeam] = useState<JobTeam | null>(null);
  const [members, setMembers] = useState<Member[]>([]);
  const [pick, setPick] = useState('');
  const [pickRole, setPickRole] = useState<TeamRole>('interviewer');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string[] | null>(null);

  useEffect(() => {
    if (jobId === null) return;
    hrJson<JobTeam>(`/api/hr/jobs/${jobId}/team/`)
      .then((t) => {
        setTeam(t);
        setMembers(t.members.map(({ user_id, username, role }) => ({ user_id, username, role })));
      })
      .catch((err) => setProblem(err instanceof ApiError ? errorLines(err.body as never) : ['The team could not be loaded.']));
  }, [jobId]);

  if (jobId === null) return <p>Save the job first; then choose its hiring team here.</p>;
  if (!team) return problem ? <p className="field-error">{problem.join(' ')}</p> : <p>Loading the team…</p>;

  const free = team.candidates.filter((c) => !members.some((m) => m.user_id === c.id));
  const add = () => {
    const user = free.find((c) => String(c.id) === pick);
    if (!user) return;
    setMembers([...members, { user_id: user.id, username: user.username, role: pickRole }]);
    setPick('');
    setStatus(`${user.username} added as ${TEAM_ROLE_LABELS[pickRole].toLowerCase()}. Save the team to keep it.`);
  };
  const save = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const t = await hrJson<JobTeam>(`/api/hr/jobs/${jobId}/team/`, {
        method: 'PUT',
        body: { members: members.map(({ user_id, role }) => ({ user_id, role })) },
      });
      setTeam(t);
      setMembers(t.members.map(({ user_id, username, role }) => ({ user_id, username, role })));
      setStatus(`Team saved: ${t.members.length} ${t.members.length === 1 ? 'member' : 'members'}.`);
    } catch (err) {
      setProblem(err instanceof ApiError ? errorLines(err.body as never) : ['The team could not be saved. Try again.']);
      setStatus('');
    } finally {
      setBusy(false);
    }
  };
  const roleOf = (userId: number) => team.candidates.find((c) => c.id === userId)?.role;

  return (
    <div className="team-panel stack">
      <p className="help-text">
        Hiring managers see and work only the jobs whose team they are on; interviewers see the applications they are asked to interview.
      </p>
      {members.length === 0 ? (
        <p>No one is on this job's team yet.</p>
      ) : (
        <ul className="team-list" aria-label="Hiring team">
          {members.map((m, i) => {
            const account = roleOf(m.user_id);
            return (
              <li key={m.user_id} className="team-member">
                <span className="team-name">
                  {m.username}
                  {account && <span className="help-text"> ({ROLE_LABELS[account]})</span>}
                </span>
                <label className="visually-hidden" htmlFor={`${id}-role-${m.user_id}`}>
                  Team role of {m.username}
                </label>
                <select
                  id={`${id}-role-${m.user_id}`}
                  value={m.role}
                  onChange={(e) => setMembers(members.map((x, j) => (j === i ? { ...x, role: e.target.value as TeamRole } : x)))}
                >
                  {TEAM_ROLES.map((r) => (
                    <option key={r} value={r}>
                      {TEAM_ROLE_LABELS[r]}
                    </option>
                  ))}
                </select>
                <button
                  type="button"
                  className="btn btn-secondary btn-sm"
                  aria-label={`Remove ${m.username}`}
                  onClick={() => {
                    setMembers(members.filter((_, j) => j !== i));
                    setStatus(`${m.username} removed. Save the team to keep it.`);
                  }}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <fieldset className="team-add">
        <legend className="label">Add a member</legend>
        <div className="team-add-row">
          <div className="team-field">
            <label htmlFor={`${id}-user`}>HR user</label>
            <select id={`${id}-user`} value={pick} onChange={(e) => setPick(e.target.value)}>
              <option value="">Choose a user…</option>
              {free.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.username} ({ROLE_LABELS[c.role]})
                </option>
              ))}
            </select>
          </div>
          <div className="team-field">
            <label htmlFor={`${id}-new-role`}>Team role</label>
            <select id={`${id}-new-role`} value={pickRole} onChange={(e) => setPickRole(e.target.value as TeamRole)}>
              {TEAM_ROLES.map((r) => (
                <option key={r} value={r}>
                  {TEAM_ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="btn btn-secondary" onClick={add} disabled={!pick}>
            Add
          </button>
        </div>
      </fieldset>
      {problem && (
        <div className="alert alert-error" role="alert">
          <p className="alert-title">The team was not saved.</p>
          <ul className="error-lines">
            {problem.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      <p role="status" className="team-status">
        {status}
      </p>
      <div>
        <button type="button" className="btn btn-primary" onClick={() => void save()} disabled={busy} aria-busy={busy}>
          {busy ? 'Saving team…' : 'Save team'}
        </button>
      </div>
    </div>
  );
}
