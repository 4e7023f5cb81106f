/**
 * The publishing checks of a job (issue 34) by name, Node-free: the config reads JOB_CHECKS_BLOCK
 * against them, the publishing feature runs them and the job editor lists them.
 */
export const JOB_CHECK_KEYS = ['pay_rule', 'salary_history', 'closing_date', 'structured_data', 'consent', 'retention'] as const;
export type JobCheckKey = (typeof JOB_CHECK_KEYS)[number];

/** The checks that block a job's activation unless JOB_CHECKS_BLOCK says otherwise; the others warn. */
export const DEFAULT_BLOCKING_CHECKS: readonly JobCheckKey[] = ['pay_rule', 'salary_history'];
