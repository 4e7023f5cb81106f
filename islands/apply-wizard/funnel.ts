/**
 * The wizard's funnel beacons (issue 21): each step reached and completed, once per page load.
 * The events wait in a queue and leave together in one navigator.sendBeacon: on Submit, and
 * whenever the page is hidden (another tab, the phone's home screen, the tab closed or left),
 * the last moment MDN says a page can be counted on to report. So a finished application costs
 * one request, and an abandoned wizard still says where it stopped. A beacon names steps and
 * events, nothing about the applicant; none is sent when the browser asks not to be tracked (Do
 * Not Track, Global Privacy Control).
 */
import type { FunnelBeacon } from '../../src/funnel/schema.js';
import type { FunnelEvent, WizardStep } from '../../src/funnel/types.js';

function trackingRefused(): boolean {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.doNotTrack === '1' || nav.globalPrivacyControl === true || typeof navigator.sendBeacon !== 'function';
}

export interface FunnelReporter {
  /** Queues an event (each step and event once per page load). */
  report(step: WizardStep, event: FunnelEvent): void;
  /** Sends what is queued, if anything. */
  flush(): void;
  /** Flushes whenever the page is hidden; returns the unsubscribe for an effect's cleanup. */
  listen(): () => void;
}

export function funnelReporter(publicId: string): FunnelReporter {
  const url = `/api/jobs/${encodeURIComponent(publicId)}/funnel/`;
  const seen = new Set<string>();
  let queued: FunnelBeacon['events'] = [];
  const flush = () => {
    if (!queued.length) return;
    const body: FunnelBeacon = { events: queued };
    queued = [];
    try {
      // A string goes as text/plain, which needs no preflight; the server takes it as JSON.
      navigator.sendBeacon(url, JSON.stringify(body));
    } catch {
      /* best effort: a lost beacon costs a count, never the application */
    }
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  return {
    report(step, event) {
      const key = `${step}:${event}`;
      if (seen.has(key) || trackingRefused()) return;
      seen.add(key);
      queued.push({ step, event });
    },
    flush,
    listen() {
      document.addEventListener('visibilitychange', onHidden);
      window.addEventListener('pagehide', flush);
      return () => {
        document.removeEventListener('visibilitychange', onHidden);
        window.removeEventListener('pagehide', flush);
      };
    },
  };
}
