import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { sk } from '../ticketing/booking-fixtures';
import { pay, pendingBooking, phone } from '../ticketing/payments-fixtures';

const t = useTestServer({ SVC_RATE_LIMIT_PUBLIC: '10000' });

describe('GET /v1/payments?failure_code=', () => {
  it('finds the payments held for review: amount mismatches by failure_code, late ones by late', async () => {
    const tenant = await t.tenant();
    const attempt = async () => {
      const b = await pendingBooking(t, tenant);
      return { ...b, payment: expectStatus(await pay(t, b.session, phone('+254711000003')), 200).data.payment };
    };
    const mismatch = await attempt();
    const declined = await attempt();
    const late = await attempt();
    const settle = (id: string, body: object) => t.http().post(`/v1/test_helpers/payments/${id}/settle`).set(sk(tenant)).send(body);
    expectStatus(await settle(mismatch.payment.id, { outcome: 'failed', failure_code: 'amount_mismatch' }), 200);
    expectStatus(await settle(declined.payment.id, { outcome: 'failed', failure_code: 'declined' }), 200);
    expectStatus(await t.http().post(`/v1/test_helpers/orders/${late.booking.id}/expire`).set(sk(tenant)), 200);
    expectStatus(await settle(late.payment.id, { outcome: 'succeeded' }), 200);

    const list = (query: Record<string, string>) => t.http().get('/v1/payments').query(query).set(sk(tenant));
    expect(expectStatus(await list({ failure_code: 'amount_mismatch' }), 200).data.map((p: { id: string }) => p.id)).toEqual([mismatch.payment.id]);
    expect(expectStatus(await list({ status: 'failed' }), 200).data).toHaveLength(2);
    expect(expectStatus(await list({ late: 'true' }), 200).data.map((p: { id: string }) => p.id)).toEqual([late.payment.id]);
    expectError(await list({ failure_code: 'lost' }), 422, 'validation_failed');
  });
});
