/**
 * Job editor island (/hr/jobs/new, /hr/jobs/{id}/edit; spec 02 section 2 "Job editor").
 * Tabs Basics, Compensation, Description, Questions, Notifications with Previous/Next; Cancel goes
 * to /hr/jobs/list; Save Changes reads 'Saving…' while saving. Create -> POST, then /hr/jobs/list.
 * Edit -> loads the job with GET (a failure sends the user to /hrviewlogin), saves with PUT and
 * stays, showing the saved job. A failed save shows 'Failed to save job.' with the details and
 * puts each field error next to its field, on the tab of the first error. As in the apply wizard,
 * editing a field takes its message away, and the banner goes once every field it names has been
 * edited (a banner naming no field stays until the next save).
 * Work is not lost silently: with changes not saved yet (the form differs from what was loaded or
 * last saved), leaving asks first: the browser's own prompt for reloads, closing and typed
 * addresses, a confirm for links on the page (Cancel, the header) and Logout.
 */
import { mountIsland } from './components/mount.js';
import { JobEditor } from './job-editor/JobEditor.js';
// After the editor's modules, so these rules come after the rich-text editor's in the bundle.
import './job-editor/job-editor.css';

mountIsland('job-editor', JobEditor);
