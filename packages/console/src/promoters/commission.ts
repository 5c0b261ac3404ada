import type { Assignment } from '@svc/contract';
import type { Invalid } from '../commerce/merch';
import { parseMoney } from '../format';

export interface RuleForm {
  type: 'percent' | 'fixed';
  /** A percent (`10`, `12.5`) or an amount per ticket or unit (`150`), as typed. */
  value: string;
  /** The most per order, in the currency; empty: no cap. */
  cap: string;
}

/** The assignment's `commission` from the form: a percent in basis points (10 % = 1000), or minor units; or what is wrong. */
export function commissionRule(form: RuleForm, currency: string) {
  let max_per_order: number | null = null;
  if (form.cap.trim()) {
    const cap = parseMoney(form.cap, currency);
    if (cap === null || cap < 1) return { invalid: `Enter the most per order in ${currency}, or leave it empty.` } satisfies Invalid;
    max_per_order = cap;
  }
  if (form.type === 'percent') {
    const clean = form.value.trim();
    const pct = Number(clean);
    if (!/^\d+(\.\d{1,2})?$/.test(clean) || pct <= 0 || pct > 100) return { invalid: 'Enter a percent above 0 and at most 100, e.g. 10 or 12.5.' } satisfies Invalid;
    return { type: 'percent' as const, basis_points: Math.round(pct * 100), max_per_order };
  }
  const amount = parseMoney(form.value, currency);
  if (amount === null || amount < 1) return { invalid: `Enter the commission per ticket or unit in ${currency}, e.g. 100.` } satisfies Invalid;
  return { type: 'fixed' as const, amount, max_per_order };
}

/** A commission rule as a person reads it: `10% of net`, `KES 100.00 each`, with its cap. */
export function ruleText(c: Assignment['commission'], currency: string, format: (minor: number, currency: string) => string): string {
  const base = c.type === 'percent' ? `${(c.basis_points ?? 0) / 100}% of net` : `${format(c.amount ?? 0, currency)} each`;
  return c.max_per_order ? `${base}, at most ${format(c.max_per_order, currency)} an order` : base;
}

/** The report's `from`/`to` from date fields (`2026-12-01`): the whole days, in UTC. */
export function reportRange(from?: string, to?: string): { from?: string; to?: string } {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  return {
    ...(from && day.test(from) ? { from: `${from}T00:00:00Z` } : {}),
    ...(to && day.test(to) ? { to: `${to}T23:59:59Z` } : {}),
  };
}
