import type { DarajaFake } from '../../../server/test/kit/fakes/daraja-fake';
import type { Api } from '../api';
import type { Load, Result } from '../measure';
import type { Running } from '../processes';

export interface Context {
  svc: Running;
  api: Api;
  /** The operator API of `svc`. */
  operator: Api;
  secretKey: string;
  publishableKey: string;
  databaseUrl: string;
  tenantId: string;
  connections: number;
  durationSeconds: number;
  /** Stored sessions for the heartbeat-at-scale run. */
  bigHistory: number;
  /** Deliveries per second the webhook fan-out asks for. */
  webhookRate: number;
  /** Starts another server process on the same database, with `env` over the bench server's; stopped at the end of the run. */
  another: (env: Record<string, string>) => Promise<{ running: Running; measure: Measure }>;
  /** Scales the ticketing scenarios' sizes (1 = as the issue sets them). */
  ticketingScale: number;
  /** Paid orders the analytics-at-scale scenario seeds (twice as many tickets). */
  analyticsOrders: number;
  /** Subscriptions the renewals scenario seeds due at once. */
  renewals: number;
  /** The local Daraja every server process of the run reaches through `MPESA_API_URL`. */
  daraja: DarajaFake;
}

export type Measure = (request: Load['request']) => Promise<Result>;

export interface Target {
  label: string;
  met: (r: Result, ratioToWrite: number) => boolean;
}

export interface Outcome {
  results: Array<{ name: string; result: Result; target?: Target; note?: string }>;
  notes?: string[];
}

export interface Scenario {
  name: string;
  run: (ctx: Context, measure: Measure) => Promise<Outcome>;
}

/** The server's memory ceiling, checked under every scenario. */
export const RSS_LIMIT_MB = 300;

const clean = (r: Result) => r.errors === 0 && r.non2xx === 0 && r.peakRssMb <= RSS_LIMIT_MB;

/** At least `min` times the one-write ceiling (and p99 at most `p99Max` ms), with no error and RSS in bounds. */
export const ratio = (min: number, p99Max?: number): Target => ({
  label: `≥ ${min}× write${p99Max ? `, p99 ≤ ${p99Max} ms` : ''}`,
  met: (r, x) => x >= min && (p99Max === undefined || r.p99Ms <= p99Max) && clean(r),
});

/** Only the memory ceiling (scenarios the issue sets no speed for). */
export const memoryOnly: Target = { label: `RSS ≤ ${RSS_LIMIT_MB} MB`, met: (r) => clean(r) };

export const auth = (ctx: Context) => ({ authorization: `Bearer ${ctx.secretKey}` });
