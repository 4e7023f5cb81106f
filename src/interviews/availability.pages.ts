/**
 * The availability pages (issue 32): "Calendar and working hours" (/hr/settings/calendar, every HR
 * user's own) and "Find a time" (/hr/interviews/find-time, optionally for `?application={id}`).
 */
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { queryString } from '../http/paging.js';
import { isRowId } from '../shared/input-rules.js';
import { renderPage } from '../render/page.js';
import { interviewerSettings, listCalendars } from './calendars.service.js';
import { findTimeChoices } from './availability.service.js';

export function availabilityPages(ctx: AppContext): Router {
  const router = Router();
  router.get('/hr/settings/calendar', async (req, res) => {
    const userId = req.hr!.userId;
    const [settings, calendars] = await Promise.all([interviewerSettings(ctx, userId), listCalendars(ctx, userId)]);
    renderPage(
      req,
      res,
      'pages/hr/calendar-settings',
      { title: 'Calendar and working hours', noindex: true },
      { props: { settings, calendars } },
    );
  });
  router.get('/hr/interviews/find-time', async (req, res) => {
    const application = queryString(req, 'application');
    const props = {
      interviewers: await findTimeChoices(ctx),
      me: req.hr!.userId,
      applicationId: isRowId(application) ? Number(application) : null,
    };
    renderPage(req, res, 'pages/hr/find-time', { title: 'Find a time', noindex: true }, { props });
  });
  return router;
}
