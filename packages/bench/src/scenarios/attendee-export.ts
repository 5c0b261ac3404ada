import { newOrganization, organizerEvents, seedPaidOrders, withClient } from './organizer-seed';
import { auth, type Context, type Scenario } from './types';

const ROWS_PER_SECOND = 20_000;
const RSS_GROWTH_MB = 50;

/** One whole download, read as it comes; the server's RSS sampled every 50 ms meanwhile. */
async function exportOnce(ctx: Context, eventId: string) {
  const rss = () => ctx.svc.rssMb();
  await new Promise((r) => setTimeout(r, 1000));
  const before = rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rss())), 50);
  const started = performance.now();
  let newlines = 0;
  let bytes = 0;
  let firstByteMs = 0;
  try {
    const res = await fetch(`${ctx.svc.url}/v1/organizer/events/${eventId}/attendees/export?format=csv`, { headers: auth(ctx) });
    if (!res.ok) throw new Error(`attendee export: ${res.status} ${(await res.text()).slice(0, 300)}`);
    for await (const chunk of res.body!) {
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += chunk.length;
      // The seeded names and emails hold no quote, comma or line break: one line per row.
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, rss());
  const rows = newlines - 1;
  return { rows, bytes, seconds, firstByteMs, rowsPerSecond: rows / seconds, before, peak, growth: peak - before };
}

/**
 * `GET /v1/organizer/events/{event}/attendees/export` (the secret key) of one event with 100,000 attendees
 * (100,000 paid orders of one ticket, seeded with SQL; `--ticketing-scale` scales it): the rows per second of the whole download and how much
 * the server's RSS grew meanwhile (sampled every 50 ms, as measure.ts samples it), and the CSV's row count; twice,
 * first from the idle server as the seed left it, then again at once.
 */
export const attendeeExport: Scenario = {
  name: 'attendee-export',
  run: async (ctx) => {
    const attendees = Math.max(1, Math.round(100_000 * ctx.ticketingScale));
    const org = await newOrganization(ctx, 'Bench Export');
    const [event] = await organizerEvents(ctx, org.id, 1, attendees);
    const seeded = await withClient(ctx, (client) =>
      seedPaidOrders(client, ctx, org.id, [event!], { first: 2e12, count: attendees, code: 'BX', spreadSeconds: 30 * 86_400, ticketsCycle: 1 }),
    );
    if (seeded.tickets.rows !== attendees) throw new Error(`attendee export: ${seeded.tickets.rows} tickets seeded, not ${attendees}`);

    const seededSeconds = seeded.orders.seconds + seeded.tickets.seconds + seeded.indexes.seconds + seeded.rollups.seconds;
    // Twice: first from the server as the seed left it (idle, its heap shrunk), then again at once.
    const lines: string[] = [];
    for (const run of ['first', 'second']) {
      const e = await exportOnce(ctx, event!.id);
      const met = e.rows === attendees && e.rowsPerSecond >= ROWS_PER_SECOND && e.growth <= RSS_GROWTH_MB;
      lines.push(
        `Attendee export (${run}): ${e.rows} CSV rows for ${attendees} seeded attendees (${(e.bytes / 1e6).toFixed(1)} MB) in ${e.seconds.toFixed(2)} s, ` +
          `${Math.round(e.rowsPerSecond)} rows/s (first byte after ${e.firstByteMs.toFixed(0)} ms); server RSS ${e.before.toFixed(0)} → ${e.peak.toFixed(0)} MB at the peak (+${e.growth.toFixed(1)} MB); ` +
          `target ≥ ${ROWS_PER_SECOND.toLocaleString('en')} rows/s and ≤ ${RSS_GROWTH_MB} MB growth: ${met ? 'met' : 'NOT met'}.`,
      );
      if (e.rows !== attendees) throw new Error(lines.at(-1));
    }
    lines.push(`Attendee export: ${attendees} attendees seeded in ${seededSeconds.toFixed(1)} s.`);
    return { results: [], notes: lines };
  },
};
