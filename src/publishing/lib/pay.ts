/**
 * A job's pay against the pay rules of its place (issue 34): the range present when a rule requires one (a
 * minimum and a maximum; the same figure twice is a range of width 0), and no wider than the
 * rule's largest width: an amount in the job's currency, stated per the rule's period and counted
 * in the job's (1 year = 12 months = 2,080 hours), or a percentage of the minimum.
 */
import type { SalaryPeriod } from '../../shared/enums.js';
import type { PayRule } from '../types.js';

export interface PayFacts {
  currency: string;
  min_salary: number | null;
  max_salary: number | null;
  salary_period: SalaryPeriod;
}

export interface PayProblem {
  /** The job's field the problem is about. */
  field: 'min_salary' | 'max_salary';
  message: string;
}

/** Periods in a year: the hours are a full-time year (52 weeks of 40 hours). */
const PER_YEAR: Record<SalaryPeriod, number> = { YEAR: 1, MONTH: 12, HOUR: 2080 };
const PERIOD_WORD: Record<SalaryPeriod, string> = { YEAR: 'year', MONTH: 'month', HOUR: 'hour' };

/** A figure as the reasons show it: thousands separated, at most 2 decimals. */
function figure(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A rule's absolute width counted in the job's period. */
function widthInJobPeriod(rule: PayRule, period: SalaryPeriod): number {
  const width = rule.max_width ?? Infinity;
  if (rule.salary_period === 'ANY' || rule.salary_period === period) return width;
  return (width * PER_YEAR[rule.salary_period]) / PER_YEAR[period];
}

/** Places named in a reason: up to five, then how many more. */
export function placeList(labels: string[]): string {
  const shown = labels.length > 5 ? [...labels.slice(0, 5), `${labels.length - 5} more`] : labels;
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/**
 * The problems of a job's pay under the rules that apply to it: one for the range the rules
 * require (naming them all), one per rule whose width the range exceeds.
 */
export function payProblems(rules: PayRule[], job: PayFacts): PayProblem[] {
  if (job.min_salary === null || job.max_salary === null) {
    const requiring = rules.filter((r) => r.range_required).map((r) => r.label);
    if (!requiring.length) return [];
    const message = `${placeList(requiring)} ${requiring.length === 1 ? 'requires' : 'require'} a pay range in the posting: give both a minimum and a maximum salary.`;
    return (['min_salary', 'max_salary'] as const).filter((f) => job[f] === null).map((field) => ({ field, message }));
  }
  return rules.flatMap((rule) => widthProblems(rule, job));
}

function widthProblems(rule: PayRule, job: PayFacts): PayProblem[] {
  const { min_salary: min, max_salary: max, currency } = job;
  if (min === null || max === null || rule.max_width === null) return [];
  const range = `${figure(min)}–${figure(max)} ${currency} per ${PERIOD_WORD[job.salary_period]}`;
  if (rule.width_unit === 'PERCENT') {
    const above = min > 0 ? ((max - min) / min) * 100 : max > 0 ? Infinity : 0;
    if (above <= rule.max_width + 1e-9) return [];
    const given = Number.isFinite(above) ? `${figure(Math.round(above * 100) / 100)}% above` : 'from 0';
    return [
      {
        field: 'max_salary',
        message: `${rule.label} allows a pay range whose maximum is at most ${figure(rule.max_width)}% above its minimum; this one is ${given} (${range}).`,
      },
    ];
  }
  const limit = widthInJobPeriod(rule, job.salary_period);
  const width = max - min;
  if (width <= limit + 0.005) return [];
  const stated =
    rule.salary_period === 'ANY'
      ? `${figure(rule.max_width)} ${currency}`
      : `${figure(rule.max_width)} ${currency} per ${PERIOD_WORD[rule.salary_period]}`;
  const converted =
    rule.salary_period !== 'ANY' && rule.salary_period !== job.salary_period
      ? ` (${figure(Math.floor(limit * 100) / 100)} per ${PERIOD_WORD[job.salary_period]}, counting 1 year as 12 months or 2,080 hours)`
      : '';
  return [
    {
      field: 'max_salary',
      message: `${rule.label} allows a pay range at most ${stated} wide${converted}; this one is ${figure(Math.round(width * 100) / 100)} wide (${range}).`,
    },
  ];
}

/**
 * Whether a pay figure (an offer's base pay, issue 34) is inside the job's range, counted in the
 * job's period (1 year = 12 months = 2,080 hours); null when the job has no range in that currency.
 */
export function payInRange(job: PayFacts, pay: { amount: number; period: SalaryPeriod; currency: string }): boolean | null {
  if (job.min_salary === null || job.max_salary === null || job.currency !== pay.currency) return null;
  const inJobPeriod = (pay.amount * PER_YEAR[pay.period]) / PER_YEAR[job.salary_period];
  return inJobPeriod >= job.min_salary - 0.005 && inJobPeriod <= job.max_salary + 0.005;
}
