import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { liveStream } from './seed';
import type { Context } from './types';

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

export const publishable = (ctx: Context) => ({ 'svc-publishable-key': ctx.publishableKey });

/** An organization of the bench tenant, made once and shared by the ticketing scenarios. */
let organization: string | undefined;
export async function benchOrganization(ctx: Context): Promise<string> {
  organization ??= (
    await ctx.api.call('POST', '/v1/organizations', { name: 'Bench Events', handle: `bench_${randomUUID().slice(0, 8)}`, kind: 'brand' })
  ).data.id as string;
  return organization;
}

export interface SeededEvent {
  id: string;
  slug: string;
  ticketType: string;
  organization: string;
}

/**
 * A published event with one priced ticket type (optionally a stream its tickets open): a week from now for two
 * hours, unless `startsInHours` says otherwise (negative: already on).
 */
export async function publishedEvent(
  ctx: Context,
  name: string,
  ticket: Record<string, unknown>,
  options: { stream?: boolean; startsInHours?: number } = {},
): Promise<SeededEvent> {
  const org = await benchOrganization(ctx);
  const stream = options.stream ? (await liveStream(ctx)).id : undefined;
  const { data: event } = await ctx.api.call('POST', '/v1/organizer/events', {
    organization: org,
    name: `${name} ${randomUUID().slice(0, 6)}`,
    starts_at: inHours(options.startsInHours ?? 7 * 24),
    ends_at: inHours((options.startsInHours ?? 7 * 24) + 2),
    ...(stream ? { live_stream: stream } : {}),
  });
  const { data: type } = await ctx.api.call('POST', `/v1/organizer/events/${event.id}/ticket_types`, { name: 'Regular', pricing_mode: 'fixed', price: 150_000, ...ticket });
  await ctx.api.call('POST', `/v1/organizer/events/${event.id}/publish`);
  return { id: event.id, slug: event.slug, ticketType: type.id, organization: org };
}

/** A booking body for `quantity` tickets, each attendee with their own email (so their own customer). */
export function bookingBody(ticketType: string, quantity: number, buyer: string) {
  return {
    ticket_id: ticketType,
    quantity,
    buyer_name: `Buyer ${buyer}`,
    buyer_email: `${buyer}@bench.example`,
    attendees: Array.from({ length: quantity }, (_, i) => ({ first_name: 'Guest', last_name: `${buyer}-${i}`, email: `${buyer}-${i}@bench.example` })),
  };
}

/** Runs one query on the bench database (the checks after a run read the rows, not the API). */
export async function query<T = any>(ctx: Context, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: ctx.databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
