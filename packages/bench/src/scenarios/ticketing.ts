import { burst, type Answer, type BurstRequest } from '../burst';
import { settle } from './settle';
import { bookingBody, publishable, publishedEvent, query } from './ticketing-seed';
import { RSS_LIMIT_MB, type Context, type Scenario } from './types';

const sizes = (ctx: Context) => {
  const scaled = (n: number) => Math.max(2, 2 * Math.round((n * ctx.ticketingScale) / 2));
  return { BUYERS: scaled(2000), LAST_SEATS: scaled(500), ORDERS: scaled(2000), WARM_UP_ORDERS: scaled(200) };
};
const SUCCESS_CARD = { method: 'card', card_number: '4242424242424242' };

const book = (ctx: Context, slug: string, ticketType: string, quantity: number, buyer: string): BurstRequest => ({
  method: 'POST',
  path: `/v1/events/${slug}/book`,
  headers: publishable(ctx),
  body: bookingBody(ticketType, quantity, buyer),
});

const percentiles = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0);
  return `p50 ${at(50)} ms, p99 ${at(99)} ms`;
};
const failures = (answers: Answer[], ok: (a: Answer) => boolean) => answers.filter((a) => !ok(a));
const describe = (a: Answer | undefined) => (a ? `${a.status} ${a.error ?? JSON.stringify(a.body).slice(0, 200)}` : 'none');

/**
 * 2,000 buyers booking 1–4 tickets each, all at once (over the run's connections), for the last 500 seats of one
 * ticket type: its other 500 were booked just before by the same route (the warm-up), and as many buyers as the
 * rush's were refused on another event, sold out (the refusals' warm-up). Checked after the run
 * against the rows: no more tickets than seats, the bucket's `held + sold` equal to the live tickets, every
 * refusal a `409 sold_out`.
 */
export const ticketRush: Scenario = {
  name: 'ticket-rush',
  run: async (ctx) => {
    const { BUYERS, LAST_SEATS } = sizes(ctx);
    const event = await publishedEvent(ctx, 'Bench Rush', { quantity: 2 * LAST_SEATS, max_per_order: 4 });
    const warmUp = await burst(ctx.svc, ctx.connections, Array.from({ length: LAST_SEATS / 2 }, (_, i) => book(ctx, event.slug, event.ticketType, 2, `early-${i}`)));
    const warmUpFailed = failures(warmUp.answers, (a) => a.status === 201);
    if (warmUpFailed.length) throw new Error(`ticket rush: ${warmUpFailed.length} warm-up bookings failed, e.g. ${describe(warmUpFailed[0])}`);
    // Nine requests in ten of the rush are refused: that path is warmed up too, on an event of its own sold out first.
    const soldOut = await publishedEvent(ctx, 'Bench Sold Out', { quantity: 1, max_per_order: 4 });
    const lateBuyers = Array.from({ length: BUYERS }, (_, i) => book(ctx, soldOut.slug, soldOut.ticketType, 1 + ((i * 7) % 4), `late-${i}`));
    const [lastSeat] = (await burst(ctx.svc, 1, [book(ctx, soldOut.slug, soldOut.ticketType, 1, 'first')])).answers;
    if (lastSeat?.status !== 201) throw new Error(`ticket rush: the sold-out event's one seat was not booked: ${describe(lastSeat)}`);
    const refusedWarmUp = await burst(ctx.svc, ctx.connections, lateBuyers);
    const warmUpWrong = failures(refusedWarmUp.answers, (a) => a.status === 409 && a.body?.error?.code === 'sold_out');
    if (warmUpWrong.length) throw new Error(`ticket rush: ${warmUpWrong.length} bookings of the sold-out event were not refused sold_out, e.g. ${describe(warmUpWrong[0])}`);

    const quantities = Array.from({ length: BUYERS }, (_, i) => 1 + ((i * 7) % 4));
    await settle(ctx.databaseUrl);
    const { result, answers } = await burst(ctx.svc, ctx.connections, quantities.map((q, i) => book(ctx, event.slug, event.ticketType, q, `rush-${i}`)));
    const booked = answers.filter((a) => a.status === 201);
    const seatsBooked = answers.reduce((n, a, i) => n + (a.status === 201 ? quantities[i]! : 0), 0);
    const wrongRefusals = failures(answers, (a) => a.status === 201 || (a.status === 409 && a.body?.error?.code === 'sold_out'));
    const serverErrors = answers.filter((a) => a.status >= 500).length;

    const [bucket] = await query<{ capacity: number; held: number; sold: number }>(ctx, 'select capacity, held, sold from capacity_buckets where id = $1', [`t:${event.ticketType}`]);
    const [tickets] = await query<{ n: string }>(ctx, `select count(*) as n from tickets where ticket_type_id = $1 and status <> 'void'`, [event.ticketType]);
    const liveTickets = Number(tickets!.n);
    const oversold = Math.max(0, liveTickets - bucket!.capacity, bucket!.held + bucket!.sold - bucket!.capacity);
    const consistent = bucket!.held + bucket!.sold === liveTickets && liveTickets === LAST_SEATS + seatsBooked;
    const correct = oversold === 0 && consistent && wrongRefusals.length === 0 && serverErrors === 0 && result.errors === 0;
    return {
      results: [
        {
          name: `ticket rush (${BUYERS} buyers × 1–4, last ${LAST_SEATS} seats)`,
          result,
          target: {
            label: '≥ 0.4× write, p99 ≤ 150 ms, 0 oversold, refusals 409 sold_out',
            met: (r, x) => x >= 0.4 && r.p99Ms <= 150 && correct && r.peakRssMb <= RSS_LIMIT_MB,
          },
          note: `non-2xx are the expected 409 sold_out`,
        },
      ],
      notes: [
        `Ticket rush: ${booked.length} of ${BUYERS} buyers booked ${seatsBooked} of the last ${LAST_SEATS} seats; ` +
          `${answers.length - booked.length} refused (${wrongRefusals.length} not 409 sold_out${wrongRefusals[0] ? `, e.g. ${describe(wrongRefusals[0])}` : ''}; ${serverErrors} 5xx). ` +
          `After the run: ${liveTickets} live tickets for ${bucket!.capacity} seats, bucket held ${bucket!.held} + sold ${bucket!.sold}: ` +
          `${oversold} oversold, ${consistent ? 'consistent' : 'INCONSISTENT'} with the tickets and the answers. ` +
          `Latency of the bookings taken: ${percentiles(booked.map((a) => a.ms))}; of the refusals: ${percentiles(answers.filter((a) => a.status !== 201).map((a) => a.ms))}. ` +
          `The last booking was taken ${Math.round(Math.max(...booked.map((a) => a.at)))} ms into the run's ${Math.round(Math.max(...answers.map((a) => a.at)))} ms.`,
      ],
    };
  },
};

/** The simulator's confirmations per second in this run, for the M-Pesa scenario to compare with. */
export const simulatorConfirmations: { perSecond?: number } = {};

/**
 * The simulator confirming 2,000 pending orders at once (`POST /v1/checkout/sessions/{id}/pay`, the success
 * card), after 200 others as a warm-up; then each session is paid again, which must answer
 * `409 checkout_session_complete`. Checked against the rows: every order paid, one succeeded payment each, its
 * ticket valid once, one entitlement to the stream per order.
 */
export const paymentConfirmations: Scenario = {
  name: 'payment-confirmations',
  run: async (ctx) => {
    const { ORDERS, WARM_UP_ORDERS } = sizes(ctx);
    const event = await publishedEvent(ctx, 'Bench Payments', { max_per_order: 4 }, { stream: true });
    const total = ORDERS + WARM_UP_ORDERS;
    const seeded = await burst(ctx.svc, 25, Array.from({ length: total }, (_, i) => book(ctx, event.slug, event.ticketType, 1, `payer-${i}`)));
    const seedFailed = failures(seeded.answers, (a) => a.status === 201);
    if (seedFailed.length) throw new Error(`payment confirmations: ${seedFailed.length} bookings failed, e.g. ${describe(seedFailed[0])}`);
    const sessions = seeded.answers.map((a) => /\/checkout\/(cs_[A-Za-z0-9]+)/.exec(String(a.body.data.payment))![1]!);
    const codes = seeded.answers.map((a) => a.body.data.booking.code as string);
    const pay = (cs: string): BurstRequest => ({ method: 'POST', path: `/v1/checkout/sessions/${cs}/pay`, body: SUCCESS_CARD });

    await settle(ctx.databaseUrl);
    const warmUp = await burst(ctx.svc, ctx.connections, sessions.slice(ORDERS).map(pay));
    const { result, answers } = await burst(ctx.svc, ctx.connections, sessions.slice(0, ORDERS).map(pay));
    simulatorConfirmations.perSecond = result.requestsPerSecond;
    const notPaid = failures([...warmUp.answers, ...answers], (a) => a.status === 200 && a.body?.data?.payment?.status === 'succeeded');
    // Every session once more: a confirmation that arrives twice must not pay twice.
    const again = await burst(ctx.svc, ctx.connections, sessions.slice(0, Math.min(200, ORDERS)).map(pay));
    const repaid = failures(again.answers, (a) => a.status === 409 && a.body?.error?.code === 'checkout_session_complete');

    const [rows] = await query<Record<string, string>>(
      ctx,
      `with o as (select id, code, quantity, status from orders where event_id = $1),
            p as (select order_id, count(*) filter (where status = 'succeeded') as ok from payments where order_id in (select id from o) group by order_id),
            t as (select order_id, count(*) filter (where status = 'valid') as valid, count(*) as made from tickets where order_id in (select id from o) group by order_id),
            e as (select source_ref, count(*) as n from entitlements where source = 'ticket' and source_ref in (select code from o) group by source_ref)
       select (select count(*) from o) as orders,
              (select count(*) from o where status = 'paid') as paid,
              (select count(*) from o left join p on p.order_id = o.id where coalesce(p.ok, 0) <> 1) as not_once_paid,
              (select count(*) from o left join t on t.order_id = o.id where coalesce(t.valid, 0) <> o.quantity or coalesce(t.made, 0) <> o.quantity) as bad_tickets,
              (select count(*) from o left join e on e.source_ref = o.code where coalesce(e.n, 0) <> o.quantity) as bad_entitlements,
              (select sold from capacity_buckets where id = 't:' || $2) as sold,
              (select held from capacity_buckets where id = 't:' || $2) as held`,
      [event.id, event.ticketType],
    );
    const n = (k: string) => Number(rows![k]);
    const correct =
      n('orders') === total && n('paid') === total && n('not_once_paid') === 0 && n('bad_tickets') === 0 && n('bad_entitlements') === 0 &&
      n('sold') === total && n('held') === 0 && notPaid.length === 0 && repaid.length === 0 && codes.length === total;
    return {
      results: [
        {
          name: `payment confirmations (${ORDERS} pending orders)`,
          result,
          target: { label: '≥ 0.5× write, each order paid once', met: (r, x) => x >= 0.5 && correct && r.errors === 0 && r.peakRssMb <= RSS_LIMIT_MB },
        },
      ],
      notes: [
        `Payment confirmations: ${total - notPaid.length} of ${total} confirmations succeeded${notPaid[0] ? ` (e.g. ${describe(notPaid[0])})` : ''}; ` +
          `${again.answers.length - repaid.length} of ${again.answers.length} repeats answered 409 checkout_session_complete${repaid[0] ? ` (else ${describe(repaid[0])})` : ''}. ` +
          `Rows: ${n('paid')} of ${n('orders')} orders paid, ${n('not_once_paid')} without exactly one succeeded payment, ` +
          `${n('bad_tickets')} with tickets not made once and valid, ${n('bad_entitlements')} without one entitlement per ticket; ` +
          `bucket sold ${n('sold')}, held ${n('held')}. Seeding the ${total} bookings: ${seeded.result.requestsPerSecond}/s, p99 ${seeded.result.p99Ms} ms (25 connections).`,
      ],
    };
  },
};
