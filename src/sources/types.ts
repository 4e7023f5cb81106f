/** Shapes of the sources feature shared with its island; Node-free. */

/** A tracking link as HR sees it (`GET /api/hr/sources/links/`). */
export interface TrackingLink {
  id: number;
  slug: string;
  /** The full address to share: PUBLIC_BASE_URL/go/{slug}. */
  url: string;
  name: string;
  source: string;
  medium: string;
  campaign: string;
  job: { id: number; title: string } | null;
  clicks: number;
  applications: number;
  created_at: string;
}

/** Applications of one source (one job's, or all jobs'): `source` null is a direct visit. */
export interface SourceCount {
  source: string | null;
  applications: number;
}

/** A job's row of the Sources report: views (all time), applications in the period and by source. */
export interface JobSources {
  job_id: number;
  /** Tells two jobs with one title apart. */
  public_id: string;
  title: string;
  views: number;
  /** Job page views the apply funnel counted in the period (visitors sending DNT or GPC are not counted). */
  counted_views: number;
  applications: number;
  /**
   * Of those counted views, the share that sent an application from the wizard, per 100, one
   * decimal, at most 100; null without counted views in the period.
   */
  conversion: number | null;
  sources: SourceCount[];
}

/** `GET /api/hr/sources/`: every job with applications or views, and the totals by source. */
export interface SourcesReport {
  days: number | null;
  totals: SourceCount[];
  jobs: JobSources[];
}
