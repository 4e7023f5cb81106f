/** The emails feature (issue 20, "Emails to candidates") as the app sees it: its routes. */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { emailsApi } from './api.js';
import { emailsPages } from './pages.js';

/** The templates page and API, and sending from the applicants' screens. */
export function emailsRoutes(ctx: AppContext): Router {
  return Router().use(emailsApi(ctx), emailsPages(ctx));
}

/** The interview reminders' emails from their templates (issue 32), for the interviews feature's sweep. */
export { reminderEmails, type ReminderFacts } from './reminders.service.js';

/** The job alert templates and their emails (issue 35), for the alerts feature. */
export { alertEmail, alertTemplate, type AlertTemplate } from './alerts.service.js';
/** The offers feature's letters (issue 34): the email templates' variables and their renderer. */
export { TEMPLATE_VARIABLES } from './types.js';
export { fillVariables } from './schema.js';
export { applicantValues } from './service.js';
