import type { TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { sk, type Tenant } from './booking-fixtures';

export const attendeesPath = (event: string) => `/v1/organizer/events/${event}/attendees`;

export async function listAll(t: TestServer, tenant: Tenant, event: string, query: Record<string, unknown> = {}) {
  return expectStatus(await t.http().get(attendeesPath(event)).query(query).set(sk(tenant)), 200) as {
    data: Record<string, any>[];
    meta: { next_cursor: string | null; has_more: boolean; limit: number };
    summary: { all: number; pending: number; confirmed: number; cancelled: number };
  };
}

/** The attendee uuid of a booked ticket. */
export async function attendeeIdOf(t: TestServer, ticketId: string) {
  return (await t.ctx.db.selectFrom('tickets').select('attendee_id').where('id', '=', ticketId).executeTakeFirstOrThrow()).attendee_id;
}

/** The attendees of an order, by position. */
export async function attendeesOfOrder(t: TestServer, orderId: string) {
  return t.ctx.db.selectFrom('tickets').select(['id', 'attendee_id', 'secret_sealed']).where('order_id', '=', orderId).orderBy('position').execute();
}

/** The scanning secret of a ticket (as its message carries it). */
export async function secretOf(t: TestServer, ticketId: string) {
  const row = await t.ctx.db.selectFrom('tickets').select(['id', 'secret_sealed']).where('id', '=', ticketId).executeTakeFirstOrThrow();
  return t.ctx.secrets.decrypt(row.secret_sealed, row.id);
}

export const requireApproval = (t: TestServer, eventId: string) =>
  t.ctx.db.updateTable('ticketed_events').set({ requires_approval: true }).where('id', '=', eventId).execute();
