import { describe, expect, it } from 'vitest';
import { useTestServer } from '../harness';
import { expectError, expectStatus } from '../kit/expect';
import { makeEvent, makeOrganization, makeTicketType, sk } from './catalogue-fixtures';

const t = useTestServer();

describe('coupons', () => {
  it('creates, lists and updates coupons with codes unique per event without case', async () => {
    const tenant = await t.tenant();
    const org = await makeOrganization(t, tenant);
    const event = await makeEvent(t, tenant, org.id);
    const other = await makeEvent(t, tenant, org.id);
    const tt = await makeTicketType(t, tenant, event.id);
    const foreign = await makeTicketType(t, tenant, other.id);
    const path = `/v1/organizer/events/${event.slug}/coupons`;
    const post = (body: Record<string, unknown>) => t.http().post(path).set(sk(tenant)).send(body);
    const coupon = expectStatus(await post({ code: 'EARLY-Bird', discount_type: 'percent', value: 20, ticket_type_ids: [tt.id], max_uses: 5 }), 201).data;
    expect(coupon).toMatchObject({ object: 'coupon', event: event.id, code: 'EARLY-Bird', discount_type: 'percent', value: 20, ticket_type_ids: [tt.id], max_uses: 5, times_redeemed: 0, active: true });
    expectError(await post({ code: 'early-bird', discount_type: 'fixed', value: 100 }), 409, 'coupon_code_taken', { param: 'code' });
    expectStatus(await t.http().post(`/v1/organizer/events/${other.id}/coupons`).set(sk(tenant)).send({ code: 'early-bird', discount_type: 'fixed', value: 100 }), 201);
    expectError(await post({ code: 'BIG', discount_type: 'percent', value: 101 }), 422, 'validation_failed', { param: 'value' });
    expectError(await post({ code: 'ZERO', discount_type: 'fixed', value: 0 }), 422, 'validation_failed', { param: 'value' });
    expectError(await post({ code: 'HUGE', discount_type: 'fixed', value: 3_000_000_000 }), 422, 'validation_failed', { param: 'value' });
    expectError(await post({ code: 'has space', discount_type: 'fixed', value: 1 }), 422, 'validation_failed', { param: 'code' });
    expectError(await post({ code: 'X1', discount_type: 'fixed', value: 1, ticket_type_ids: [foreign.id] }), 422, 'validation_failed', { param: 'ticket_type_ids' });
    expectError(
      await post({ code: 'X2', discount_type: 'fixed', value: 1, valid_from: '2030-01-02T00:00:00Z', valid_until: '2030-01-01T00:00:00Z' }),
      422,
      'validation_failed',
      { param: 'valid_until' },
    );
    const list = expectStatus(await t.http().get(path).set(sk(tenant)), 200).data;
    expect(list.map((c: { id: string }) => c.id)).toEqual([coupon.id]);

    const patch = (body: Record<string, unknown>) => t.http().patch(`${path}/${coupon.id}`).set(sk(tenant)).send(body);
    expect(expectStatus(await patch({ active: false, value: 30 }), 200).data).toMatchObject({ active: false, value: 30, code: 'EARLY-Bird' });
    await t.ctx.db.updateTable('coupons').set({ uses_held: 1, uses_redeemed: 2 }).where('id', '=', coupon.id).execute();
    expectError(await patch({ max_uses: 2 }), 422, 'validation_failed', { param: 'max_uses' });
    expect(expectStatus(await patch({ max_uses: 3 }), 200).data).toMatchObject({ max_uses: 3, times_redeemed: 2 });
    expectError(await patch({ discount_type: 'percent', value: 150 }), 422, 'validation_failed', { param: 'value' });
    expectError(await t.http().patch(`/v1/organizer/events/${other.id}/coupons/${coupon.id}`).set(sk(tenant)).send({ active: true }), 404, 'resource_not_found');
  });
});
