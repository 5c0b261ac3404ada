import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/boot/config';
import type { NotificationListener } from '../../src/core/notify';
import { notifyPublicEventChanged, PUBLIC_EVENTS_CHANNEL, PublicEventCache, type PublicCatalogue } from '../../src/modules/ticketing/public/public-event-cache';
import { publicEventChanged } from '../../src/modules/ticketing/public/public-event-changed';
import { publicReadsOf } from '../../src/modules/ticketing/public/public-parts';
import { startServer } from '../../src/boot/server';
import { ENCRYPTION_KEY, OPERATOR_TOKEN, type TestServer } from '../harness';
import { expectStatus } from '../kit/expect';
import { writePageViews } from '../kit/page-views';
import { pk } from './booking-fixtures';
import { makePublishedEvent, makeTicketType, sk, type Tenant } from './catalogue-fixtures';
import { stopTwoInstances, twoInstances, type SecondInstance } from './two-instances';

/**
 * The public event page is cached in each process and cleared on every process through NOTIFY; availability is
 * read for each request; page views are counted in memory and written in batches. Two app instances share one
 * database here, as two server processes would.
 */

let t: TestServer;
let second: SecondInstance;
let tenant: Tenant;
let org: { id: string };

beforeAll(async () => {
  ({ t, second, tenant, org } = await twoInstances());
});

afterAll(() => stopTwoInstances(t, second));

const onSecond = (slug: string, agent = 'reader') => request(second.app).get(`/v1/events/${slug}`).set(pk(tenant)).set('User-Agent', agent);

/** Resolves when the second instance hears that the event changed (its cache has forgotten it by then). */
const heardOn = (listener: NotificationListener, eventId: string) =>
  new Promise<void>((resolve) => listener.on(PUBLIC_EVENTS_CHANNEL, (payload) => payload === eventId && resolve()));

const pageViewsOf = async (eventId: string) => {
  const rows = await t.ctx.db.selectFrom('event_page_views').select('visitor_hash').where('event_id', '=', eventId).execute();
  const { rows: daily } = await sql<{ page_views: number; unique_visitors: number }>`
    select coalesce(sum(page_views), 0)::int as page_views, coalesce(sum(unique_visitors), 0)::int as unique_visitors
    from event_daily_views where event_id = ${eventId}::uuid`.execute(t.ctx.db);
  return { rows: rows.length, pageViews: daily[0]!.page_views, unique: daily[0]!.unique_visitors };
};

describe('the cached public event page', () => {
  it('is read from memory, and a change made through one instance is seen by the other', async () => {
    const { event, ticketType } = await makePublishedEvent(t, tenant, org.id, { name: 'Before' });
    // The setup's own changes reach the second instance later: once a notification sent after them is heard, so
    // have they been (a listener hears notifications in commit order), and none can clear the page cached below.
    const settled = heardOn(second.listener, event.id);
    await notifyPublicEventChanged(t.ctx.db, event.id);
    await settled;
    expect(expectStatus(await onSecond(event.slug), 200).data.name).toBe('Before');
    // A change that bypasses the services sends no notification: the second instance still answers its copy.
    await t.ctx.db.updateTable('ticketed_events').set({ name: 'Unannounced' }).where('id', '=', event.id).execute();
    expect(expectStatus(await onSecond(event.slug), 200).data.name).toBe('Before');

    let heard = heardOn(second.listener, event.id);
    expectStatus(await t.http().patch(`/v1/organizer/events/${event.id}`).set(sk(tenant)).send({ name: 'After' }), 200);
    await heard;
    expect(expectStatus(await onSecond(event.slug), 200).data.name).toBe('After');

    heard = heardOn(second.listener, event.id);
    expectStatus(await t.http().patch(`/v1/organizer/events/${event.id}/ticket_types/${ticketType.id}`).set(sk(tenant)).send({ name: 'Early bird' }), 200);
    await heard;
    expect(expectStatus(await onSecond(event.slug), 200).data.ticket_types.map((tt: { name: string }) => tt.name)).toEqual(['Early bird']);

    heard = heardOn(second.listener, event.id);
    await makeTicketType(t, tenant, event.id, { name: 'VIP' });
    await heard;
    expect(expectStatus(await onSecond(event.slug), 200).data.ticket_types).toHaveLength(2);

    const organizer = expectStatus(await t.http().get(`/v1/organizer/events/${event.id}`).set(sk(tenant)), 200).data;
    const slotTimes = { starts_at: organizer.starts_at, ends_at: organizer.ends_at };
    heard = heardOn(second.listener, event.id);
    expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/slots`).set(sk(tenant)).send(slotTimes), 201);
    await heard;
    expect(expectStatus(await onSecond(event.slug), 200).data.slots).toHaveLength(1);

    heard = heardOn(second.listener, event.id);
    expectStatus(await t.http().post(`/v1/organizer/events/${event.id}/cancel`).set(sk(tenant)), 200);
    await heard;
    expectStatus(await onSecond(event.slug), 404);
  });

  it('answers a change made on the same instance at once', async () => {
    const { event } = await makePublishedEvent(t, tenant, org.id, { name: 'Here' });
    expect(expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 200).data.name).toBe('Here');
    expectStatus(await t.http().patch(`/v1/organizer/events/${event.id}`).set(sk(tenant)).send({ name: 'Renamed', slug: 'renamed-here' }), 200);
    expect(expectStatus(await t.http().get('/v1/events/renamed-here').set(pk(tenant)), 200).data.name).toBe('Renamed');
    expect(expectStatus(await t.http().get(`/v1/events/${event.id}`).set(pk(tenant)), 200).data.name).toBe('Renamed');
    expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 404);
  });

  it('is forgotten by the changing process inside the change, before any notification can arrive', async () => {
    const { event } = await makePublishedEvent(t, tenant, org.id);
    const cache = publicReadsOf(t.ctx).events;
    // A notification of an earlier test's change may overtake the first read, which is then not kept: read again.
    for (let i = 0; i < 5 && !cache.holds(event.id); i += 1) {
      expectStatus(await t.http().get(`/v1/events/${event.slug}`).set(pk(tenant)), 200);
    }
    expect(cache.holds(event.id)).toBe(true);
    await t.ctx.db.transaction().execute(async (trx) => {
      await publicEventChanged(t.ctx, trx, event.id);
      // Not committed yet, so nothing was notified: this process forgot the event by itself.
      expect(cache.holds(event.id)).toBe(false);
    });
  });

  it('never caches availability: seats taken show as sold out at once, with no notification', async () => {
    const { event } = await makePublishedEvent(t, tenant, org.id, {}, { quantity: 5 });
    expect(expectStatus(await onSecond(event.slug), 200).data.ticket_types[0].availability).toBe('available');
    await sql`update capacity_buckets set sold = capacity where event_id = ${event.id}::uuid and capacity is not null`.execute(t.ctx.db);
    expect(expectStatus(await onSecond(event.slug), 200).data.ticket_types[0].availability).toBe('sold_out');
  });

  it('keeps at most its bound of entries, the oldest going first, and forgets every key of a changed event', async () => {
    const stub = { on: () => undefined, onReset: () => undefined } as unknown as NotificationListener;
    const cache = new PublicEventCache(stub, 60_000, 2);
    const loads: string[] = [];
    const entry = (id: string) => ({ event: { id }, ticketTypes: [], slots: [] }) as unknown as PublicCatalogue;
    const read = (key: string, id: string) => cache.read(key, async () => (loads.push(key), entry(id)));
    await read('slug-a', 'a');
    await read('uuid-a', 'a');
    await read('slug-a', 'a');
    expect(loads).toEqual(['slug-a', 'uuid-a']);
    await read('slug-b', 'b');
    expect(cache.size).toBe(2);
    await read('slug-a', 'a');
    expect(loads).toEqual(['slug-a', 'uuid-a', 'slug-b', 'slug-a']);
    cache.forget('a');
    expect(cache.size).toBe(1);
    // A read that a change overtook is answered but not kept.
    await cache.read('slug-c', async () => (cache.forget('c'), entry('c')));
    expect(cache.size).toBe(1);
  });
});

describe('page views in batches', () => {
  it('counts every visitor of one batch, once each, on both instances', async () => {
    const { event } = await makePublishedEvent(t, tenant, org.id);
    const other = (await makePublishedEvent(t, tenant, org.id)).event;
    // The views of the tests above are written first, so the counts below are this test's own.
    await Promise.all([writePageViews(t), writePageViews(second)]);
    const agents = Array.from({ length: 40 }, (_, i) => `visitor-${i}`);
    // Concurrent reads, each visitor twice (the second is within the window), half of them on each instance.
    const answers = await Promise.all(
      agents.flatMap((agent, i) => {
        const read = (slug: string) => (i % 2 === 0 ? onSecond(slug, agent) : t.http().get(`/v1/events/${slug}`).set(pk(tenant)).set('User-Agent', agent));
        return [read(event.slug), read(event.slug), read(other.slug)];
      }),
    );
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    expect(publicReadsOf(second.ctx).pageViews.waiting).toBe(40);
    expect(publicReadsOf(t.ctx).pageViews.waiting).toBe(40);
    await Promise.all([writePageViews(t), writePageViews(second)]);
    expect(await pageViewsOf(event.id)).toEqual({ rows: 40, pageViews: 40, unique: 40 });
    expect(await pageViewsOf(other.id)).toEqual({ rows: 40, pageViews: 40, unique: 40 });
    // The next batch skips visitors already counted within the window and counts a new one.
    await onSecond(event.slug, 'visitor-0');
    await onSecond(event.slug, 'visitor-new');
    await writePageViews(second);
    expect(await pageViewsOf(event.id)).toEqual({ rows: 41, pageViews: 41, unique: 41 });
  });

  it('writes the views still in memory when a server stops', async () => {
    const { event } = await makePublishedEvent(t, tenant, org.id);
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-page-views-'));
    const config = loadConfig({
      DATABASE_URL: t.databaseUrl,
      SVC_OPERATOR_TOKEN: OPERATOR_TOKEN,
      SVC_ENCRYPTION_KEY: ENCRYPTION_KEY,
      LOG_LEVEL: 'silent',
      PORT: '0',
      SVC_DATA_DIR: dataDir,
      SVC_MEDIA_RTMP_PORT: '0',
      // Never on the timer: only the shutdown writes them.
      SVC_PAGE_VIEW_FLUSH_MS: '3600000',
      SVC_RATE_LIMIT_PUBLIC: '100000',
    });
    const running = await startServer({ ...config, DATABASE_URL: t.databaseUrl, SVC_ENCRYPTION_KEY: ENCRYPTION_KEY }, pino({ level: 'silent' }));
    try {
      for (const agent of ['a', 'b', 'c']) {
        const res = await fetch(`${running.url}/v1/events/${event.slug}`, { headers: { ...pk(tenant), 'user-agent': agent } });
        expect(res.status).toBe(200);
      }
      expect(publicReadsOf(running.ctx).pageViews.waiting).toBe(3);
      expect((await pageViewsOf(event.id)).rows).toBe(0);
    } finally {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect(await pageViewsOf(event.id)).toEqual({ rows: 3, pageViews: 3, unique: 3 });
  });
});
