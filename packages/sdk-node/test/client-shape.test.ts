import { describe, expect, it } from 'vitest';
import { Svc, SvcOperator } from '../src';

interface Sent {
  method: string;
  url: string;
  body: unknown;
  idempotencyKey: string | null;
}

function recorder() {
  const sent: Sent[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    sent.push({ method: init!.method!, url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined, idempotencyKey: headers.get('idempotency-key') });
    return new Response(JSON.stringify({ data: { id: 'x' } }), { status: 200 });
  };
  return { sent, fetch };
}

describe('path ids', () => {
  it('are taken positionally, in path order, before the arguments and the options', async () => {
    const { sent, fetch } = recorder();
    const svc = new Svc({ apiKey: 'sk_test_x', baseUrl: 'https://svc.test', fetch });
    await svc.streams.liveStreams.update('ls_1', { metadata: { show: 'a' } }, { idempotencyKey: 'k1' });
    await svc.streams.liveStreams.deleteSimulcastTarget('ls_1', 'sct_2');
    await svc.keys.retrieve('key_1', { expand: ['created_by'] });
    await svc.streams.liveStreams.disable('ls_1');
    expect(sent).toEqual([
      { method: 'PATCH', url: 'https://svc.test/v1/streams/live_streams/ls_1', body: { metadata: { show: 'a' } }, idempotencyKey: 'k1' },
      { method: 'DELETE', url: 'https://svc.test/v1/streams/live_streams/ls_1/simulcast_targets/sct_2', body: undefined, idempotencyKey: expect.any(String) },
      { method: 'GET', url: 'https://svc.test/v1/keys/key_1?expand%5B%5D=created_by', body: undefined, idempotencyKey: null },
      { method: 'POST', url: 'https://svc.test/v1/streams/live_streams/ls_1/disable', body: {}, idempotencyKey: expect.any(String) },
    ]);
  });

  it('still work in the one object, and refuse some ids without the others', async () => {
    const { sent, fetch } = recorder();
    const svc = new Svc({ apiKey: 'sk_test_x', baseUrl: 'https://svc.test', fetch });
    await svc.streams.liveStreams.update({ id: 'ls/1', metadata: { show: 'b' } });
    expect(sent[0]).toMatchObject({ url: 'https://svc.test/v1/streams/live_streams/ls%2F1', body: { metadata: { show: 'b' } } });
    const partial = svc.streams.liveStreams.deleteSimulcastTarget as unknown as (...a: unknown[]) => Promise<unknown>;
    await expect(partial('ls_1', {})).rejects.toThrow(/takes `id`, `target_id` before its arguments/);
    await expect(svc.streams.liveStreams.retrieve({} as { id: string })).rejects.toThrow(TypeError);
  });
});

describe('clients', () => {
  const { fetch } = recorder();
  it('give a tenant tenant routes only, and the operator its own', () => {
    const svc = new Svc({ apiKey: 'sk_test_x', fetch }) as unknown as Record<string, Record<string, unknown>>;
    expect(svc.operator).toBeUndefined();
    expect(svc.platform).toBeUndefined();
    expect(svc.streams!.playback).toBeUndefined();
    expect(typeof svc.streams!.liveStreams).toBe('object');
    const operator = new SvcOperator({ operatorToken: 'op_x', fetch }) as unknown as Record<string, Record<string, unknown>>;
    // The operator's routes, grouped as the contract groups them (identity's signing-key rotation sits with identity).
    expect(Object.keys(operator).filter((k) => k !== 'transport').sort()).toEqual(['identity', 'operator']);
    expect(typeof operator.operator!.createTenant).toBe('function');
    expect(svc.identity?.rotateSigningKeys).toBeUndefined();
  });
});

describe('ticketing and creators', () => {
  it('sit where a tenant looks for them, on the contract\'s own paths', async () => {
    const { sent, fetch } = recorder();
    const svc = new Svc({ apiKey: 'sk_test_x', baseUrl: 'https://svc.test', fetch });
    await svc.events.publish('ev_1');
    await svc.events.cancel('ev_1');
    await svc.events.ticketTypes.update('ev_1', 'tt_1', { price: 100 });
    await svc.events.slots.create('ev_1', { starts_at: '2026-12-05T17:00:00Z', ends_at: '2026-12-05T19:00:00Z' });
    await svc.orders.refunds.create('ord_1', { amount: 100 }, { idempotencyKey: 'r1' });
    await svc.orders.payLater.payFixed('K7M2Q9XA');
    await svc.creators.retrieveReadiness('org_1');
    await svc.creators.approvals.approve('cnt_1');
    expect(sent.map((s) => `${s.method} ${s.url.replace('https://svc.test', '')}`)).toEqual([
      'POST /v1/organizer/events/ev_1/publish',
      'POST /v1/organizer/events/ev_1/cancel',
      'PATCH /v1/organizer/events/ev_1/ticket_types/tt_1',
      'POST /v1/organizer/events/ev_1/slots',
      'POST /v1/orders/ord_1/refunds',
      'POST /v1/events/booking/pay-later/fixed/K7M2Q9XA',
      'GET /v1/creator/orgs/org_1/readiness',
      'POST /v1/tenant/admin/plus/approvals/cnt_1/approve',
    ]);
    expect(sent[4]!.idempotencyKey).toBe('r1');
    const groups = svc as unknown as Record<string, unknown>;
    // The server's module names are not groups of the client; the checkout's public routes and a person's own tickets are not a key's.
    for (const name of ['organizerEvents', 'ticketTypes', 'eventSlots', 'coupons', 'ticketingPayments', 'checkout', 'tickets']) expect(groups[name], name).toBeUndefined();
    expect(typeof svc.eventLog.list).toBe('function');
  });
});
