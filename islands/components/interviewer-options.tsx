/** The HR users one may pick as interviewers, as checkboxes (the applicant page's interview and booking-link dialogs, issue 32). */
export function InterviewerOptions({
  users,
  loaded,
  chosen,
  onChange,
}: {
  users: { id: number; username: string }[];
  loaded: boolean;
  chosen: number[];
  onChange: (chosen: number[]) => void;
}) {
  if (!users.length) return <p className="help-text">{loaded ? 'No HR user to choose.' : 'Loading the HR users…'}</p>;
  return (
    <ul className="interviewer-options">
      {users.map((u) => (
        <li key={u.id}>
          <label>
            <input
              type="checkbox"
              checked={chosen.includes(u.id)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, u.id] : chosen.filter((x) => x !== u.id))}
            />{' '}
            {u.username}
          </label>
        </li>
      ))}
    </ul>
  );
}
