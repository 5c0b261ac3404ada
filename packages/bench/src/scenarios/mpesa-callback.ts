import { randomUUID } from 'node:crypto';
import * as daraja from '../../../server/test/kit/fakes/daraja-fake';
import { burst, type Answer, type BurstRequest } from '../burst';
import { paced } from '../paced';
import { settle } from './settle';
import { simulatorConfirmations } from './ticketing';
import { bookingBody, publishable, publishedEvent, query, type SeededEvent } from './ticketing-seed';
import { RSS_LIMIT_MB, type Context, type Scenario } from './types';

/** The offered rate of the latency run: Daraja's callbacks for a busy paybill. */
const RATE = 200;
const RATE_SECONDS = 10;
/** A phone whose prompt the fake never answers by itself: the bench answers it, then posts the callback. */
const SILENT_PHONE = '+254711000003';

const describe = (a: Answer | undefined) => (a ? `${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}` : 'none');

/** Booked and prompted orders of one event: each prompt approved at the fake, its callback body ready to post. */
async function promptedOrders(ctx: Context, fake: daraja.DarajaFake, event: SeededEvent, count: number): Promise<BurstRequest[]> {
  const booked = await burst(ctx.svc, 25, Array.from({ length: count }, (_, i) => ({ method: 'POST' as const, path: `/v1/events/${event.slug}/book`, headers: publishable(ctx), body: bookingBody(event.ticketType, 1, `mpesa-${randomUUID().slice(0, 8)}-${i}`) })));
  const notBooked = booked.answers.filter((a) => a.status !== 201);
  if (notBooked.length) throw new Error(`mpesa-callback: ${notBooked.length} bookings failed, e.g. ${describe(notBooked[0])}`);
  const sessions = booked.answers.map((a) => /\/checkout\/(cs_[A-Za-z0-9]+)/.exec(String(a.body.data.payment))![1]!);
  const pay = (cs: string): BurstRequest => ({ method: 'POST', path: `/v1/checkout/sessions/${cs}/pay`, headers: { 'idempotency-key': randomUUID() }, body: { method: 'mobile_money', phone: SILENT_PHONE } });
  const prompted = await burst(ctx.svc, 25, sessions.map(pay));
  const notPrompted = prompted.answers.filter((a) => a.status !== 200 || a.body?.data?.payment?.status !== 'pending');
  if (notPrompted.length) throw new Error(`mpesa-callback: ${notPrompted.length} prompts were not sent, e.g. ${describe(notPrompted[0])}`);
  return prompted.answers.map((a) => {
    const p = fake.stk.get(a.body.data.payment.provider_reference as string)!;
    fake.settle(p.checkoutRequestId, 0);
    const body = daraja.stkCallbackBody({ ...p, ...daraja.SUCCESS, receipt: p.receipt!, phone: p.phone });
    return { method: 'POST', path: new URL(p.callbackUrl).pathname, body };
  });
}

/** Waits until every order of the event is paid; answers the seconds it took from `since`. */
async function allPaid(ctx: Context, event: SeededEvent, count: number, since: number): Promise<number> {
  for (;;) {
    const [row] = await query<{ n: string }>(ctx, `select count(*) as n from orders where event_id = $1 and status = 'paid'`, [event.id]);
    if (Number(row!.n) >= count) return (performance.now() - since) / 1000;
    if (performance.now() - since > 300_000) throw new Error(`mpesa-callback: ${row!.n} of ${count} orders paid after 5 minutes`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Per event: orders, those paid, those without exactly one succeeded payment, tickets and entitlements not made once. */
async function check(ctx: Context, event: SeededEvent) {
  const [row] = await query<Record<string, string>>(
    ctx,
    `with o as (select id, code, quantity, status from orders where event_id = $1),
          p as (select order_id, count(*) filter (where status = 'succeeded') as ok from payments where order_id in (select id from o) group by order_id),
          t as (select order_id, count(*) filter (where status = 'valid') as valid from tickets where order_id in (select id from o) group by order_id),
          e as (select source_ref, count(*) as n from entitlements where source = 'ticket' and source_ref in (select code from o) group by source_ref)
     select (select count(*) from o) as orders, (select count(*) from o where status = 'paid') as paid,
            (select count(*) from o left join p on p.order_id = o.id where coalesce(p.ok, 0) <> 1) as not_once_paid,
            (select count(*) from o left join t on t.order_id = o.id where coalesce(t.valid, 0) <> o.quantity) as bad_tickets,
            (select count(*) from o left join e on e.source_ref = o.code where coalesce(e.n, 0) <> o.quantity) as bad_entitlements`,
    [event.id],
  );
  const n = (k: string) => Number(row![k]);
  return { orders: n('orders'), paid: n('paid'), notOncePaid: n('not_once_paid'), badTickets: n('bad_tickets'), badEntitlements: n('bad_entitlements') };
}
type Checked = Awaited<ReturnType<typeof check>>;
const fine = (c: Checked) => c.paid === c.orders && c.notOncePaid === 0 && c.badTickets === 0 && c.badEntitlements === 0;
const told = (c: Checked) => `${c.paid} of ${c.orders} orders paid, ${c.notOncePaid} without exactly one succeeded payment, ${c.badTickets} with tickets not valid once, ${c.badEntitlements} without one entitlement per ticket`;

/**
 * M-Pesa confirmations through the real inbound path against the local Daraja (`MPESA_API_URL`): orders booked and
 * prompted through a test-mode M-Pesa configuration, each prompt approved, then Daraja's callbacks posted to the
 * prompts' tokened addresses. First all at once: confirmations per second from the first callback to the last
 * paid order (each one recorded in the inbox, answered, then applied by the job after an STK Query), with tickets,
 * entitlements and events. Then callbacks at 200/s: the provider's answer latency. Every callback is posted a
 * second time at the end, which must change nothing.
 */
export const mpesaCallback: Scenario = {
  name: 'mpesa-callback',
  run: async (ctx) => {
    const fake = ctx.daraja;
    const scaled = (n: number) => Math.max(10, Math.round(n * ctx.ticketingScale));
    const AT_ONCE = scaled(1000);
    const AT_RATE = scaled(RATE * RATE_SECONDS);
    const { data: config } = await ctx.api.call('POST', '/v1/payments/provider_configs', {
      type: 'mpesa', name: 'Bench paybill', shortcode: daraja.DARAJA_SHORTCODE, shortcode_type: 'paybill',
      consumer_key: daraja.DARAJA_CONSUMER_KEY, consumer_secret: daraja.DARAJA_CONSUMER_SECRET, passkey: daraja.DARAJA_PASSKEY,
    });
    await ctx.api.call('PATCH', '/v1/payments/settings', { provider_configs: [config.id] });
    fake.holdCallbacks = true;
    try {
      const atOnce = await publishedEvent(ctx, 'Bench M-Pesa', { quantity: AT_ONCE, max_per_order: 1 }, { stream: true });
      const atRate = await publishedEvent(ctx, 'Bench M-Pesa rate', { quantity: AT_RATE, max_per_order: 1 }, { stream: true });
      const firstCallbacks = await promptedOrders(ctx, fake, atOnce, AT_ONCE);
      const rateCallbacks = await promptedOrders(ctx, fake, atRate, AT_RATE);

      await settle(ctx.databaseUrl);
      const since = performance.now();
      const sent = await burst(ctx.svc, ctx.connections, firstCallbacks);
      const seconds = await allPaid(ctx, atOnce, AT_ONCE, since);
      const confirmed = Math.round(AT_ONCE / seconds);

      await settle(ctx.databaseUrl);
      const steady = await paced(ctx.svc, RATE, rateCallbacks);
      await allPaid(ctx, atRate, AT_RATE, performance.now());

      // Daraja posts a callback again when it did not hear back: each one once more must change nothing.
      const again = await burst(ctx.svc, ctx.connections, [...firstCallbacks, ...rateCallbacks]);
      await new Promise((r) => setTimeout(r, 3000));
      const [a, b] = [await check(ctx, atOnce), await check(ctx, atRate)];
      const unanswered = [...sent.answers, ...steady.answers, ...again.answers].filter((x) => x.status !== 200);
      const correct = fine(a) && fine(b) && unanswered.length === 0;
      const simulator = simulatorConfirmations.perSecond;
      const result = { ...sent.result, requestsPerSecond: confirmed };
      return {
        results: [
          {
            name: `mpesa callback → paid order (${AT_ONCE} callbacks at once)`,
            result,
            target: { label: 'each order paid once', met: (r) => correct && r.errors === 0 && r.peakRssMb <= RSS_LIMIT_MB },
            note: 'req/s: confirmations per second, first callback to last paid order',
          },
          {
            name: `mpesa callback answers at ${RATE}/s`,
            result: steady.result,
            target: { label: `p99 ≤ 50 ms at ${RATE}/s`, met: (r) => r.p99Ms <= 50 && r.errors === 0 && r.non2xx === 0 && correct && r.peakRssMb <= RSS_LIMIT_MB },
          },
        ],
        notes: [
          `M-Pesa callbacks: ${AT_ONCE} at once were answered at ${sent.result.requestsPerSecond}/s (p99 ${sent.result.p99Ms} ms) and paid their orders at ${confirmed}/s ` +
            `(${seconds.toFixed(1)} s from the first callback to the last paid order)` +
            (simulator ? `, ${(confirmed / simulator).toFixed(2)}× the simulator's ${simulator} confirmations/s of this run. ` : '. ') +
            `At ${RATE}/s offered: ${steady.result.requestsPerSecond}/s answered, p50 ${steady.result.p50Ms} ms, p99 ${steady.result.p99Ms} ms. ` +
            `Every callback posted again: ${again.answers.length - again.answers.filter((x) => x.status !== 200).length} of ${again.answers.length} answered 200, changing nothing. ` +
            `Rows: at once ${told(a)}; at ${RATE}/s ${told(b)}.` +
            (unanswered.length ? ` ${unanswered.length} callbacks were not answered 200, e.g. ${describe(unanswered[0])}.` : ''),
        ],
      };
    } finally {
      fake.holdCallbacks = false;
    }
  },
};
