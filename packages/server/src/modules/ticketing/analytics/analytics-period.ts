import type { JsonBytes } from '../../../core/json-bytes';

const DAY = 86_400_000;

export interface Window {
  from: string;
  to: string;
}

export interface Period {
  days: number;
  current: Window;
  previous: Window;
  /** Every day of the current window, oldest first (the trend's labels). */
  labels: string[];
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Today's date in a timezone, `YYYY-MM-DD`. */
export const todayIn = (timezone: string, now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(now);

/** `Nd`: the N days ending today (in the organization's timezone), and the N days before them. */
export function periodOf(period: string, timezone: string, now: Date): Period {
  const days = Number(period.slice(0, -1));
  const today = Date.parse(`${todayIn(timezone, now)}T00:00:00Z`);
  const start = today - (days - 1) * DAY;
  return {
    days,
    current: { from: iso(start), to: iso(today) },
    previous: { from: iso(start - days * DAY), to: iso(start - DAY) },
    labels: Array.from({ length: days }, (_, i) => iso(start + i * DAY)),
  };
}

export const round1 = (n: number) => Math.round(n * 10) / 10;

/** Change against the previous window, one decimal; null when not compared or the previous value was 0. */
export const changeOf = (current: number, previous: number | null): number | null =>
  previous === null || previous === 0 ? null : round1(((current - previous) / previous) * 100);

/** Paid orders per hundred unique visitors; 0 without visitors. */
export const conversionOf = (orders: number, visitors: number) => (visitors === 0 ? 0 : round1((orders / visitors) * 100));

/** Minor units to the currency's major unit (KES has cents): what the analytics show. */
export const major = (minor: number) => Math.round(minor) / 100;

export const CACHE_TTL_SECONDS = 300;
const MAX_ENTRIES = 2_000;

/**
 * Answers kept for five minutes per process, keyed by everything that shapes them (organization, route, period,
 * compare, event, revenue visibility). The rollups make a miss cheap; the cache keeps a dashboard's polling off them.
 */
export class AnalyticsCache<T = JsonBytes> {
  private entries = new Map<string, { at: number; value: T }>();

  /** The answer kept under `key`, if it is still fresh. */
  peek(key: string): T | undefined {
    const hit = this.entries.get(key);
    return hit && Date.now() - hit.at < CACHE_TTL_SECONDS * 1000 ? hit.value : undefined;
  }

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.peek(key);
    if (hit !== undefined) return hit;
    const value = await load();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: Date.now(), value });
    return value;
  }
}
