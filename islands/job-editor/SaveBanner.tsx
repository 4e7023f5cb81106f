/** The save banner: 'Failed to save job.' with the details, or the saved confirmation; focused when a failed save names no field. */
import type { Ref } from 'react';

export interface Failure {
  lines: string[];
  /** The field messages the banner points at; once all are edited away, so is the banner. */
  keys: string[];
}

export function SaveBanner({ bannerRef, failure, saved }: { bannerRef: Ref<HTMLDivElement>; failure: Failure | null; saved: boolean }) {
  return (
    <div id="job-save-banner" ref={bannerRef} tabIndex={-1} className="banner-slot">
      {failure && (
        <div className="alert alert-error" role="alert">
          <p className="alert-title">Failed to save job.</p>
          <ul className="error-lines">
            {failure.lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {saved && (
        <div className="alert alert-success" role="status">
          Changes saved. <a href="/hr/jobs/list">Back to all job posts</a>
        </div>
      )}
    </div>
  );
}
