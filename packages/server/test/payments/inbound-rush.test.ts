import { afterEach, describe, expect, it } from 'vitest';
import { registerPaymentTarget, type PaymentTarget } from '../../src/modules/payments';
import { applyNotifications } from '../../src/modules/payments/inbound/apply-notifications';
import { expireDuePendingOrders } from '../../src/modules/ticketing/orders/expire-orders.job';
import { ticketPaymentTarget } from '../../src/modules/ticketing/payments/payment-target';
import { until } from '../kit/fakes/fake-provider';
import { bookingBody, bookOk, bucketsOf, seedEvent, type Tenant } from '../ticketing/booking-fixtures';
import { eventsOf, sessionOf } from '../ticketing/payments-fixtures';
import { mpesaConfig, pendingMpesaPayment, useMpesaServer } from './inbound-fixtures';
import { inboxOf } from './inbound-kit';

const { t, mpesaFake } = useMpesaServer();

const ORDERS = 12;

/** `ORDERS` bookings of one event, each prompted and approved, their callbacks answered and waiting in the inbox. */
async function rush(tenant: Tenant) {
  const config = await mpesaConfig(t, tenant);
  const seeded = await seedEvent(t, tenant, { capacity: 50, ticketTypes: [{ price: 1500 }] });
  const payments: string[] = [];
  const addresses = new Set<string>();
  for (let i = 0; i < ORDERS; i++) {
    const { booking, payment } = await bookOk(t, tenant, seeded.event.id, bookingBody(seeded.ticketType.id, 1));
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000000', { ...seeded, booking, payment, session: sessionOf(payment) });
    payments.push(p.payment.id);
    addresses.add(p.callbackUrl);
  }
  await until(() => mpesaFake.deliveries.filter((d) => addresses.has(d.url) && d.status === 200).length === ORDERS, 15_000);
  expect(await inboxOf(t, config.id)).toHaveLength(ORDERS);
  const ids = (await inboxOf(t, config.id)).map((r) => String(r.id));
  return { config, event: seeded.event, payments, ids };
}

/** What the rush left: each payment succeeded, each order paid once, its ticket valid, and the seats sold. */
async function expectPaidOnce(tenant: Tenant, r: Awaited<ReturnType<typeof rush>>) {
  const db = t.ctx.db;
  const payments = await db.selectFrom('payments').select(['status', 'order_id', 'provider_receipt']).where('id', 'in', r.payments).execute();
  expect(payments.every((p) => p.status === 'succeeded' && p.provider_receipt !== null)).toBe(true);
  const orders = await db.selectFrom('orders').select(['id', 'status', 'amount_paid', 'amount_total']).where('event_id', '=', r.event.id).execute();
  expect(orders).toHaveLength(ORDERS);
  expect(orders.every((o) => o.status === 'paid' && o.amount_paid === o.amount_total)).toBe(true);
  const valid = await db.selectFrom('tickets').select('order_id').where('order_id', 'in', orders.map((o) => o.id)).where('status', '=', 'valid').execute();
  expect(valid).toHaveLength(ORDERS);
  const buckets = Object.values(await bucketsOf(t, r.event.id));
  expect(buckets.length).toBeGreaterThan(0);
  for (const b of buckets) expect({ held: b.held, sold: b.sold }).toEqual({ held: 0, sold: ORDERS });
  const succeeded = (await eventsOf(t, tenant, 'payments.payment.succeeded')).map((e) => e.data.object.id as string);
  expect(succeeded.sort()).toEqual([...r.payments].sort());
  const paid = (await eventsOf(t, tenant, 'events.order.paid')).map((e) => e.data.object.id as string);
  expect(paid.sort()).toEqual(orders.map((o) => o.id).sort());
  const inbox = await inboxOf(t, r.config.id);
  expect(inbox.every((n) => n.applied_at !== null && ['succeeded', 'unchanged'].includes(n.outcome!))).toBe(true);
  expect(inbox.filter((n) => n.outcome === 'succeeded').map((n) => n.subject_id).sort()).toEqual([...r.payments].sort());
}

/** The ticketing target, with its batch counted or replaced. */
function target(over: Partial<PaymentTarget>): PaymentTarget {
  return { ...ticketPaymentTarget, ...over };
}

describe('many M-Pesa confirmations of one event at once', () => {
  afterEach(() => registerPaymentTarget(ticketPaymentTarget));

  it('settle together, each order paid once with one event each, sold equal to paid, however the batches overlap', async () => {
    const tenant = await t.tenant();
    const r = await rush(tenant);
    const batches: number[] = [];
    registerPaymentTarget(target({ paymentsSucceededTogether: (trx, ctx, scope, payments) => (batches.push(payments.length), ticketPaymentTarget.paymentsSucceededTogether!(trx, ctx, scope, payments)) }));
    // Two job loops with halves of the inbox, and a retried job with all of it, at the same moment.
    const half = Math.floor(ORDERS / 2);
    const failures = await Promise.all([applyNotifications(t.ctx, r.ids.slice(0, half)), applyNotifications(t.ctx, r.ids.slice(half)), applyNotifications(t.ctx, r.ids)]);
    expect(failures).toEqual([undefined, undefined, undefined]);
    expect(batches.length).toBeGreaterThan(0);
    expect(Math.max(...batches)).toBeGreaterThanOrEqual(half);
    await expectPaidOnce(tenant, r);
    // Applied again (a repeated job): nothing changes.
    expect(await applyNotifications(t.ctx, r.ids)).toBeUndefined();
    await expectPaidOnce(tenant, r);
    expect(mpesaFake.requestsTo('/mpesa/stkpushquery/v1/query').length).toBeGreaterThanOrEqual(ORDERS);
  });

  it('a late payment in the batch is settled alone beside the others, by the late-payment policy', async () => {
    const tenant = await t.tenant();
    const r = await rush(tenant);
    const late = (await t.ctx.db.selectFrom('payments').select('order_id').where('id', '=', r.payments[0]!).executeTakeFirstOrThrow()).order_id;
    await t.ctx.db.updateTable('orders').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', late).execute();
    await expireDuePendingOrders(t.ctx);
    const batches: number[] = [];
    registerPaymentTarget(
      target({
        paymentsSucceededTogether: async (trx, ctx, scope, payments) => {
          const plan = await ticketPaymentTarget.paymentsSucceededTogether!(trx, ctx, scope, payments);
          batches.push(plan.ids.size);
          return plan;
        },
      }),
    );
    expect(await applyNotifications(t.ctx, r.ids)).toBeUndefined();
    // The expired order is not taken together; alone it takes its seat again (accept_if_available), late.
    expect(batches).toEqual([ORDERS - 1]);
    expect(await t.ctx.db.selectFrom('payments').select(['status', 'late']).where('id', '=', r.payments[0]!).executeTakeFirstOrThrow()).toEqual({ status: 'succeeded', late: true });
    await expectPaidOnce(tenant, r);
  });

  it('a batch that fails writes nothing of it, and each confirmation is then settled alone', async () => {
    const tenant = await t.tenant();
    const r = await rush(tenant);
    let tries = 0;
    registerPaymentTarget(
      target({
        paymentsSucceededTogether: async (trx, ctx, scope, payments) => {
          const plan = await ticketPaymentTarget.paymentsSucceededTogether!(trx, ctx, scope, payments);
          // Fails after the orders were paid in its transaction: all of that must roll back.
          const pay = async (succeeded: Parameters<typeof plan.pay>[0]) => {
            tries++;
            await plan.pay(succeeded);
            throw new Error('one order failed');
          };
          return { ids: plan.ids, pay };
        },
      }),
    );
    expect(await applyNotifications(t.ctx, r.ids)).toBeUndefined();
    expect(tries).toBe(1);
    await expectPaidOnce(tenant, r);
  });
});
