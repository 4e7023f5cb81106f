/**
 * The apply funnel (issue 21): per job, UTC day and device class, how many saw the job page, opened
 * its Apply page, reached and completed each wizard step, and had an application accepted.
 * Other features count through the context's `funnel` counter (`countRequest`: the job page, the
 * Apply page, an accepted application), which skips requests that send DNT or Sec-GPC.
 */
export { funnelApi as funnelRoutes } from './api.js';
export { FunnelCounter } from './service.js';
export { WIZARD_SUBMIT_HEADER } from './types.js';
