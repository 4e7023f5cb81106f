/**
 * The wizard's funnel beacons (issue 21): each step reached and completed, once per page load,
 * sent with navigator.sendBeacon (it survives leaving the page and never delays the wizard). A
 * beacon names the step and the event, nothing about the applicant; none is sent when the browser
 * asks not to be tracked (Do Not Track, Global Privacy Control).
 */
import type { FunnelEvent, WizardStep } from '../../src/funnel/types.js';

function trackingRefused(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true;
}

export function funnelReporter(publicId: string): (step: WizardStep, event: FunnelEvent) => void {
  const url = `/api/jobs/${encodeURIComponent(publicId)}/funnel/`;
  const sent = new Set<string>();
  return (step, event) => {
    const key = `${step}:${event}`;
    if (sent.has(key) || trackingRefused() || typeof navigator.sendBeacon !== 'function') return;
    sent.add(key);
    try {
      // A string goes as text/plain, which needs no preflight; the server takes it as JSON.
      navigator.sendBeacon(url, JSON.stringify({ step, event }));
    } catch {
      /* best effort: a lost beacon costs a count, never the application */
    }
  };
}
