import { describe, expect, it, vi } from 'vitest';
import { applyNotification } from '../../src/modules/payments/inbound/apply-notification';
import { reconcileDuePayments } from '../../src/modules/payments/reconcile/reconcile-payments.job';
import * as daraja from '../kit/fakes/daraja-fake';
import { until } from '../kit/fakes/fake-provider';
import { eventsOf, getOrder } from '../ticketing/payments-fixtures';
import { mpesaConfig, pendingMpesaPayment, useMpesaServer } from './inbound-fixtures';
import { applyInbox, inboxOf, paymentRow } from './inbound-kit';

const { t, mpesaFake } = useMpesaServer();

const post = (url: string, body: unknown) => t.http().post(new URL(url).pathname).set('content-type', 'application/json').send(JSON.stringify(body));
const deliveriesTo = (url: string) => mpesaFake.deliveries.filter((d) => d.url === url);

/** A paid prompt whose callback the fake sent to the payment's address and the service answered. */
async function approved(tenant: Awaited<ReturnType<typeof t.tenant>>, configId: string) {
  const p = await pendingMpesaPayment(t, tenant, configId);
  await until(() => deliveriesTo(p.callbackUrl).some((d) => d.status !== null));
  return p;
}

describe('POST /api/v1/payments/mpesa/webhooks/{ppc}/{token}', () => {
  it('records a genuine callback, answers Daraja at once, and the job pays the order with the receipt', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await approved(tenant, config.id);
    const [delivery] = deliveriesTo(p.callbackUrl);
    expect(delivery!.status).toBe(200);
    expect(JSON.parse(delivery!.answer)).toEqual({ ResultCode: 0, ResultDesc: 'Accepted' });
    // Recorded, not yet applied: the answer never waits for the provider.
    expect(await inboxOf(t, config.id)).toMatchObject([{ kind: 'payment', reference: p.checkoutRequestId, applied_at: null }]);
    expect((await paymentRow(t, p.payment.id)).status).toBe('pending');

    expect(await applyInbox(t, config.id)).toEqual(['succeeded']);
    const receipt = mpesaFake.stk.get(p.checkoutRequestId)!.receipt;
    expect(await paymentRow(t, p.payment.id)).toMatchObject({ status: 'succeeded', provider_receipt: receipt });
    expect(await getOrder(t, tenant, p.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
    // The job asked Daraja before granting anything.
    expect(mpesaFake.requestsTo('/mpesa/stkpushquery/v1/query').some((r) => (r.json as { CheckoutRequestID?: string }).CheckoutRequestID === p.checkoutRequestId)).toBe(true);
  });

  it('SVC_MPESA_CALLBACK_IPS: a callback from elsewhere is logged and recorded, or refused with 401 and nothing recorded in refuse mode', async () => {
    const config = t.ctx.config as { SVC_MPESA_CALLBACK_IPS: string[]; SVC_MPESA_CALLBACK_IPS_MODE: 'log' | 'refuse' };
    const saved = { ips: config.SVC_MPESA_CALLBACK_IPS, mode: config.SVC_MPESA_CALLBACK_IPS_MODE };
    const tenant = await t.tenant();
    const ppc = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, ppc.id, '+254711000003');
    const body = daraja.stkCallbackBody({ checkoutRequestId: p.checkoutRequestId, merchantRequestId: 'm-1', resultCode: 1032, resultDesc: 'Request cancelled by user' });
    try {
      config.SVC_MPESA_CALLBACK_IPS = ['196.201.214.200'];
      config.SVC_MPESA_CALLBACK_IPS_MODE = 'refuse';
      const refused = await post(p.callbackUrl, body);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('provider_webhook_refused');
      expect(await inboxOf(t, ppc.id)).toEqual([]);
      // The default mode only logs: the token still decides.
      config.SVC_MPESA_CALLBACK_IPS_MODE = 'log';
      expect((await post(p.callbackUrl, body)).status).toBe(200);
      expect(await inboxOf(t, ppc.id)).toHaveLength(1);
    } finally {
      config.SVC_MPESA_CALLBACK_IPS = saved.ips;
      config.SVC_MPESA_CALLBACK_IPS_MODE = saved.mode;
    }
  });

  it('a repeated callback is recorded once and changes nothing', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await approved(tenant, config.id);
    await applyInbox(t, config.id);
    mpesaFake.repeatCallback(p.checkoutRequestId);
    await until(() => deliveriesTo(p.callbackUrl).filter((d) => d.status !== null).length === 2);
    expect(deliveriesTo(p.callbackUrl).map((d) => d.status)).toEqual([200, 200]);
    expect(await inboxOf(t, config.id)).toHaveLength(1);
    expect(await applyNotification(t.ctx, String((await inboxOf(t, config.id))[0]!.id))).toBe('succeeded');
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
    expect(await eventsOf(t, tenant, 'events.order.paid')).toHaveLength(1);
  });

  it('refuses an unknown token or configuration with 404, records nothing, and tells the operator without the token', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    const body = daraja.stkCallbackBody({ merchantRequestId: 'm-1', checkoutRequestId: p.checkoutRequestId, resultCode: 0, resultDesc: 'ok', amountKes: 15 });
    const warn = vi.spyOn(t.ctx.log, 'warn');
    const forgedToken = 'A'.repeat(32);
    const base = new URL(p.callbackUrl).pathname.split('/').slice(0, -1).join('/');
    for (const path of [`${base}/${forgedToken}`, `${base}`, `/api/v1/payments/mpesa/webhooks/ppc_unknown/${forgedToken}`]) {
      const res = await t.http().post(path).set('content-type', 'application/json').send(JSON.stringify(body));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('resource_not_found');
    }
    expect(await inboxOf(t, config.id)).toEqual([]);
    const lines = warn.mock.calls.filter((c) => c[1] === 'payments: inbound provider notification refused').map((c) => c[0] as Record<string, unknown>);
    expect(lines.map((l) => l.reason)).toEqual(['unknown_token', 'missing_token', 'unknown_config']);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(forgedToken);
    warn.mockRestore();
    expect((await paymentRow(t, p.payment.id)).status).toBe('pending');
  });

  it("a token made for one prompt does not settle another prompt's payment", async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const a = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    const b = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    mpesaFake.holdCallbacks = true;
    mpesaFake.settle(b.checkoutRequestId, 0);
    mpesaFake.holdCallbacks = false;
    const stk = mpesaFake.stk.get(b.checkoutRequestId)!;
    const body = daraja.stkCallbackBody({ ...stk, ...stk.result!, receipt: stk.receipt!, amountKes: 15 });
    expect((await post(a.callbackUrl, body)).status).toBe(200);
    expect(await applyInbox(t, config.id)).toEqual(['mismatch']);
    expect((await paymentRow(t, a.payment.id)).status).toBe('pending');
    expect((await paymentRow(t, b.payment.id)).status).toBe('pending');
  });

  it('two callbacks at once for one payment pay the order once', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    mpesaFake.holdCallbacks = true;
    mpesaFake.settle(p.checkoutRequestId, 0);
    mpesaFake.holdCallbacks = false;
    const stk = mpesaFake.stk.get(p.checkoutRequestId)!;
    const body = daraja.stkCallbackBody({ ...stk, ...stk.result!, receipt: stk.receipt!, amountKes: 15 });
    const answers = await Promise.all([post(p.callbackUrl, body), post(p.callbackUrl, body), post(p.callbackUrl, body)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const rows = await inboxOf(t, config.id);
    expect(rows).toHaveLength(1);
    // Two workers applying the one row at the same moment, as after a crash and a retry.
    const outcomes = await Promise.all([applyNotification(t.ctx, String(rows[0]!.id)), applyNotification(t.ctx, String(rows[0]!.id))]);
    expect(outcomes).toContain('succeeded');
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
    expect(await eventsOf(t, tenant, 'events.order.paid')).toHaveLength(1);
    expect(await getOrder(t, tenant, p.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
  });

  it('a callback racing the reconciliation job pays once', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await approved(tenant, config.id);
    await t.ctx.db.updateTable('payments').set({ next_check_at: new Date(Date.now() - 1000) }).where('id', '=', p.payment.id).execute();
    const [row] = await inboxOf(t, config.id);
    await Promise.all([applyNotification(t.ctx, String(row!.id)), reconcileDuePayments(t.ctx)]);
    expect((await paymentRow(t, p.payment.id)).status).toBe('succeeded');
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
    expect(await eventsOf(t, tenant, 'events.order.paid')).toHaveLength(1);
    expect(await getOrder(t, tenant, p.booking.id)).toMatchObject({ status: 'paid', amount_paid: 1500 });
  });

  it('an amount other than the payment is held as amount_mismatch, never accepted; what came is refunded', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    mpesaFake.holdCallbacks = true;
    mpesaFake.settle(p.checkoutRequestId, 0);
    mpesaFake.holdCallbacks = false;
    const stk = mpesaFake.stk.get(p.checkoutRequestId)!;
    expect((await post(p.callbackUrl, daraja.stkCallbackBody({ ...stk, ...stk.result!, receipt: stk.receipt!, amountKes: 10 }))).status).toBe(200);
    expect(await applyInbox(t, config.id)).toEqual(['failed']);
    expect(await paymentRow(t, p.payment.id)).toMatchObject({ status: 'failed', failure_code: 'amount_mismatch' });
    expect((await getOrder(t, tenant, p.booking.id)).status).toBe('pending');
    const refunds = await t.ctx.db.selectFrom('refunds').selectAll().where('payment_id', '=', p.payment.id).execute();
    expect(refunds).toMatchObject([{ amount: 1000, reason: 'amount_mismatch', status: 'pending' }]);
  });

  it('a Daraja outage while applying leaves the row to be tried again; the next try settles it', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await approved(tenant, config.id);
    mpesaFake.failNext('/mpesa/stkpushquery/v1/query', { kind: 'status', status: 503 }, 3);
    const [row] = await inboxOf(t, config.id);
    await expect(applyNotification(t.ctx, String(row!.id))).rejects.toThrow();
    expect(await inboxOf(t, config.id)).toMatchObject([{ applied_at: null, attempts: 1, last_error: expect.stringMatching(/^unavailable/) }]);
    expect((await paymentRow(t, p.payment.id)).status).toBe('pending');
    expect(await applyNotification(t.ctx, String(row!.id))).toBe('succeeded');
    expect(await inboxOf(t, config.id)).toMatchObject([{ outcome: 'succeeded', attempts: 2, last_error: null }]);
    expect(await getOrder(t, tenant, p.booking.id)).toMatchObject({ status: 'paid' });
  });

  it('a late callback with the receipt fills provider_receipt of a payment settled by query alone', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    mpesaFake.holdCallbacks = true;
    mpesaFake.settle(p.checkoutRequestId, 0);
    await t.ctx.db.updateTable('payments').set({ next_check_at: new Date(Date.now() - 1000) }).where('id', '=', p.payment.id).execute();
    await reconcileDuePayments(t.ctx);
    expect(await paymentRow(t, p.payment.id)).toMatchObject({ status: 'succeeded', provider_receipt: null });
    mpesaFake.holdCallbacks = false;
    const [delivery] = await mpesaFake.release();
    expect(delivery!.status).toBe(200);
    expect(await applyInbox(t, config.id)).toEqual(['receipt_recorded']);
    expect(await paymentRow(t, p.payment.id)).toMatchObject({ status: 'succeeded', provider_receipt: mpesaFake.stk.get(p.checkoutRequestId)!.receipt });
    expect(await eventsOf(t, tenant, 'payments.payment.succeeded')).toHaveLength(1);
  });

  it('a failed prompt fails the payment as the query says; the order keeps waiting', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000004');
    await until(() => deliveriesTo(p.callbackUrl).some((d) => d.status !== null));
    expect(await applyInbox(t, config.id)).toEqual(['failed']);
    expect(await paymentRow(t, p.payment.id)).toMatchObject({ status: 'failed', failure_code: 'cancelled_by_user' });
    expect((await getOrder(t, tenant, p.booking.id)).status).toBe('pending');
  });

  it('a body that is not a Daraja callback is 400 and records nothing', async () => {
    const tenant = await t.tenant();
    const config = await mpesaConfig(t, tenant);
    const p = await pendingMpesaPayment(t, tenant, config.id, '+254711000003');
    const res = await post(p.callbackUrl, { hello: 'world' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(await inboxOf(t, config.id)).toEqual([]);
  });
});
