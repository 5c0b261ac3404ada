import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { liveStream } from './seed';
import type { Context } from './types';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

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

/** A published event a week from now with one priced ticket type (optionally a stream its tickets open). */
export async function publishedEvent(
  ctx: Context,
  name: string,
  ticket: Record<string, unknown>,
  options: { stream?: boolean } = {},
): Promise<SeededEvent> {
  const org = await benchOrganization(ctx);
  const stream = options.stream ? (await liveStream(ctx)).id : undefined;
  const { data: event } = await ctx.api.call('POST', '/v1/organizer/events', {
    organization: org,
    name: `${name} ${randomUUID().slice(0, 6)}`,
    starts_at: inDays(7),
    ends_at: new Date(Date.now() + 7 * 86_400_000 + 7_200_000).toISOString(),
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
